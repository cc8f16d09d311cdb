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

export interface ApplicationText {
  readonly app_num: string
  readonly docType: string | null
  /** False for an application the change lists leave out: its texts were not read. */
  readonly read: boolean
  readonly title?: string | null
  readonly abstract?: string | null
  readonly firstClaim?: string | null
}

const TEXTS = `SELECT a.app_num, a.title, a.abstract, c.text AS first_claim, a.doc_type
  FROM applications a LEFT JOIN claims c ON c.app_num = a.app_num AND c.claim_num = 1`

type TextRow = [string, string | null, string | null, string | null, string | null]

export async function* applicationTexts(conn: DuckDBConnection, changed?: ChangedKeys): AsyncGenerator<ApplicationText> {
  const texts = changed ? await rowsOfListed<TextRow>(conn, changed, TEXTS, "app_num", ["applications", "claims"]) : undefined
  if (texts) {
    const numbers = await conn.stream(`SELECT app_num, doc_type FROM applications ORDER BY app_num`)
    for await (const chunk of numbers.yieldRowsJs()) {
      for (const [app_num, docType] of chunk as [string, string | null][]) {
        const t = texts.get(app_num)
        yield t ? { app_num, docType, read: true, title: t[1], abstract: t[2], firstClaim: t[3] } : { app_num, docType, read: false }
      }
    }
    return
  }
  const result = await conn.stream(`${TEXTS} ORDER BY a.app_num`)
  for await (const chunk of result.yieldRowsJs()) {
    for (const [app_num, title, abstract, firstClaim, docType] of chunk as TextRow[]) yield { app_num, docType, read: true, title, abstract, firstClaim }
  }
}
