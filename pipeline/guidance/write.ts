/**
 * Writes rows built in TypeScript to a Parquet file: an appender fills a temporary DuckDB
 * table (no SQL per row), then COPY writes it sorted. Structured fields (legal references,
 * brackets …) travel as JSON text, so the service returns them without reshaping.
 */
import { type DuckDBConnection, LIST, VARCHAR } from "@duckdb/node-api"
import { copyToParquet } from "../stages/tables.ts"

export type GuidanceColumnType = "VARCHAR" | "VARCHAR[]" | "INTEGER" | "BOOLEAN" | "JSON"

export type Columns = Readonly<Record<string, GuidanceColumnType>>

const ddlType = (t: GuidanceColumnType) => (t === "JSON" ? "VARCHAR" : t)

export const writeRows = async (
  conn: DuckDBConnection,
  name: string,
  columns: Columns,
  rows: Iterable<Record<string, unknown>>,
  file: string,
  orderBy: string
): Promise<number> => {
  const table = `guidance_${name}`
  await conn.run(`CREATE OR REPLACE TEMP TABLE ${table} (${Object.entries(columns).map(([c, t]) => `"${c}" ${ddlType(t)}`).join(", ")})`)
  const ap = await conn.createAppender(table)
  for (const row of rows) {
    for (const [c, t] of Object.entries(columns)) {
      const v = row[c]
      if (v === undefined || v === null) ap.appendNull()
      else if (t === "VARCHAR") ap.appendVarchar(String(v))
      else if (t === "JSON") ap.appendVarchar(JSON.stringify(v))
      else if (t === "INTEGER") ap.appendInteger(v as number)
      else if (t === "BOOLEAN") ap.appendBoolean(v as boolean)
      else ap.appendList(v as string[], LIST(VARCHAR))
    }
    ap.endRow()
  }
  ap.flushSync()
  ap.closeSync()
  const n = await copyToParquet(conn, `SELECT * FROM ${table} ORDER BY ${orderBy}`, file)
  await conn.run(`DROP TABLE ${table}`)
  return n
}

