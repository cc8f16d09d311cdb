/**
 * The lexical stage: a BM25 inverted index over titles and abstracts (no network, no DuckDB
 * extension), built with the same patent tokeniser as the encoder.
 *
 * BM25 (k1 = 1.2, b = 0.75) is precomputed per posting as an impact
 *   idf(t) · tf · (k1 + 1) / (tf + k1 · (1 − b + b · len / avglen)),  idf = ln(1 + (N − df + 0.5) / (df + 0.5))
 * so a query's score is the sum of its terms' impacts: one sequential read per query term.
 *
 * Outputs (lexical/)
 *   lexical_docs.parquet   doc (posting id), app_num, len (stems), text_hash (of title and abstract)
 *   lexical_tf.parquet     doc, term, tf: the counts a nightly build takes over for unchanged texts (reuse.ts)
 *                          (a night reads only the titles and abstracts ingest's change lists name:
 *                          an unlisted application's counts are its earlier ones)
 *   lexical_terms.parquet  term, df, offset, length (postings slice, in entries)
 *   postings.bin     per term, ascending doc: uint32 doc ids, then float32 impacts (same length)
 *   lexical.json     N, avg length, k1, b, tokenizer settings
 */
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { defaultPatentTokenizerSettings, tokenizePatentText } from "../../core/text/tokenize.ts"
import { type Stage, type StageResult, stagePromise } from "../stages/Stage.ts"
import { sqlString, withTables } from "../stages/tables.ts"
import { textHash } from "../stages/text-hash.ts"
import { changedSince, ingestChanges, rowsOfListed } from "../ingest/changes.ts"
import { writePostings } from "./postings.ts"
import { earlierTermCounts, LEXICAL_DOCS, LEXICAL_TERM_COUNTS } from "./reuse.ts"
import { closeStageDatabase, openStageDatabase, spillDirOf, stageMemoryLimit } from "../stages/duckdb.ts"
import { stopwatch } from "../stages/stopwatch.ts"

/**
 * What is indexed: title and abstract of every application but design and plant ones, which have
 * no vector and are not prior art for a utility claim (SPEC 4.2): keeping them out of the postings
 * keeps them out of hybrid results too.
 */
const INDEXED = `SELECT app_num, title, abstract FROM applications WHERE coalesce(doc_type, '') NOT IN ('design', 'plant')`

export const BM25_K1 = 1.2
export const BM25_B = 0.75

export const lexicalStage: Stage = {
  name: "lexical",
  sources: ["pipeline/lexical", "core/text/tokenize.ts"],
  dependsOn: ["ingest"],
  readsCorpusFile: () => false,
  run: (ctx) =>
    stagePromise(async (): Promise<StageResult> => {
      const seconds = stopwatch()
      const dir = path.join(ctx.workDir, "lexical")
      await fs.rm(dir, { recursive: true, force: true })
      await fs.mkdir(dir, { recursive: true })
      const stagingFile = path.join(dir, ".postings.duckdb")
      // Half the stage's memory while the tables' database is open beside it; all of it after.
      const spillDir = spillDirOf(ctx.workDir, "lexical")
      const db = await openStageDatabase({ file: stagingFile, spillDir, memoryLimit: stageMemoryLimit(1 / 2) })
      const conn = await db.connect()
      try {
        await conn.run(`CREATE TABLE docs (doc INTEGER, app_num VARCHAR, len INTEGER, text_hash VARCHAR)`)
        await conn.run(`CREATE TABLE tf (term VARCHAR, doc INTEGER, tf INTEGER)`)
        await conn.run(`CREATE TABLE reused (doc INTEGER, earlier_doc INTEGER)`)
        const docs = await conn.createAppender("docs")
        const tfs = await conn.createAppender("tf")
        const reused = await conn.createAppender("reused")
        // Under the same tokeniser the earlier version's counts of unchanged texts are taken over.
        const earlier = await earlierTermCounts(conn, ctx.previous && { dir: ctx.previous.dir, sameCode: ctx.previous.record.codeVersion === ctx.codeVersion })
        let doc = 0
        let reusedCount = 0
        let textsRead = 0
        let unlisted = 0
        await withTables(ctx.workDir, async (src) => {
          // A night's change lists name the applications whose title or abstract may differ: only theirs are read.
          const changed = earlier ? await changedSince(ctx.outputOf(ingestChanges), ctx.previous?.dir, ["applications"]) : undefined
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
                  const before = earlier!.byApp.get(app)
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
              const before = earlier?.byApp.get(app)
              if (before && before.hash === hash) {
                takeOver(app, before)
                continue
              }
              const counts = new Map<string, number>()
              for (const t of tokenizePatentText(text)) counts.set(t.stem, (counts.get(t.stem) ?? 0) + 1)
              if (counts.size === 0) continue
              let len = 0
              for (const [term, n] of counts) {
                tfs.appendVarchar(term)
                tfs.appendInteger(doc)
                tfs.appendInteger(n)
                tfs.endRow()
                len += n
              }
              docs.appendInteger(doc)
              docs.appendVarchar(app)
              docs.appendInteger(len)
              docs.appendVarchar(hash)
              docs.endRow()
              doc++
            }
            ctx.progress.tick(rows.length, "documents")
          }
        }, { memoryLimit: stageMemoryLimit(1 / 2) })
        await conn.run(`SET memory_limit = ${sqlString(stageMemoryLimit())}`)
        docs.flushSync()
        docs.closeSync()
        tfs.flushSync()
        tfs.closeSync()
        reused.flushSync()
        reused.closeSync()
        if (earlier && reusedCount) {
          await conn.run(`INSERT INTO tf SELECT e.term, r.doc, e.tf FROM reused r JOIN read_parquet(${sqlString(earlier.termCounts)}) e ON e.doc = r.earlier_doc`)
        }

        ctx.progress.info(`texts of ${textsRead} applications read, ${reusedCount} term counts taken over and ${doc - reusedCount} documents tokenised (${seconds()})`)
        const [[n, avg]] = (await conn.runAndReadAll(`SELECT count(*), coalesce(avg(len), 0) FROM docs`)).getRowsJS() as [number, number][]
        const N = Number(n)
        await conn.run(`
          CREATE TABLE terms AS
          SELECT term, count(*) AS df, (sum(count(*)) OVER (ORDER BY term) - count(*))::BIGINT AS "offset", count(*) AS length
          FROM tf GROUP BY term`)
        // Postings in (term, doc) order with their BM25 impacts, streamed into one binary file.
        const lengths = ((await conn.runAndReadAll(`SELECT length::INTEGER FROM terms ORDER BY term`)).getRowsJS() as [number][]).map(([n]) => n)
        await writePostings(
          conn,
          path.join(dir, "postings.bin"),
          `SELECT tf.doc,
            (ln(1 + (${N} - t.df + 0.5) / (t.df + 0.5)) * tf.tf * ${BM25_K1 + 1}
              / (tf.tf + ${BM25_K1} * (1 - ${BM25_B} + ${BM25_B} * d.len / ${Math.max(avg, 1e-9)})))::FLOAT AS impact
          FROM tf JOIN terms t USING (term) JOIN docs d USING (doc)
          ORDER BY tf.term, tf.doc`,
          lengths
        )
        ctx.progress.info(`postings written (${seconds()})`)

        await conn.run(`COPY (SELECT doc, app_num, len, text_hash FROM docs ORDER BY doc) TO ${sqlString(path.join(ctx.workDir, LEXICAL_DOCS))} (FORMAT parquet)`)
        await conn.run(`COPY (SELECT doc, term, tf FROM tf ORDER BY doc, term) TO ${sqlString(path.join(ctx.workDir, LEXICAL_TERM_COUNTS))} (FORMAT parquet, COMPRESSION zstd)`)
        await conn.run(`COPY (SELECT term, df, "offset", length FROM terms ORDER BY term) TO ${sqlString(path.join(dir, "lexical_terms.parquet"))} (FORMAT parquet)`)
        const [[termCount]] = (await conn.runAndReadAll(`SELECT count(*) FROM terms`)).getRowsJS() as [number][]
        await fs.writeFile(
          path.join(dir, "lexical.json"),
          JSON.stringify({ documents: N, averageLength: avg, k1: BM25_K1, b: BM25_B, fields: ["title", "abstract"], tokenizer: defaultPatentTokenizerSettings }, null, 2)
        )
        return {
          outputs: [LEXICAL_DOCS, "lexical/lexical_terms.parquet", "lexical/postings.bin", "lexical/lexical.json", LEXICAL_TERM_COUNTS],
          rowCounts: { lexical_docs: N, lexical_terms: Number(termCount) },
          notes: [
            earlier ? `${reusedCount} documents' term counts taken over from the earlier version (same tokeniser, same text); ${N - reusedCount} tokenised` : `${N} documents tokenised`,
            ...(unlisted ? [`title and abstract read for ${textsRead} applications: ${unlisted} others are unchanged since the earlier version (ingest's change lists)`] : [])
          ]
        }
      } finally {
        conn.closeSync()
        await closeStageDatabase(db, spillDir)
        await fs.rm(stagingFile, { force: true })
        await fs.rm(`${stagingFile}.wal`, { force: true })
      }
    })
}
