/**
 * The applications in key order (application number) with what the embed stage needs of each.
 *
 * Without change lists every application's title, abstract and first claim are read. With them (a
 * night: ingest names the applications whose rows changed since the version the vectors come
 * from, pipeline/ingest/changes.ts) every application's number and document type are read, but
 * texts only for the listed ones: a national corpus's texts are gigabytes, a night changes a few
 * thousand applications, and an unlisted one's text is the one its earlier vector encodes.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { type ChangedKeys, rowsOfListed } from "../ingest/changes.ts"
import { sqlString } from "../stages/tables.ts"

export interface ApplicationText {
  readonly app_num: string
  readonly docType: string | null
  /** Its key and text hash in the earlier version's vectors, where it had one there (`earlier` given). */
  readonly before?: { readonly key: number; readonly hash: string }
  /** False for an application the change lists leave out: its texts were not read. */
  readonly read: boolean
  readonly title?: string | null
  readonly abstract?: string | null
  readonly firstClaim?: string | null
}

const TEXTS = `SELECT a.app_num, a.title, a.abstract, c.text AS first_claim, a.doc_type
  FROM applications a LEFT JOIN claims c ON c.app_num = a.app_num AND c.claim_num = 1`

type TextRow = [string, string | null, string | null, string | null, string | null]

/**
 * `earlier`: the earlier version's vectors.parquet, joined here so each application comes with its
 * earlier key and text hash (a map of a million application numbers cost more than the join).
 */
export async function* applicationTexts(conn: DuckDBConnection, changed?: ChangedKeys, earlier?: string): AsyncGenerator<ApplicationText> {
  const join = (alias: string) => (earlier ? `LEFT JOIN read_parquet(${sqlString(earlier)}) e ON e.app_num = ${alias}.app_num` : "")
  const beforeColumns = earlier ? "e.key, e.text_hash" : "NULL, NULL"
  const before = (key: number | null, hash: string | null) => (key === null || hash === null ? {} : { before: { key, hash } })
  const texts = changed ? await rowsOfListed<TextRow>(conn, changed, TEXTS, "app_num", ["applications", "claims"]) : undefined
  if (texts) {
    const numbers = await conn.stream(`SELECT a.app_num, a.doc_type, ${beforeColumns} FROM applications a ${join("a")} ORDER BY a.app_num`)
    for await (const chunk of numbers.yieldRowsJs()) {
      for (const [app_num, docType, key, hash] of chunk as [string, string | null, number | null, string | null][]) {
        const t = texts.get(app_num)
        yield t
          ? { app_num, docType, read: true, title: t[1], abstract: t[2], firstClaim: t[3], ...before(key, hash) }
          : { app_num, docType, read: false, ...before(key, hash) }
      }
    }
    return
  }
  const result = await conn.stream(`SELECT t.*, ${beforeColumns} FROM (${TEXTS}) t ${join("t")} ORDER BY t.app_num`)
  for await (const chunk of result.yieldRowsJs()) {
    for (const [app_num, title, abstract, firstClaim, docType, key, hash] of chunk as [...TextRow, number | null, string | null][])
      yield { app_num, docType, read: true, title, abstract, firstClaim, ...before(key, hash) }
  }
}
