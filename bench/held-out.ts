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

/** Words a short query keeps at most. */
export const SHORT_QUERY_WORDS = 25

/**
 * The query as a user types it into the search box, not the pasted abstract + claim: the first
 * claim's preamble and first element (its text up to the first semicolon, claim number dropped),
 * at most SHORT_QUERY_WORDS words ("A lithium ion battery comprising: a cathode"); the title where
 * the query document has no claim. Long queries show no off-topic head (README): the dense match
 * is strong and the citation graph's seeds are on topic; a short query's is weak, and it is the
 * head a searcher sees that suffers.
 */
export const shortQuery = (doc: { readonly title?: string | null; readonly claim?: string | null }): string => {
  const clean = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim()
  const claim = clean(doc.claim).replace(/^\d+\s*[.)]\s*/, "")
  const opening = claim ? claim.split(";")[0]! : clean(doc.title)
  return opening.split(" ").slice(0, SHORT_QUERY_WORDS).join(" ").replace(/[,:]$/, "")
}
