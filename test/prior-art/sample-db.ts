/** Ground truth for the prior-art tests, read straight from the sample build's Parquet files. */
import { DuckDBInstance } from "@duckdb/node-api"
import * as path from "node:path"

export const sampleQuery = async <T = Record<string, unknown>>(versionDir: string, sql: string): Promise<T[]> => {
  const db = await DuckDBInstance.create(":memory:")
  const c = await db.connect()
  try {
    for (const t of ["applications", "claims", "cpc_assignments", "citations"])
      await c.run(`CREATE VIEW ${t} AS SELECT * FROM read_parquet('${path.join(versionDir, "tables", `${t}.parquet`)}')`)
    return (await c.runAndReadAll(sql)).getRowObjectsJS() as T[]
  } finally {
    c.closeSync()
    db.closeSync()
  }
}
