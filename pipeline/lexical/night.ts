/**
 * A night's lexical index as a delta beside the earlier version's (core/search/lexical-files.ts):
 * postings.bin and the base of lexical_tf are hard-linked, and only what the applications ingest's
 * change lists name is read and tokenised.
 *
 * A listed application whose title and abstract are unchanged keeps its document. Any other listed
 * one that had a document gives it up (its id is indexed no more: left out of lexical_docs, of the
 * term counts through lexical_tf's replaced list, and of every df), and a new or reworded text gets
 * a new id above every earlier one, so its postings go after the base's, in postings.delta.bin.
 * Each night writes the delta of every document added since the base was written (the earlier
 * delta's counts, less the documents given up, plus tonight's), so a version has one base and one
 * delta. Past `limit` of the base (postings in the delta, or base ids given up) the caller writes
 * the index whole again instead.
 *
 * Search answers equal a whole write's (test/pipeline/incremental-build.test.ts): the same
 * documents with the same counts and lengths, so the same df, document count and average length,
 * and BM25 is computed from them at query time.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import * as fs from "node:fs"
import * as path from "node:path"
import { linkFile } from "../../core/artifacts/files.ts"
import { deltaPartsOf } from "../../core/artifacts/table-delta.ts"
import { LEXICAL_DOCS, LEXICAL_INFO, LEXICAL_POSTINGS, LEXICAL_POSTINGS_DELTA, LEXICAL_TERM_COUNTS, LEXICAL_TERMS } from "../../core/search/lexical-files.ts"
import { type ChangedKeys, changedKeysSql, rowsOfListed } from "../ingest/changes.ts"
import type { StageContext, StageResult } from "../stages/Stage.ts"
import { sqlString, withTables } from "../stages/tables.ts"
import { stageMemoryLimit } from "../stages/duckdb.ts"
import { textHash } from "../stages/text-hash.ts"
import { writeEntityTable } from "../stages/entity-delta.ts"
import { appendDocument } from "./append.ts"
import { INDEXED, lexicalNotes, writeLexicalInfo } from "./info.ts"
import { writePostings } from "./postings.ts"
import { earlierDocuments, type EarlierTermCounts } from "./reuse.ts"

type Listed = ReadonlyMap<string, readonly [string, string | null, string | null]>

/** The listed applications' titles and abstracts now (indexed ones only) and every listed key, sorted; undefined past the lists' limit. */
const readListed = (workDir: string, changed: ChangedKeys) =>
  withTables(workDir, async (src) => {
    const listed = await rowsOfListed<[string, string | null, string | null]>(src, changed, INDEXED, "app_num", ["applications"])
    if (!listed) return undefined
    const keys = ((await src.runAndReadAll(`SELECT k FROM ${changedKeysSql(changed)} ORDER BY k`)).getRowsJS() as [string][]).map(([k]) => k)
    return { listed: listed as Listed, keys }
  }, { memoryLimit: stageMemoryLimit(1 / 2) })

export const writeNight = async (
  ctx: StageContext,
  conn: DuckDBConnection,
  earlier: EarlierTermCounts,
  changed: ChangedKeys,
  limit: number,
  seconds: () => string
): Promise<(StageResult & { readonly linked: ReadonlyArray<string> }) | undefined> => {
  const e = earlier.info
  if (e.postings !== "counts" || e.nextDoc === undefined || e.baseDocs === undefined || e.basePostings === undefined || e.deltaPostings === undefined) return undefined
  const read = await readListed(ctx.workDir, changed)
  if (!read) return undefined
  const earlierFile = (rel: string) => path.join(earlier.dir, rel)
  const earlierTf = deltaPartsOf(earlierFile(LEXICAL_TERM_COUNTS))
  const earlierHasDelta = fs.existsSync(earlierTf.delta) && fs.existsSync(earlierTf.replaced)
  // The listed applications' earlier documents only: the others keep theirs untouched.
  const earlierDocs = await earlierDocuments(conn, earlier, changedKeysSql(changed))

  await conn.run(`CREATE TABLE night_docs (doc INTEGER, app_num VARCHAR, len INTEGER, text_hash VARCHAR)`)
  await conn.run(`CREATE TABLE night_tf (term VARCHAR, doc INTEGER, tf INTEGER)`)
  await conn.run(`CREATE TABLE removed (doc INTEGER)`)
  const docs = await conn.createAppender("night_docs")
  const tfs = await conn.createAppender("night_tf")
  const removed = await conn.createAppender("removed")
  let nextDoc = e.nextDoc
  let given = 0
  let tokenised = 0
  for (const app of read.keys) {
    const before = earlierDocs.get(app)
    const now = read.listed.get(app)
    const text = now ? `${now[1] ?? ""}\n${now[2] ?? ""}`.trim() : ""
    const hash = text ? textHash(text) : undefined
    if (before && before.hash === hash) continue
    if (before) {
      removed.appendInteger(before.doc)
      removed.endRow()
      given++
    }
    if (!text || !appendDocument(tfs, docs, nextDoc, app, text, hash!)) continue
    nextDoc++
    tokenised++
  }
  for (const a of [docs, tfs, removed]) {
    a.flushSync()
    a.closeSync()
  }
  ctx.progress.info(`texts of ${read.listed.size} listed applications read, ${tokenised} documents tokenised, ${given} given up (${seconds()})`)

  // Every document added since the base was written, less those given up: the delta's counts.
  const earlierDelta = earlierHasDelta ? `SELECT doc, term, tf FROM read_parquet(${sqlString(earlierTf.delta)}) UNION ALL ` : ""
  await conn.run(`CREATE TABLE delta_tf AS SELECT a.* FROM (${earlierDelta}SELECT doc, term, tf FROM night_tf) a ANTI JOIN removed r ON r.doc = a.doc`)
  await conn.run(`CREATE TABLE docs AS
    SELECT e.* FROM read_parquet(${sqlString(earlierFile(LEXICAL_DOCS))}) e ANTI JOIN removed r ON r.doc = e.doc
    UNION ALL SELECT * FROM night_docs`)
  const [[deltaPostings, baseLive]] = (
    await conn.runAndReadAll(`SELECT (SELECT count(*) FROM delta_tf)::BIGINT, (SELECT count(*) FROM docs WHERE doc < ${e.baseDocs})::BIGINT`)
  ).getRowsJS() as [bigint, bigint][]
  const givenUp = e.baseDocs - Number(baseLive)
  if (Number(deltaPostings) > limit * e.basePostings || givenUp > limit * e.baseDocs) {
    ctx.progress.info(`the delta would hold ${deltaPostings} postings and ${givenUp} of the base's ${e.baseDocs} ids are given up: past ${limit} of the base, written whole`)
    for (const t of ["night_docs", "night_tf", "removed", "delta_tf", "docs"]) await conn.run(`DROP TABLE ${t}`)
    return undefined
  }

  // df: the earlier, less the documents given up, plus tonight's.
  await conn.run(`CREATE TABLE dropped AS SELECT term, count(*) AS n FROM ${earlier.termCounts} WHERE doc IN (SELECT doc FROM removed) GROUP BY term`)
  await conn.run(`CREATE TABLE terms AS
    WITH added AS (SELECT term, count(*) AS n FROM night_tf GROUP BY term),
      dl AS (SELECT term, count(*) AS delta_length FROM delta_tf GROUP BY term),
      merged AS (
        SELECT term,
          (coalesce(t.df, 0) - coalesce(d.n, 0) + coalesce(a.n, 0))::BIGINT AS df,
          coalesce(t."offset", 0)::BIGINT AS "offset", coalesce(t.length, 0)::BIGINT AS length,
          coalesce(dl.delta_length, 0)::BIGINT AS delta_length
        FROM read_parquet(${sqlString(earlierFile(LEXICAL_TERMS))}) t
        FULL JOIN added a USING (term) FULL JOIN dl USING (term) LEFT JOIN dropped d USING (term))
    SELECT term, df, "offset", length, (sum(delta_length) OVER (ORDER BY term) - delta_length)::BIGINT AS delta_offset, delta_length
    FROM merged WHERE df > 0 OR length > 0 OR delta_length > 0`)

  const out = (rel: string) => path.join(ctx.workDir, rel)
  await linkFile(earlierFile(LEXICAL_POSTINGS), out(LEXICAL_POSTINGS))
  const lengths = ((await conn.runAndReadAll(`SELECT delta_length::INTEGER FROM terms WHERE delta_length > 0 ORDER BY term`)).getRowsJS() as [number][]).map(([n]) => n)
  await writePostings(conn, out(LEXICAL_POSTINGS_DELTA), `SELECT doc, tf::FLOAT FROM delta_tf ORDER BY term, doc`, lengths)
  // lexical_tf: the earlier base linked, the ids given up as its replaced entities, the delta's counts beside it.
  const tf = await writeEntityTable(conn, ctx.workDir, {
    file: out(LEXICAL_TERM_COUNTS),
    earlierFile: earlierFile(LEXICAL_TERM_COUNTS),
    entity: "doc",
    fresh: "night_tf",
    affected: "(SELECT doc AS k FROM removed)",
    // The limits above decided already.
    limit: Infinity,
    orderBy: "doc, term"
  })
  await conn.run(`COPY (SELECT doc, app_num, len, text_hash FROM docs ORDER BY doc) TO ${sqlString(out(LEXICAL_DOCS))} (FORMAT parquet)`)
  await conn.run(`COPY (SELECT * FROM terms ORDER BY term) TO ${sqlString(out(LEXICAL_TERMS))} (FORMAT parquet)`)
  const info = await writeLexicalInfo(conn, ctx.workDir, { nextDoc, baseDocs: e.baseDocs, basePostings: e.basePostings, deltaPostings: Number(deltaPostings) })
  ctx.progress.info(`postings delta written (${seconds()})`)
  return {
    outputs: [LEXICAL_DOCS, LEXICAL_TERMS, LEXICAL_POSTINGS, LEXICAL_POSTINGS_DELTA, LEXICAL_INFO, LEXICAL_TERM_COUNTS, ...tf.deltaFiles],
    linked: [LEXICAL_POSTINGS, LEXICAL_TERM_COUNTS],
    rowCounts: { lexical_docs: info.documents, lexical_terms: info.terms },
    notes: [
      `${info.documents - tokenised} documents kept from the earlier version (same tokeniser, same text); ${tokenised} tokenised, ${given} given up`,
      `title and abstract read for ${read.listed.size} applications: the others are unchanged since the earlier version (ingest's change lists)`,
      ...lexicalNotes(info)
    ]
  }
}
