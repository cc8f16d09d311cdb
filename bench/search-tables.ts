/**
 * A version's tables as the search state reads them (core/search/open.ts), as DuckDB views in an
 * in-memory database, for benchmarks that open the search structures outside the API.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import * as fs from "node:fs"
import * as path from "node:path"

const SEARCH_TABLES = [
  ["applications", "tables/applications"],
  ["claims", "tables/claims"],
  ["cpc_assignments", "tables/cpc_assignments"],
  ["citations", "tables/citations"],
  ["vectors", "index/vectors"],
  ["embeddings", "index/embeddings"],
  ["lexical_terms", "lexical/lexical_terms"],
  ["lexical_docs", "lexical/lexical_docs"],
  ["stored_docs", "documents/stored_docs"]
] as const

export const openSearchTables = async (versionDir: string, options: Record<string, string> = {}) => {
  const db = await DuckDBInstance.create(":memory:", options)
  const c = await db.connect()
  for (const [view, file] of SEARCH_TABLES)
    // Versions built before a stage existed lack its files; the search state falls back without them.
    if (fs.existsSync(path.join(versionDir, `${file}.parquet`)))
      await c.run(`CREATE VIEW ${view} AS SELECT * FROM read_parquet('${path.join(versionDir, `${file}.parquet`)}')`)
  return { rows: async (sql: string) => (await c.runAndReadAll(sql)).getRowObjectsJS(), close: () => (c.closeSync(), db.closeSync()) }
}
