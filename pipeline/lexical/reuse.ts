/**
 * Term counts an earlier version's lexical stage made, reused for applications whose title and
 * abstract are unchanged: a nightly build tokenises only new and changed texts. Postings and their
 * BM25 impacts are recomputed from all counts (idf and the average length move with every
 * document), so the result equals tokenising everything again.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { sqlString } from "../stages/tables.ts"

export const LEXICAL_DOCS = "lexical/lexical_docs.parquet"
/** Per posting document, its stems' counts: what a later build takes over. */
export const LEXICAL_TERM_COUNTS = "lexical/lexical_tf.parquet"

export interface EarlierTermCounts {
  readonly termCounts: string
  /** Application → its posting id, text hash and length (in stems) there. */
  readonly byApp: ReadonlyMap<string, { readonly doc: number; readonly hash: string; readonly len: number }>
}

/**
 * The earlier version's counts when its lexical stage ran this code (the same tokeniser) and wrote
 * them; undefined otherwise (the night then tokenises every text).
 */
export const earlierTermCounts = async (conn: DuckDBConnection, previous: { readonly dir: string; readonly sameCode: boolean } | undefined) => {
  if (!previous?.sameCode) return undefined
  const termCounts = path.join(previous.dir, LEXICAL_TERM_COUNTS)
  const docs = path.join(previous.dir, LEXICAL_DOCS)
  if (!(await fs.stat(termCounts).then(() => true, () => false))) return undefined
  const byApp = new Map<string, { doc: number; hash: string; len: number }>()
  const result = await conn.stream(`SELECT doc, app_num, text_hash, len FROM read_parquet(${sqlString(docs)})`)
  for await (const chunk of result.yieldRowsJs()) for (const [doc, app, hash, len] of chunk as [number, string, string, number][]) byApp.set(app, { doc, hash, len })
  return { termCounts, byApp } satisfies EarlierTermCounts
}
