/**
 * A map of the ensemble's document vectors learned from the applications themselves: two
 * applications filed under the same main CPC subgroup describe related inventions, two drawn at
 * random do not. It is the same KISSME metric the subword part learns from scheme titles
 * (cpc-alignment.ts), here over whole documents' joined vectors, so it weighs the directions
 * along which documents of one subgroup agree (the words of their art) above those along which
 * any two documents differ alike (drafting, length, boilerplate). The ensemble encoder applies it
 * last (core/encoder/ensemble-encoder.ts DocumentMap), to documents and queries alike.
 *
 * Only the dev half of the applications teaches it (held-out.ts isDevApplication), so the test
 * split of the held-out citations never supervised the vectors it is scored on. A map of D × D
 * needs many more subgroups than D to see what separates them (the between-subgroup scatter has
 * rank below the number of subgroups); a corpus with fewer than `subgroupsPerDimension` × D
 * subgroups of two or more documents gets no map (the bundled sample has a few hundred).
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { indexedText } from "../../core/encoder/document-text.ts"
import type { PatentTextEncoder } from "../../core/encoder/encoder.ts"
import { seededRandom } from "../../core/random.ts"
import { cpcAlignment } from "./cpc-alignment.ts"
import { isDevApplication } from "./held-out.ts"

/** The map's file in the ensemble's folder. */
export const DOCUMENT_MAP_FILE = "document-map.f32"

export interface DocumentAlignmentOptions {
  /** Documents encoded to learn from at most (a fixed hash-spread of the dev half). */
  readonly maxDocuments: number
  /** Subgroups of two or more documents needed per dimension of the map. */
  readonly subgroupsPerDimension: number
  /** Σ_S shrinkage (cpc-alignment.ts). */
  readonly shrinkage: number
}

/**
 * 40,000 documents give about 80,000 related pairs, enough for a 356-wide map at a 100k corpus's
 * cost whatever the corpus size (encoding them takes seconds). Shrinkage 0.1 was chosen on the
 * dev split of the 100k synthetic corpus's held-out citations (dense alone recall@100 / MRR,
 * a map learned from the dev half's other documents: none 0.691 / 0.131, 0.1 0.712 / 0.127,
 * 0.2 0.708 / 0.126, 0.3 0.708 / 0.126, 0.5 0.706 / 0.125).
 */
export const defaultDocumentAlignmentOptions: DocumentAlignmentOptions = { maxDocuments: 40_000, subgroupsPerDimension: 4, shrinkage: 0.1 }

const fnv1a = (s: string) => {
  let h = 2166136261
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0
  return h
}

export type AlignmentPlan =
  | {
      readonly _tag: "Plan"
      /** Application numbers to encode, in a fixed order; pairs index into it. */
      readonly documents: ReadonlyArray<string>
      readonly related: ReadonlyArray<readonly [number, number]>
      readonly unrelated: ReadonlyArray<readonly [number, number]>
      readonly subgroups: number
    }
  | { readonly _tag: "Skip"; readonly reason: string }

/**
 * Which documents to encode and which pairs to learn from: the dev half's applications with a
 * main subgroup (at most maxDocuments, by a fixed hash order), each paired with the next two of
 * its subgroup (related) and with one document of another subgroup drawn by a fixed seed
 * (unrelated).
 */
export const alignmentPlan = (
  applications: ReadonlyArray<{ readonly appNum: string; readonly subgroup: string }>,
  dimensions: number,
  options: DocumentAlignmentOptions = defaultDocumentAlignmentOptions
): AlignmentPlan => {
  const chosen = applications
    .filter((a) => isDevApplication(a.appNum))
    .map((a) => ({ ...a, h: fnv1a(`document-alignment:${a.appNum}`) }))
    .sort((a, b) => a.h - b.h || (a.appNum < b.appNum ? -1 : a.appNum > b.appNum ? 1 : 0))
    .slice(0, options.maxDocuments)
  const bySubgroup = new Map<string, number[]>()
  chosen.forEach((a, i) => (bySubgroup.get(a.subgroup) ?? bySubgroup.set(a.subgroup, []).get(a.subgroup)!).push(i))
  const groups = [...bySubgroup.values()].filter((g) => g.length >= 2)
  const needed = options.subgroupsPerDimension * dimensions
  if (groups.length < needed)
    return { _tag: "Skip", reason: `${groups.length} CPC subgroups with two or more dev-half applications; a ${dimensions}-wide map needs ${needed}` }
  const related: Array<readonly [number, number]> = []
  // Each document with the next two of its subgroup: about two pairs a document, whatever the subgroup's size.
  for (const g of groups) for (let k = 0; k < g.length; k++) for (const step of [1, 2]) if (k + step < g.length) related.push([g[k], g[k + step]])
  const random = seededRandom(112)
  const unrelated: Array<readonly [number, number]> = []
  for (let i = 0; i < chosen.length; i++) {
    const j = Math.floor(random() * chosen.length)
    if (chosen[j].subgroup !== chosen[i].subgroup) unrelated.push([i, j])
  }
  return { _tag: "Plan", documents: chosen.map((a) => a.appNum), related, unrelated, subgroups: groups.length }
}

/** The applications that get a vector, with their main CPC subgroup. */
const mainSubgroups = async (conn: DuckDBConnection) =>
  (
    (await conn.runAndReadAll(`
      SELECT a.app_num, min(c.symbol) FROM applications a JOIN cpc_assignments c ON c.app_num = a.app_num AND c.is_main
      WHERE coalesce(a.doc_type, '') NOT IN ('design', 'plant') GROUP BY a.app_num ORDER BY a.app_num`)).getRowsJS() as [string, string][]
  ).map(([appNum, subgroup]) => ({ appNum: String(appNum), subgroup: String(subgroup) }))

/** The indexed text (what the embed stage encodes) of each wanted application, streamed. */
const indexedTextsFor = async (conn: DuckDBConnection, wanted: ReadonlySet<string>) => {
  const out = new Map<string, string>()
  const result = await conn.stream(`
    SELECT a.app_num, a.title, a.abstract, c.text FROM applications a
    LEFT JOIN claims c ON c.app_num = a.app_num AND c.claim_num = 1`)
  for await (const rows of result.yieldRowsJs()) {
    for (const [appNum, title, abstract, claim] of rows as [string, string | null, string | null, string | null][]) {
      if (!wanted.has(String(appNum))) continue
      const text = indexedText({ title, abstract, firstClaim: claim })
      if (text) out.set(String(appNum), text)
    }
  }
  return out
}

export type DocumentMapResult =
  | { readonly _tag: "Learned"; readonly file: string; readonly dimensions: number; readonly documents: number; readonly related: number; readonly unrelated: number; readonly subgroups: number }
  | { readonly _tag: "Skipped"; readonly reason: string }

/**
 * Learns the map for `encoder` (the ensemble without a map) from the tables in `conn` and writes
 * it as `folder/file`; the caller names it in the ensemble's tokenizer.json.
 */
export const learnDocumentMap = async (
  conn: DuckDBConnection,
  encoder: PatentTextEncoder,
  folder: string,
  file: string,
  options: DocumentAlignmentOptions = defaultDocumentAlignmentOptions
): Promise<DocumentMapResult> => {
  const d = encoder.dimensions
  const plan = alignmentPlan(await mainSubgroups(conn), d, options)
  if (plan._tag === "Skip") return { _tag: "Skipped", reason: plan.reason }
  const texts = await indexedTextsFor(conn, new Set(plan.documents))
  const vectors: Array<Float32Array | undefined> = new Array(plan.documents.length)
  const BATCH = 256
  for (let start = 0; start < plan.documents.length; start += BATCH) {
    const batch = plan.documents.slice(start, start + BATCH).map((a, k) => ({ k: start + k, text: texts.get(a) }))
    const known = batch.filter((b): b is { k: number; text: string } => b.text !== undefined)
    const encoded = await encoder.encode(known.map((b) => b.text))
    known.forEach((b, i) => {
      // A text no part knows encodes to zeros: it says nothing about its subgroup.
      if (encoded[i].some((x) => x !== 0)) vectors[b.k] = encoded[i]
    })
  }
  const pairsOf = (pairs: ReadonlyArray<readonly [number, number]>) =>
    pairs.flatMap(([i, j]) => (vectors[i] && vectors[j] ? [[vectors[i]!, vectors[j]!] as const] : []))
  const related = pairsOf(plan.related)
  const unrelated = pairsOf(plan.unrelated)
  const map = cpcAlignment({ related, unrelated }, d, { shrinkage: options.shrinkage })
  if (!map) return { _tag: "Skipped", reason: `${related.length} related and ${unrelated.length} unrelated pairs encoded; a ${d}-wide map needs ${4 * d} of each` }
  await fs.writeFile(path.join(folder, file), new Uint8Array(map.buffer, map.byteOffset, map.byteLength))
  return { _tag: "Learned", file, dimensions: d, documents: vectors.filter(Boolean).length, related: related.length, unrelated: unrelated.length, subgroups: plan.subgroups }
}
