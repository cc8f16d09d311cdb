/**
 * catalog.duckdb: one view per Parquet table of a version, so analysts can open a single file
 * with any DuckDB client (`duckdb artifacts/current/catalog.duckdb`) and query by table name.
 *
 * Views hold absolute paths (DuckDB resolves relative paths against the client's working
 * directory, not the database file), so the catalog is written after the version directory
 * has its final name. If the folder is moved, `node --import tsx pipeline/artifacts/write-catalog.ts <versionDir>`
 * writes it again (a replica that downloads a version from S3 does so itself).
 */
import { DuckDBInstance } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { createTableViews } from "./table-delta.ts"

export const writeCatalog = async (versionDir: string) => {
  const file = path.join(versionDir, "catalog.duckdb")
  await fs.rm(file, { force: true })
  await fs.rm(`${file}.wal`, { force: true })
  const db = await DuckDBInstance.create(file)
  const conn = await db.connect()
  try {
    // A table a night changed by entity reads its base and delta together (table-delta.ts).
    await createTableViews(conn, versionDir, { name: (rel) => path.basename(rel, ".parquet").replace(/[^a-z0-9_]/gi, "_"), replace: true })
    await conn.run("CHECKPOINT")
  } finally {
    conn.closeSync()
    db.closeSync()
  }
  return file
}
