/**
 * A published table that a night changed without rewriting it: three Parquet files.
 *
 *   tables/<name>.parquet           the base, hard-linked from the version the night grew from
 *   tables/<name>.replaced.parquet  one column, named after the table's entity column (app_num,
 *                                   citing_app, …): the entities merged again since the base was written
 *   tables/<name>.delta.parquet     every row those entities have now
 *
 * The table is the base without the replaced entities' rows, plus the delta's rows: the same rows
 * (and content hash) as a whole write, in another order. Rewriting the claims and paragraphs of a
 * million applications for a night's few thousand cost most of a night's ingest; this costs the
 * night's rows. A night folds the earlier delta into its own (pipeline/ingest/merge.ts), so a
 * table never has more than the three files, and past a share of the base it is written whole again.
 *
 * Every reader opens a table through tableRelation or createTableViews, never its base file
 * alone: the base of a table with a delta holds rows that are no longer the table's.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { existsSync } from "node:fs"
import * as path from "node:path"
import { parquetFilesOf, sqlString } from "./files.ts"

/** The delta files beside a table's base file (version-relative or absolute, as `base` is). */
export const deltaPartsOf = (base: string) => ({
  delta: base.replace(/\.parquet$/, ".delta.parquet"),
  replaced: base.replace(/\.parquet$/, ".replaced.parquet")
})

/** Whether a Parquet file is one of a table's delta files rather than a table of its own. */
export const isDeltaPart = (rel: string) => /\.(delta|replaced)\.parquet$/.test(rel)

const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`

/**
 * The table whose base file is `file` (absolute) as a SQL relation: read_parquet of the base, or,
 * with a delta beside it, the base less its replaced entities plus the delta. The entity column is
 * the replaced file's one column, read with `conn`.
 */
export const tableRelation = async (conn: DuckDBConnection, file: string): Promise<string> => {
  const parts = deltaPartsOf(file)
  if (!existsSync(parts.delta) || !existsSync(parts.replaced)) return `read_parquet(${sqlString(file)})`
  const columns = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlString(parts.replaced)})`)).getRows() as [string][]
  const entity = quoteIdent(String(columns[0][0]))
  // An anti join, not NOT IN: NOT IN's NULL semantics make DuckDB plan a mark join, which made a
  // join on the entity over the 1M night's claims 280 ms against 28 ms. The replaced keys hold no
  // NULL and the merge writes the rows of a NULL entity nowhere, so the rows are the same.
  return (
    `(SELECT b.* FROM read_parquet(${sqlString(file)}) b ANTI JOIN read_parquet(${sqlString(parts.replaced)}) r ON b.${entity} = r.${entity} WHERE b.${entity} IS NOT NULL ` +
    `UNION ALL BY NAME SELECT * FROM read_parquet(${sqlString(parts.delta)}))`
  )
}

/** The tables of a version (every Parquet file but delta parts), relative paths, sorted. */
export const tableFilesOf = async (versionDir: string) => (await parquetFilesOf(versionDir)).filter((rel) => !isDeltaPart(rel))

/**
 * One view per table of a version, named by its file name (tables/applications.parquet →
 * applications), each reading its delta where it has one. `name` may rename (or refuse, with
 * undefined) a file's view. Returns the relative paths of the files given a view.
 */
export const createTableViews = async (
  conn: DuckDBConnection,
  versionDir: string,
  options: { readonly name?: (rel: string) => string | undefined; readonly replace?: boolean } = {}
): Promise<string[]> => {
  const made: string[] = []
  for (const rel of await tableFilesOf(versionDir)) {
    const name = options.name ? options.name(rel) : path.basename(rel, ".parquet")
    if (name === undefined) continue
    const relation = await tableRelation(conn, path.join(versionDir, rel))
    await conn.run(`CREATE ${options.replace ? "OR REPLACE " : ""}VIEW ${quoteIdent(name)} AS SELECT * FROM ${relation}`)
    made.push(rel)
  }
  return made
}
