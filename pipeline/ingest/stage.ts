/**
 * The ingest stage: every corpus file through its reader into staging, then merged into the
 * published Parquet tables under `tables/`.
 *
 * A bad record is skipped and counted (file, position, reason); a file that cannot be read at
 * all is reported the same way with position "file" and the build goes on with the rest.
 */
import { DuckDBConnection } from "@duckdb/node-api"
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { sqlString } from "../../core/artifacts/files.ts"
import { isPageImagePath } from "../../core/artifacts/page-images.ts"
import { readerTables } from "../../core/artifacts/tables.ts"
import type { CorpusFile } from "../../core/corpus/reader.ts"
import { SkipTally, type Stage, type StageResult } from "../stages/Stage.ts"
import { chooseReader } from "./dispatch.ts"
import { publishedTables } from "./merge.ts"
import { rowProblem, Staging } from "./staging.ts"

/** Opens the file once, keeps its first chunk for sniffing, and replays it to the reader. */
const peek = async (file: CorpusFile) => {
  const it = file.open()[Symbol.asyncIterator]()
  const first = await it.next()
  const head = first.done ? new Uint8Array() : first.value
  const replay: CorpusFile = {
    path: file.path,
    open: () => ({
      async *[Symbol.asyncIterator]() {
        if (!first.done) yield head
        for (let r = await it.next(); !r.done; r = await it.next()) yield r.value
      }
    })
  }
  return { head: Buffer.from(head.subarray(0, 4096)).toString("utf8"), file: replay }
}

/** Order-independent hash of a table's rows (equal tables → equal hash, whatever the row order). */
const contentHash = async (conn: DuckDBConnection, table: string) => {
  const r = await conn.runAndReadAll(`SELECT coalesce(sum(hash(t)::HUGEINT), 0)::VARCHAR AS h, count(*) AS n FROM ${table} t`)
  const [h] = r.getRows()[0]
  return String(h)
}

const ingestFile = async (
  staging: Staging,
  file: CorpusFile,
  doc: number,
  skipped: SkipTally,
  onRows: (n: number) => void
) => {
  const { head, file: replay } = await peek(file)
  const choice = chooseReader(file.path, head)
  if (!choice) {
    skipped.add({ file: file.path, position: "file", reason: "no reader for this file type" })
    return
  }
  let pending = 0
  for await (const ev of choice.reader(replay)) {
    if (ev.kind === "skip") {
      skipped.add({ file: ev.file, position: ev.position, reason: ev.reason })
      continue
    }
    const spec = readerTables[ev.table]
    const problem = rowProblem(spec, ev.row as Record<string, unknown>)
    if (problem) {
      skipped.add({ file: file.path, position: `${ev.table} row`, reason: problem })
      continue
    }
    staging.append(ev.table, ev.row as Record<string, unknown>, file.path, doc)
    if (++pending === 1000) {
      onRows(pending)
      pending = 0
    }
  }
  onRows(pending)
}

export const ingestStage: Stage = {
  name: "ingest",
  sources: ["pipeline/ingest", "core/artifacts/tables.ts", "core/corpus", "core/claims/dependencies.ts", "core/text", "core/guidance/ids.ts"],
  dependsOn: [],
  // Page images are copied by their own stage; everything else is read (or skipped and counted) here.
  readsCorpusFile: (p) => !isPageImagePath(p),
  run: (ctx) =>
    Effect.tryPromise(async (): Promise<StageResult> => {
      const tablesDir = path.join(ctx.workDir, "tables")
      const stagingFile = path.join(ctx.workDir, ".staging", "ingest.duckdb")
      await fs.rm(path.dirname(stagingFile), { recursive: true, force: true })
      await fs.mkdir(path.dirname(stagingFile), { recursive: true })
      await fs.mkdir(tablesDir, { recursive: true })
      const skipped = new SkipTally()
      const staging = await Staging.open(stagingFile)
      try {
        for (const [doc, obj] of ctx.corpusFiles.entries()) {
          try {
            await ingestFile(staging, ctx.openCorpusFile(obj.path), doc, skipped, (n) => ctx.progress.tick(n, "rows", obj.path))
          } catch (e) {
            // The whole file is unreadable (corrupt gzip, unreadable object): report it and go on.
            skipped.add({ file: obj.path, position: "file", reason: `unreadable: ${e instanceof Error ? e.message : String(e)}` })
          }
          ctx.progress.info(`${obj.path} read (${doc + 1}/${ctx.corpusFiles.length})`)
        }
        staging.flush()
        await staging.prepareMerge()
        const rowCounts: Record<string, number> = {}
        const contentHashes: Record<string, string> = {}
        const outputs: string[] = []
        for (const t of publishedTables) {
          await staging.conn.run(`CREATE OR REPLACE TABLE ${t.name} AS ${t.select}`)
          const rel = `tables/${t.name}.parquet`
          await staging.conn.run(
            `COPY (SELECT * FROM ${t.name} ORDER BY ${t.orderBy}) TO ${sqlString(path.join(ctx.workDir, rel))} (FORMAT parquet, COMPRESSION zstd)`
          )
          const n = await staging.conn.runAndReadAll(`SELECT count(*) FROM ${t.name}`)
          rowCounts[t.name] = Number(n.getRows()[0][0])
          contentHashes[rel] = await contentHash(staging.conn, t.name)
          outputs.push(rel)
        }
        return { outputs, rowCounts, contentHashes, skipped }
      } finally {
        staging.close()
        await fs.rm(path.dirname(stagingFile), { recursive: true, force: true })
      }
    })
}
