/**
 * The lexical stage: a BM25 inverted index over titles and abstracts (no network, no DuckDB
 * extension), built with the same patent tokeniser as the encoder.
 *
 * BM25 (k1 = 1.2, b = 0.75) is precomputed per posting as an impact
 *   idf(t) · tf · (k1 + 1) / (tf + k1 · (1 − b + b · len / avglen)),  idf = ln(1 + (N − df + 0.5) / (df + 0.5))
 * so a query's score is the sum of its terms' impacts: one sequential read per query term.
 *
 * Outputs (lexical/)
 *   lexical_docs.parquet   doc (posting id), app_num
 *   lexical_terms.parquet  term, df, offset, length (postings slice, in entries)
 *   postings.bin     per term, ascending doc: uint32 doc ids, then float32 impacts (same length)
 *   lexical.json     N, avg length, k1, b, tokenizer settings
 */
import { Effect } from "effect"
import { createWriteStream } from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { defaultPatentTokenizerSettings, tokenizePatentText } from "../../core/text/tokenize.ts"
import { type Stage, type StageResult, stagePromise } from "../stages/Stage.ts"
import { sqlString, withTables } from "../stages/tables.ts"
import { closeStageDatabase, openStageDatabase, spillDirOf, stageMemoryLimit } from "../stages/duckdb.ts"

export const BM25_K1 = 1.2
export const BM25_B = 0.75

const write = (out: NodeJS.WritableStream, buf: Buffer) =>
  new Promise<void>((resolve) => (out.write(buf) ? resolve() : out.once("drain", () => resolve())))

export const lexicalStage: Stage = {
  name: "lexical",
  sources: ["pipeline/lexical", "core/text/tokenize.ts"],
  dependsOn: ["ingest"],
  readsCorpusFile: () => false,
  run: (ctx) =>
    stagePromise(async (): Promise<StageResult> => {
      const dir = path.join(ctx.workDir, "lexical")
      await fs.rm(dir, { recursive: true, force: true })
      await fs.mkdir(dir, { recursive: true })
      const stagingFile = path.join(dir, ".postings.duckdb")
      // Half the stage's memory while the tables' database is open beside it; all of it after.
      const spillDir = spillDirOf(ctx.workDir, "lexical")
      const db = await openStageDatabase({ file: stagingFile, spillDir, memoryLimit: stageMemoryLimit(1 / 2) })
      const conn = await db.connect()
      try {
        await conn.run(`CREATE TABLE docs (doc INTEGER, app_num VARCHAR, len INTEGER)`)
        await conn.run(`CREATE TABLE tf (term VARCHAR, doc INTEGER, tf INTEGER)`)
        const docs = await conn.createAppender("docs")
        const tfs = await conn.createAppender("tf")
        let doc = 0
        await withTables(ctx.workDir, async (src) => {
          // Design and plant applications have no vector and are not prior art for a utility claim
          // (SPEC 4.2): keeping them out of the postings keeps them out of hybrid results too.
          const result = await src.stream(`SELECT app_num, title, abstract FROM applications WHERE coalesce(doc_type, '') NOT IN ('design', 'plant') ORDER BY app_num`)
          for await (const rows of result.yieldRowsJs()) {
            for (const [app, title, abstract] of rows as [string, string | null, string | null][]) {
              const text = `${title ?? ""}\n${abstract ?? ""}`.trim()
              if (!text) continue
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

        const [[n, avg]] = (await conn.runAndReadAll(`SELECT count(*), coalesce(avg(len), 0) FROM docs`)).getRowsJS() as [number, number][]
        const N = Number(n)
        await conn.run(`
          CREATE TABLE terms AS
          SELECT term, count(*) AS df, (sum(count(*)) OVER (ORDER BY term) - count(*))::BIGINT AS "offset", count(*) AS length
          FROM tf GROUP BY term`)
        // Postings in (term, doc) order with their BM25 impacts, streamed into one binary file.
        const postings = await conn.stream(`
          SELECT tf.term, tf.doc,
            (ln(1 + (${N} - t.df + 0.5) / (t.df + 0.5)) * tf.tf * ${BM25_K1 + 1}
              / (tf.tf + ${BM25_K1} * (1 - ${BM25_B} + ${BM25_B} * d.len / ${Math.max(avg, 1e-9)})))::FLOAT AS impact
          FROM tf JOIN terms t USING (term) JOIN docs d USING (doc)
          ORDER BY tf.term, tf.doc`)
        const out = createWriteStream(path.join(dir, "postings.bin"))
        let term: string | undefined
        let ids: number[] = []
        let impacts: number[] = []
        const flushTerm = async () => {
          if (!ids.length) return
          await write(out, Buffer.from(Uint32Array.from(ids).buffer))
          await write(out, Buffer.from(Float32Array.from(impacts).buffer))
          ids = []
          impacts = []
        }
        for await (const rows of postings.yieldRowsJs()) {
          for (const [t, d, imp] of rows as [string, number, number][]) {
            if (t !== term) {
              await flushTerm()
              term = t
            }
            ids.push(d)
            impacts.push(imp)
          }
        }
        await flushTerm()
        await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())))

        await conn.run(`COPY (SELECT doc, app_num FROM docs ORDER BY doc) TO ${sqlString(path.join(dir, "lexical_docs.parquet"))} (FORMAT parquet)`)
        await conn.run(`COPY (SELECT term, df, "offset", length FROM terms ORDER BY term) TO ${sqlString(path.join(dir, "lexical_terms.parquet"))} (FORMAT parquet)`)
        const [[termCount]] = (await conn.runAndReadAll(`SELECT count(*) FROM terms`)).getRowsJS() as [number][]
        await fs.writeFile(
          path.join(dir, "lexical.json"),
          JSON.stringify({ documents: N, averageLength: avg, k1: BM25_K1, b: BM25_B, fields: ["title", "abstract"], tokenizer: defaultPatentTokenizerSettings }, null, 2)
        )
        return {
          outputs: ["lexical/lexical_docs.parquet", "lexical/lexical_terms.parquet", "lexical/postings.bin", "lexical/lexical.json"],
          rowCounts: { lexical_docs: N, lexical_terms: Number(termCount) }
        }
      } finally {
        conn.closeSync()
        await closeStageDatabase(db, spillDir)
        await fs.rm(stagingFile, { force: true })
        await fs.rm(`${stagingFile}.wal`, { force: true })
      }
    })
}
