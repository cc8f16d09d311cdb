/**
 * The held-out citation queries' shared rules (bench/retrieval.ts, bench/lexical.ts): which split
 * a query falls in, and which references count as relevant to it.
 */
import type { CitationEdges } from "../core/search/citations.ts"

export type Split = "dev" | "test"

/** dev or test, by FNV-1a of the application number (stable whatever the corpus holds). */
export const splitOf = (appNum: string): Split => {
  let h = 2166136261
  for (let i = 0; i < appNum.length; i++) h = Math.imul(h ^ appNum.charCodeAt(i), 16777619) >>> 0
  return h % 2 === 0 ? "dev" : "test"
}

/** The references each query (a citing key `isQuery` admits) cites in the corpus, examiner-cited ones only when asked. */
export const citedReferences = (edges: CitationEdges, isQuery: (key: number) => boolean, examinerOnly: boolean) => {
  const m = new Map<number, Set<number>>()
  const { citing, cited, examiner, length } = edges
  for (let i = 0; i < length; i++)
    if (isQuery(citing[i]) && (!examinerOnly || examiner[i] === 1)) (m.get(citing[i]) ?? m.set(citing[i], new Set()).get(citing[i])!).add(cited[i])
  return m
}
