/**
 * What a nightly merge changed, for the stages after ingest: against the version the build grows
 * from (`since`), which published tables were linked unchanged and, for each table merged by
 * entity, the keys of the entities merged again (new, changed and gone ones alike:
 * `tables/.changes/<table>.parquet`, one column `k`). A table merged whole is in neither list:
 * anything in it may have changed.
 *
 * Stages that keep per-key work from the version they replace (serving records, stored documents,
 * vectors) read it instead of fingerprinting or hashing every key of a national corpus again: a
 * key outside the list has the very rows it had there. The list may name keys whose rows came out
 * the same (an entity merged again to no effect), never miss one that changed.
 *
 * A hidden folder: the stage's own working state, outside the tables analysts and the API see
 * (core/artifacts/files.ts parquetFilesOf) and outside later stages' input hashes.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { sqlString } from "../../core/artifacts/files.ts"
import { output } from "../stages/outputs.ts"

export const CHANGES_DIR = "tables/.changes"
export const ingestChanges = output("ingest", CHANGES_DIR)
const LISTING = "changes.json"

/** changes.json: what the lists are relative to. */
export interface ChangeListing {
  /** The version folder's name the merge grew from; null after a merge that started from nothing. */
  readonly since: string | null
  /** Tables hard-linked from `since`: no key changed. */
  readonly unchanged: ReadonlyArray<string>
  /** Tables with a list of the keys merged again. */
  readonly byEntity: ReadonlyArray<string>
}

export const changeListFile = (table: string) => `${CHANGES_DIR}/${table}.parquet`

/** Starts the folder afresh (a crashed run may have left one). */
export const clearChanges = (workDir: string) => fs.rm(path.join(workDir, CHANGES_DIR), { recursive: true, force: true })

/** Writes the keys in `relation` (one column `k`) as `table`'s list; returns its version-relative path. */
export const writeChangedKeys = async (conn: DuckDBConnection, workDir: string, table: string, relation: string) => {
  const rel = changeListFile(table)
  await fs.mkdir(path.join(workDir, CHANGES_DIR), { recursive: true })
  await conn.run(`COPY (SELECT k FROM ${relation} ORDER BY k) TO ${sqlString(path.join(workDir, rel))} (FORMAT parquet, COMPRESSION zstd)`)
  return rel
}

/** Writes changes.json; returns its version-relative path. */
export const writeChangeListing = async (workDir: string, listing: ChangeListing) => {
  const rel = `${CHANGES_DIR}/${LISTING}`
  await fs.mkdir(path.join(workDir, CHANGES_DIR), { recursive: true })
  await fs.writeFile(path.join(workDir, rel), JSON.stringify(listing, null, 2))
  return rel
}

/** Keys of some tables that may differ from the earlier version: none at all, or those in the lists' files. */
export interface ChangedKeys {
  /** Absolute paths of the lists (empty: nothing changed). */
  readonly files: ReadonlyArray<string>
}

/**
 * The keys of `tables`' entities that may differ between `earlierDir` and the version in
 * `changesDir` (the build's `ctx.outputOf(ingestChanges)`), or undefined when the lists cannot say:
 * they were made against another version, or a table was merged whole or is unknown to them.
 */
export const changedSince = async (changesDir: string, earlierDir: string | undefined, tables: ReadonlyArray<string>): Promise<ChangedKeys | undefined> => {
  if (!earlierDir) return undefined
  const listing = await fs
    .readFile(path.join(changesDir, LISTING), "utf8")
    .then((t) => JSON.parse(t) as ChangeListing)
    .catch(() => undefined)
  if (!listing || listing.since === null || listing.since !== path.basename(earlierDir)) return undefined
  const files: string[] = []
  for (const t of tables) {
    if (listing.unchanged.includes(t)) continue
    if (!listing.byEntity.includes(t)) return undefined
    files.push(path.join(changesDir, `${t}.parquet`))
  }
  return { files }
}

/** The changed keys as a relation with one column `k` (no rows when nothing changed). */
export const changedKeysSql = (c: ChangedKeys) =>
  c.files.length === 0 ? `(SELECT NULL::VARCHAR AS k WHERE false)` : `(SELECT DISTINCT k FROM read_parquet([${c.files.map(sqlString).join(", ")}]))`

/**
 * Past this many listed keys a stage reads every row as without lists: the listed rows are held
 * in memory (rowsOfListed) while every key streams past, one connection streaming one result.
 */
export const LISTED_ROWS_LIMIT = 100_000

/**
 * The rows of `select` whose `keyColumn` is listed in `changed`, by key (a night's few thousand),
 * or undefined past LISTED_ROWS_LIMIT listed keys.
 */
export const rowsOfListed = async <Row extends ReadonlyArray<unknown>>(conn: DuckDBConnection, changed: ChangedKeys, select: string, keyColumn: string) => {
  await conn.run(`CREATE OR REPLACE TEMP TABLE _listed AS ${changedKeysSql(changed)}`)
  const listed = Number((await conn.runAndReadAll(`SELECT count(*) FROM _listed`)).getRows()[0][0])
  if (listed > LISTED_ROWS_LIMIT) return undefined
  const rows = (await conn.runAndReadAll(`SELECT * FROM (${select}) AS r WHERE r.${keyColumn} IN (SELECT k FROM _listed)`)).getRowsJS() as unknown as Row[]
  return new Map(rows.map((r) => [String(r[0]), r]))
}
