/**
 * The serving stage: writes the record files (core/serving) the API reads by key, so that no
 * request scans a table. Every spec in specs.ts becomes serving/<name>.{bin,idx}.
 *
 * Rows are streamed from DuckDB in key order and grouped in JavaScript, so memory stays bounded
 * by one key's rows plus the index arrays (about 20 bytes per key).
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { parquetFilesOf, sqlString } from "../../core/artifacts/files.ts"
import { SERVING_DIR } from "../../core/serving/records.ts"
import { type Stage, type StageResult, stagePromise } from "../stages/Stage.ts"
import { type RecordSpec, recordSpecs } from "./specs.ts"
import { openRecordWriter } from "./write-records.ts"

const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`

/** DuckDB hands BIGINT as bigint, which JSON cannot hold; counts and keys fit a double. */
const plain = (v: unknown): unknown => (typeof v === "bigint" ? Number(v) : v)

const rowOf = (columns: ReadonlyArray<string>, values: ReadonlyArray<unknown>) => {
  const row: Record<string, unknown> = {}
  for (let i = 1; i < columns.length; i++) row[columns[i]] = plain(values[i])
  return row
}

const writeSpec = async (
  conn: Awaited<ReturnType<DuckDBInstance["connect"]>>,
  workDir: string,
  spec: RecordSpec,
  tick: (n: number) => void
) => {
  const writer = await openRecordWriter(workDir, spec.name, spec.kind)
  const result = await conn.stream(spec.sql)
  const columns = result.columnNames()
  let currentKey: unknown
  let group: Array<Record<string, unknown>> = []
  const flush = async () => {
    if (group.length) await writer.add(currentKey as string | number, group)
    group = []
  }
  for await (const rows of result.yieldRowsJs()) {
    for (const values of rows) {
      const key = plain(values[0])
      if (key === null || key === undefined) continue
      if (!spec.grouped) {
        await writer.add(key as string | number, rowOf(columns, values))
        continue
      }
      if (key !== currentKey) {
        await flush()
        currentKey = key
      }
      group.push(rowOf(columns, values))
    }
    tick(rows.length)
  }
  await flush()
  return writer.finish()
}

export const writeServingRecords = async (workDir: string, tick: (n: number) => void = () => {}): Promise<StageResult> => {
  // A spec skipped for a missing table must not leave an earlier file of that name behind.
  await fs.rm(path.join(workDir, SERVING_DIR), { recursive: true, force: true })
  const db = await DuckDBInstance.create(":memory:", {
    threads: String(Math.max(1, os.availableParallelism())),
    temp_directory: path.join(workDir, ".serving-tmp")
  })
  const conn = await db.connect()
  const outputs: string[] = []
  const rowCounts: Record<string, number> = {}
  const notes: string[] = []
  try {
    const tables = new Set<string>()
    for (const file of await parquetFilesOf(workDir)) {
      const table = path.basename(file, ".parquet")
      tables.add(table)
      await conn.run(`CREATE VIEW ${quoteIdent(table)} AS SELECT * FROM read_parquet(${sqlString(path.join(workDir, file))})`)
    }
    for (const spec of recordSpecs) {
      const missing = spec.tables.filter((t) => !tables.has(t))
      if (missing.length) {
        notes.push(`serving/${spec.name} not written: the version has no ${missing.join(", ")} table`)
        continue
      }
      const written = await writeSpec(conn, workDir, spec, tick)
      outputs.push(...written.outputs)
      rowCounts[`serving_${spec.name}`] = written.records
    }
  } finally {
    conn.closeSync()
    db.closeSync()
    await fs.rm(path.join(workDir, ".serving-tmp"), { recursive: true, force: true })
  }
  return { outputs, rowCounts, notes }
}

export const servingStage: Stage = {
  name: "serving",
  sources: ["pipeline/serving", "core/serving", "core/prosecution/sections.ts"],
  dependsOn: ["ingest", "embed", "map", "prosecution"],
  readsCorpusFile: () => false,
  run: (ctx) => stagePromise(() => writeServingRecords(ctx.workDir, (n) => ctx.progress.tick(n, "serving rows")))
}
