/**
 * The lexical index written whole: every indexed document numbered afresh in app_num order, its
 * counts tokenised now or, for a title and abstract unchanged since the earlier version, taken over
 * from there (the night then reads only the texts ingest's change lists name), and one postings
 * file. What a first build, a build under a new tokeniser and a night past the delta's limit do.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import * as path from "node:path"
import { LEXICAL_DOCS, LEXICAL_POSTINGS, LEXICAL_TERM_COUNTS, LEXICAL_TERMS } from "../../core/search/lexical-files.ts"
import type { ChangedKeys } from "../ingest/changes.ts"
import { rowsOfListed } from "../ingest/changes.ts"
import type { StageContext, StageResult } from "../stages/Stage.ts"
import { sqlString, withTables } from "../stages/tables.ts"
import { stageMemoryLimit } from "../stages/duckdb.ts"
import { textHash } from "../stages/text-hash.ts"
import { appendDocument } from "./append.ts"
import { INDEXED, lexicalNotes, writeLexicalInfo } from "./info.ts"
import { writePostings } from "./postings.ts"
import { earlierDocuments, type EarlierTermCounts } from "./reuse.ts"

/** Per term in term order: documents, offset of its postings, and no delta. */
const TERMS_OF_TF = `
  SELECT term, count(*) AS df, (sum(count(*)) OVER (ORDER BY term) - count(*))::BIGINT AS "offset", count(*) AS length,
    0::BIGINT AS delta_offset, 0::BIGINT AS delta_length
  FROM tf GROUP BY term`

export const writeWhole = async (
  ctx: StageContext,
  conn: DuckDBConnection,
  earlier: EarlierTermCounts | undefined,
  changed: ChangedKeys | undefined,
  seconds: () => string
): Promise<StageResult> => {
  await conn.run(`CREATE TABLE docs (doc INTEGER, app_num VARCHAR, len INTEGER, text_hash VARCHAR)`)
  await conn.run(`CREATE TABLE tf (term VARCHAR, doc INTEGER, tf INTEGER)`)
  await conn.run(`CREATE TABLE reused (doc INTEGER, earlier_doc INTEGER)`)
  const docs = await conn.createAppender("docs")
  const tfs = await conn.createAppender("tf")
  const reused = await conn.createAppender("reused")
  let doc = 0
  let reusedCount = 0
  let textsRead = 0
  let unlisted = 0
  const earlierDocs = earlier ? await earlierDocuments(conn, earlier) : undefined
  await withTables(ctx.workDir, async (src) => {
    // A night's change lists name the applications whose title or abstract may differ: only theirs are read.
    const listed = changed ? await rowsOfListed<[string, string | null, string | null]>(src, changed, INDEXED, "app_num", ["applications"]) : undefined
    const takeOver = (app: string, before: { readonly doc: number; readonly hash: string; readonly len: number }) => {
      reused.appendInteger(doc)
      reused.appendInteger(before.doc)
      reused.endRow()
      docs.appendInteger(doc)
      docs.appendVarchar(app)
      docs.appendInteger(before.len)
      docs.appendVarchar(before.hash)
      docs.endRow()
      doc++
      reusedCount++
    }
    const result = await src.stream(listed ? `SELECT app_num FROM (${INDEXED}) ORDER BY app_num` : `${INDEXED} ORDER BY app_num`)
    for await (const rows of result.yieldRowsJs()) {
      for (const row of rows as [string, string | null, string | null][]) {
        const app = row[0]
        let title = row[1]
        let abstract = row[2]
        if (listed) {
          const r = listed.get(app)
          if (!r) {
            // Unlisted: the title and abstract its earlier counts were taken from (none: it had no terms there).
            const before = earlierDocs!.get(app)
            if (before) takeOver(app, before)
            unlisted++
            continue
          }
          ;[, title, abstract] = r
          textsRead++
        } else textsRead++
        const text = `${title ?? ""}\n${abstract ?? ""}`.trim()
        if (!text) continue
        const hash = textHash(text)
        const before = earlierDocs?.get(app)
        if (before && before.hash === hash) {
          takeOver(app, before)
          continue
        }
        if (appendDocument(tfs, docs, doc, app, text, hash)) doc++
      }
      ctx.progress.tick(rows.length, "documents")
    }
  }, { memoryLimit: stageMemoryLimit(1 / 2) })
  await conn.run(`SET memory_limit = ${sqlString(stageMemoryLimit())}`)
  for (const a of [docs, tfs, reused]) {
    a.flushSync()
    a.closeSync()
  }
  if (earlier && reusedCount) await conn.run(`INSERT INTO tf SELECT e.term, r.doc, e.tf FROM reused r JOIN ${earlier.termCounts} e ON e.doc = r.earlier_doc`)
  ctx.progress.info(`texts of ${textsRead} applications read, ${reusedCount} term counts taken over and ${doc - reusedCount} documents tokenised (${seconds()})`)

  await conn.run(`CREATE TABLE terms AS ${TERMS_OF_TF}`)
  // Postings in (term, doc) order with their counts, streamed into one binary file.
  const lengths = ((await conn.runAndReadAll(`SELECT length::INTEGER FROM terms ORDER BY term`)).getRowsJS() as [number][]).map(([n]) => n)
  await writePostings(conn, path.join(ctx.workDir, LEXICAL_POSTINGS), `SELECT doc, tf::FLOAT FROM tf ORDER BY term, doc`, lengths)
  ctx.progress.info(`postings written (${seconds()})`)
  const postings = lengths.reduce((a, b) => a + b, 0)

  await conn.run(`COPY (SELECT doc, app_num, len, text_hash FROM docs ORDER BY doc) TO ${sqlString(path.join(ctx.workDir, LEXICAL_DOCS))} (FORMAT parquet)`)
  await conn.run(`COPY (SELECT doc, term, tf FROM tf ORDER BY doc, term) TO ${sqlString(path.join(ctx.workDir, LEXICAL_TERM_COUNTS))} (FORMAT parquet, COMPRESSION zstd)`)
  await conn.run(`COPY (SELECT * FROM terms ORDER BY term) TO ${sqlString(path.join(ctx.workDir, LEXICAL_TERMS))} (FORMAT parquet)`)
  const info = await writeLexicalInfo(conn, ctx.workDir, { nextDoc: doc, baseDocs: doc, basePostings: postings, deltaPostings: 0 })
  return {
    outputs: [LEXICAL_DOCS, LEXICAL_TERMS, LEXICAL_POSTINGS, "lexical/lexical.json", LEXICAL_TERM_COUNTS],
    rowCounts: { lexical_docs: info.documents, lexical_terms: info.terms },
    notes: [
      earlier ? `${reusedCount} documents' term counts taken over from the earlier version (same tokeniser, same text); ${info.documents - reusedCount} tokenised` : `${info.documents} documents tokenised`,
      ...(unlisted ? [`title and abstract read for ${textsRead} applications: ${unlisted} others are unchanged since the earlier version (ingest's change lists)`] : []),
      ...lexicalNotes(info)
    ]
  }
}
