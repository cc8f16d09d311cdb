/**
 * What a nightly merge changed, for the stages after ingest: against the version the build grows
 * from (`since`), which published tables were linked unchanged and, for each table merged by
 * entity, the keys of the entities merged again (new, changed and gone ones alike:
 * `tables/.changes/<table>.parquet`, one column `k`) and those entities' rows as merged now
 * (`<table>.rows.parquet`: every row the table holds for them, so a later stage reads a night's
 * few thousand entities without scanning the table for them). A table merged whole is in neither
 * list: anything in it may have changed.
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

/** A table's list and its listed entities' rows, by name inside the changes folder. */
const listName = (table: string) => `${table}.parquet`
const rowsName = (table: string) => `${table}.rows.parquet`
export const changeListFile = (table: string) => `${CHANGES_DIR}/${listName(table)}`
/** The listed entities' rows of a table as merged now: what later stages read instead of the whole table. */
export const changedRowsFile = (table: string) => `${CHANGES_DIR}/${rowsName(table)}`

/** Starts the folder afresh (a crashed run may have left one). */
export const clearChanges = (workDir: string) => fs.rm(path.join(workDir, CHANGES_DIR), { recursive: true, force: true })

/** Writes the keys in `relation` (one column `k`) as `table`'s list; returns its version-relative path. */
export const writeChangedKeys = async (conn: DuckDBConnection, workDir: string, table: string, relation: string) => {
  const rel = changeListFile(table)
  await fs.mkdir(path.join(workDir, CHANGES_DIR), { recursive: true })
  await conn.run(`COPY (SELECT k FROM ${relation} ORDER BY k) TO ${sqlString(path.join(workDir, rel))} (FORMAT parquet, COMPRESSION zstd)`)
  return rel
}

/** Writes the rows of `relation` (a table's listed entities, merged now) as `table`'s changed rows; returns the version-relative path. */
export const writeChangedRows = async (conn: DuckDBConnection, workDir: string, table: string, relation: string) => {
  const rel = changedRowsFile(table)
  await fs.mkdir(path.join(workDir, CHANGES_DIR), { recursive: true })
  await conn.run(`COPY (SELECT * FROM ${relation}) TO ${sqlString(path.join(workDir, rel))} (FORMAT parquet, COMPRESSION zstd)`)
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
  /** Per listed table, the absolute path of its list. */
  readonly lists: Readonly<Record<string, string>>
  /** Per listed table, the absolute path of its listed entities' rows as merged now (all their rows in the table). */
  readonly rows: Readonly<Record<string, string>>
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
  const lists: Record<string, string> = {}
  const rows: Record<string, string> = {}
  for (const t of tables) {
    if (listing.unchanged.includes(t)) continue
    if (!listing.byEntity.includes(t)) return undefined
    lists[t] = path.join(changesDir, listName(t))
    rows[t] = path.join(changesDir, rowsName(t))
  }
  // Lists written before the rows were kept beside them (or cut short) say nothing.
  const files = Object.values(lists)
  const present = await Promise.all([...files, ...Object.values(rows)].map((f) => fs.access(f).then(() => true, () => false)))
  return present.every(Boolean) ? { files, lists, rows } : undefined
}

/** The changed keys as a relation with one column `k` (no rows when nothing changed). */
export const changedKeysSql = (c: ChangedKeys) =>
  c.files.length === 0 ? `(SELECT NULL::VARCHAR AS k WHERE false)` : `(SELECT DISTINCT k FROM read_parquet([${c.files.map(sqlString).join(", ")}]))`

/**
 * Runs `work` with each table of `rows` read from ingest's changed-rows file instead of the whole
 * table (a schema of those names first on the search path, as the merge narrows its raw tables),
 * so a stage's own SELECT serves both. A connection streams one result at a time, so `work` must
 * have read everything it queried before it returns: the path is reset after it.
 */
export const withChangedRows = async <A>(conn: DuckDBConnection, rows: Readonly<Record<string, string>>, work: () => Promise<A>): Promise<A> => {
  await conn.run(`CREATE SCHEMA _changed`)
  try {
    for (const [table, file] of Object.entries(rows)) await conn.run(`CREATE VIEW _changed."${table.replace(/"/g, '""')}" AS SELECT * FROM read_parquet(${sqlString(file)})`)
    await conn.run(`SET search_path = '_changed,main'`)
    return await work()
  } finally {
    await conn.run(`SET search_path = 'main'`)
    await conn.run(`DROP SCHEMA _changed CASCADE`)
  }
}

/**
 * Whether the changed rows of `tables` hold every row of every listed key, so that a SELECT joining
 * them on that key may read the rows files alone: each table listed the same keys (a night's
 * applications and claims come from the same documents). A key listed by one table only has its
 * rows in the others' whole tables.
 */
export const rowsCoverListed = async (conn: DuckDBConnection, changed: ChangedKeys, tables: ReadonlyArray<string>) => {
  if (tables.some((t) => !changed.rows[t])) return changed.files.length === 0
  const lists = tables.map((t) => `read_parquet(${sqlString(changed.lists[t])})`)
  const union = lists.map((l) => `SELECT k FROM ${l}`).join(" UNION ")
  const missing = lists.map((l) => `(SELECT count(*) FROM (${union}) u WHERE u.k NOT IN (SELECT k FROM ${l}))`).join(" + ")
  return Number((await conn.runAndReadAll(`SELECT ${missing}`)).getRows()[0][0]) === 0
}

/**
 * Past this many listed keys a stage reads every row as without lists: the listed rows are held
 * in memory (rowsOfListed) while every key streams past, one connection streaming one result.
 */
export const LISTED_ROWS_LIMIT = 100_000

/**
 * The rows of `select` (over `tables`) whose `keyColumn` is listed in `changed`, by key (a night's
 * few thousand), or undefined past LISTED_ROWS_LIMIT listed keys.
 */
export const rowsOfListed = async <Row extends ReadonlyArray<unknown>>(
  conn: DuckDBConnection,
  changed: ChangedKeys,
  select: string,
  keyColumn: string,
  tables: ReadonlyArray<string>
) => {
  await conn.run(`CREATE OR REPLACE TEMP TABLE _listed AS ${changedKeysSql(changed)}`)
  const listed = Number((await conn.runAndReadAll(`SELECT count(*) FROM _listed`)).getRows()[0][0])
  if (listed > LISTED_ROWS_LIMIT) return undefined
  const read = async () => (await conn.runAndReadAll(`SELECT * FROM (${select}) AS r WHERE r.${keyColumn} IN (SELECT k FROM _listed)`)).getRowsJS() as unknown as Row[]
  // From the changed rows where they hold every listed key's rows (the tables are not scanned for them).
  const rows = (await rowsCoverListed(conn, changed, tables)) ? await withChangedRows(conn, changed.rows, read) : await read()
  return new Map(rows.map((r) => [String(r[0]), r]))
}
