/**
 * What an earlier version's lexical stage made, for a night under the same tokeniser: every
 * indexed document's text hash (an unchanged title and abstract keep their counts) and, where its
 * postings hold counts (core/search/lexical-files.ts), the files a night adds a delta to.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { tableRelation } from "../../core/artifacts/table-delta.ts"
import { LEXICAL_DOCS, LEXICAL_INFO, LEXICAL_TERM_COUNTS, type LexicalInfo } from "../../core/search/lexical-files.ts"
import { sqlString } from "../stages/tables.ts"

export interface EarlierTermCounts {
  readonly dir: string
  readonly info: Partial<LexicalInfo>
  /** The earlier term counts (doc, term, tf) as a relation, through their delta where they have one. */
  readonly termCounts: string
}

export interface EarlierDocument {
  readonly doc: number
  readonly hash: string
  readonly len: number
}

/**
 * The earlier version's counts when its lexical stage ran this code (the same tokeniser) and wrote
 * them; undefined otherwise (the night then tokenises every text).
 */
export const earlierTermCounts = async (conn: DuckDBConnection, previous: { readonly dir: string; readonly sameCode: boolean } | undefined) => {
  if (!previous?.sameCode) return undefined
  const file = path.join(previous.dir, LEXICAL_TERM_COUNTS)
  if (!(await fs.stat(file).then(() => true, () => false))) return undefined
  const info = await fs
    .readFile(path.join(previous.dir, LEXICAL_INFO), "utf8")
    .then((t) => JSON.parse(t) as Partial<LexicalInfo>)
    .catch(() => ({}) as Partial<LexicalInfo>)
  return { dir: previous.dir, info, termCounts: await tableRelation(conn, file) } satisfies EarlierTermCounts
}

/**
 * Application → its earlier posting id, text hash and length (in stems): of every application, or of
 * those in `only` (a relation with one column `k`: a night's listed keys, not a million documents).
 */
export const earlierDocuments = async (conn: DuckDBConnection, earlier: EarlierTermCounts, only?: string) => {
  const byApp = new Map<string, EarlierDocument>()
  const docs = `read_parquet(${sqlString(path.join(earlier.dir, LEXICAL_DOCS))})`
  const result = await conn.stream(`SELECT doc, app_num, text_hash, len FROM ${docs}${only ? ` WHERE app_num IN (SELECT k FROM ${only})` : ""}`)
  for await (const chunk of result.yieldRowsJs()) for (const [doc, app, hash, len] of chunk as [number, string, string, number][]) byApp.set(app, { doc, hash, len })
  return byApp
}
