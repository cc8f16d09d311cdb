/**
 * Test helper: writes hand-made rows as the ingest stage's published Parquet tables
 * (<dir>/tables/<name>.parquet) with the column types the prosecution stage reads, and reads
 * the stage's outputs back as plain objects.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { inputTables } from "../../pipeline/prosecution/inputs.ts"

type Value = string | number | boolean | null | undefined | ReadonlyArray<string>

const literal = (v: Value): string =>
  v === null || v === undefined
    ? "NULL"
    : typeof v === "string"
    ? `'${v.replace(/'/g, "''")}'`
    : typeof v === "number" || typeof v === "boolean"
    ? String(v)
    : `[${v.map(literal).join(", ")}]::VARCHAR[]`

export const writeTables = async (dir: string, tables: Record<string, ReadonlyArray<Record<string, Value>>>) => {
  await fs.mkdir(path.join(dir, "tables"), { recursive: true })
  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  try {
    for (const [name, rows] of Object.entries(tables)) {
      const ddl = inputTables[name]
      if (!ddl) throw new Error(`unknown table ${name}`)
      await conn.run(`CREATE TABLE ${name} (${ddl})`)
      const cols = ddl.split(",").map((c) => c.trim().split(/\s+/)[0])
      for (const r of rows) {
        await conn.run(`INSERT INTO ${name} (${cols.join(", ")}) VALUES (${cols.map((c) => literal(r[c])).join(", ")})`)
      }
      await conn.run(`COPY ${name} TO '${path.join(dir, "tables", `${name}.parquet`)}' (FORMAT parquet)`)
    }
  } finally {
    conn.closeSync()
    db.closeSync()
  }
}

/** Rows of a Parquet file as JS objects (JSON strings left as strings). */
export const readParquet = async (file: string, where = "true"): Promise<Array<Record<string, any>>> => {
  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  try {
    const r = await conn.runAndReadAll(`SELECT * FROM read_parquet('${file}') WHERE ${where}`)
    return r.getRowObjectsJson() as Array<Record<string, any>>
  } finally {
    conn.closeSync()
    db.closeSync()
  }
}

/** A JSON column parsed. */
export const json = (v: unknown) => (v === null || v === undefined ? null : JSON.parse(String(v)))
