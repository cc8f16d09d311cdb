/**
 * Reading earlier stages' Parquet tables from a stage: an in-memory DuckDB with one view per
 * table of the version being built.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { sqlString } from "../../core/artifacts/files.ts"
import { createTableViews } from "../../core/artifacts/table-delta.ts"
import { closeStageDatabase, openStageDatabase, spillDirOf } from "./duckdb.ts"

/**
 * `memoryLimit`: the stage's whole DuckDB memory by default; a stage holding another database open
 * meanwhile gives each a share (stageMemoryLimit).
 */
export const withTables = async <A>(workDir: string, f: (conn: DuckDBConnection) => Promise<A>, options: { readonly memoryLimit?: string } = {}): Promise<A> => {
  // A folder per call: stages (and tests over one version) open several at once, and two
  // databases spilling into one folder would write the same file names.
  const spillDir = spillDirOf(workDir, `tables-${randomUUID().slice(0, 8)}`)
  const db = await openStageDatabase({ spillDir, memoryLimit: options.memoryLimit })
  const conn = await db.connect()
  try {
    // The tables/ folder's tables, each with its delta where a night wrote one (core/artifacts/table-delta.ts).
    await createTableViews(conn, workDir, { name: (rel) => (path.dirname(rel) === "tables" ? path.basename(rel, ".parquet") : undefined) })
    return await f(conn)
  } finally {
    conn.closeSync()
    await closeStageDatabase(db, spillDir)
  }
}

/** Writes a query's result to a Parquet file (zstd), returning the row count. */
export const copyToParquet = async (conn: DuckDBConnection, select: string, file: string) => {
  await fs.mkdir(path.dirname(file), { recursive: true })
  await conn.run(`COPY (${select}) TO ${sqlString(file)} (FORMAT parquet, COMPRESSION zstd)`)
  const r = await conn.runAndReadAll(`SELECT count(*) FROM read_parquet(${sqlString(file)})`)
  return Number(r.getRows()[0][0])
}

export { sqlString }

/**
 * Creates an empty stand-in (same columns) for every input table the build did not produce, so a
 * stage over a partial corpus still writes all its outputs. Returns the names it stood in for.
 */
export const ensureTables = async (conn: DuckDBConnection, tables: Readonly<Record<string, string>>): Promise<string[]> => {
  const present = new Set(
    ((await conn.runAndReadAll(`SELECT table_name FROM information_schema.tables`)).getRowsJS() as string[][]).map((r) => r[0])
  )
  const missing: string[] = []
  for (const [name, columns] of Object.entries(tables)) {
    if (present.has(name)) continue
    await conn.run(`CREATE TABLE ${name} (${columns})`)
    missing.push(name)
  }
  return missing
}
