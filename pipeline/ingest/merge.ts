/**
 * Merge: the objects' raw partitions → the published tables (published-tables.ts), one row per
 * real entity, each written ordered by its key so builds are reproducible.
 *
 * A build over a corpus that changed a little (a night: a new weekly file) does not merge every
 * raw row again. Given the tables the current version merged with the same code and the
 * partitions that came and went since, a table whose raw tables saw no change is hard-linked;
 * any other is the earlier table without the entities that changed, plus those entities merged
 * again from all their raw rows. Row counts and content hashes follow from the earlier ones, so
 * the result equals a from-scratch merge (test/ingest/partitions.test.ts).
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { Config } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { hasRecordedSize, linkFile, sqlString } from "../../core/artifacts/files.ts"
import { deltaPartsOf, isDeltaPart, tableRelation } from "../../core/artifacts/table-delta.ts"
import type { StageOutput } from "../../core/artifacts/manifest.ts"
import { readerTables } from "../../core/artifacts/tables.ts"
import { writeEntityTable } from "../stages/entity-delta.ts"
import { clearChanges, writeChangedKeys, writeChangedRows, writeChangeListing } from "./changes.ts"
import { type PublishedTable, publishedTables } from "./published-tables.ts"
import { emptyRawDdl } from "./staging.ts"
import { openStageDatabase, stageMemoryLimit } from "../stages/duckdb.ts"
import { stopwatch } from "../stages/stopwatch.ts"

/**
 * A row's place in a single-threaded read, (_doc, _seq), as one BIGINT: `_doc` (an INTEGER, at
 * least 0) in the high bits, `_seq` (below 2^32: PartitionWriter refuses more rows) in the low.
 */
const POS = "(o._doc::BIGINT << 32) + p._seq"

/** One corpus object's partition as the merge reads it: `doc` is the object's place in the corpus listing. */
export interface MergeInput {
  readonly path: string
  readonly doc: number
  /** Partition folder, absolute. */
  readonly dir: string
  /** Rows per raw table, as recorded in the partition's object.json. */
  readonly rows: Readonly<Record<string, number>>
}

/** A partition's folder (absolute) and its rows per raw table, as its object.json records them. */
export interface PartitionRows {
  readonly dir: string
  readonly rows: Readonly<Record<string, number>>
}

/** The tables of the version this build grows from, merged by the same code, and the partitions that changed since. */
export interface EarlierMerge {
  /** Its tables' records by version-relative path (tables/<name>.parquet), with rows and content hashes. */
  readonly tables: ReadonlyMap<string, StageOutput>
  /** Its folder, absolute. */
  readonly dir: string
  /** Partitions merged here and not there: new objects, and the new bytes of changed ones. */
  readonly added: ReadonlyArray<PartitionRows>
  /** Partitions merged there and not here (folders in that version): deleted objects, and the old bytes of changed ones. */
  readonly gone: ReadonlyArray<PartitionRows>
}

export interface MergedTables {
  readonly outputs: ReadonlyArray<string>
  readonly rowCounts: Readonly<Record<string, number>>
  readonly contentHashes: Readonly<Record<string, string>>
  /** Tables hard-linked from the earlier version (unchanged), with the records they had there. */
  readonly linked: Readonly<Record<string, StageOutput>>
  /** How each table was made, in a line for the manifest. */
  readonly note: string
}

/** DuckDB's memory for the merge: the stage budget, a quarter of RAM and at most 4 GB (the ingest stage's target is 6 GB resident at a million applications). */
export const MERGE_MEMORY_LIMIT = stageMemoryLimit()

/**
 * Past this share of the raw rows changing (added and gone together), merging everything is
 * cheaper than taking the earlier tables apart.
 */
export const ENTITY_MERGE_LIMIT = 0.25

/** ENTITY_MERGE_LIMIT, or the share an operator (or a test of a small corpus) sets. */
export const entityMergeLimit = Config.number("ENTITY_MERGE_LIMIT").pipe(
  Config.validate({ message: "ENTITY_MERGE_LIMIT must be a share of the raw rows, 0 or more", validation: (x) => Number.isFinite(x) && x >= 0 }),
  Config.withDefault(ENTITY_MERGE_LIMIT)
)

/**
 * A table merged by entity gets a delta beside the earlier base (core/artifacts/table-delta.ts)
 * while the delta's rows stay within this share of the base's: a year of weekly nights at the
 * national scale before one night writes the table whole again.
 */
export const TABLE_DELTA_LIMIT = 0.25

/** TABLE_DELTA_LIMIT, or the share an operator (or a test) sets; 0 writes every table whole. */
export const tableDeltaLimit = Config.number("TABLE_DELTA_LIMIT").pipe(
  Config.validate({ message: "TABLE_DELTA_LIMIT must be a share of a table's rows, 0 or more", validation: (x) => Number.isFinite(x) && x >= 0 }),
  Config.withDefault(TABLE_DELTA_LIMIT)
)

/** Order-independent hash of rows (equal tables → equal hash, whatever the row order) and their count. */
const hashAndCount = async (conn: DuckDBConnection, relation: string) => {
  const r = await conn.runAndReadAll(`SELECT coalesce(sum(hash(t)::HUGEINT), 0)::VARCHAR, count(*) FROM ${relation} t`)
  const [h, n] = r.getRows()[0]
  return { hash: String(h), rows: Number(n) }
}

/**
 * Per entity, the sum of its rows' hashes and their count (`k, h, n`): a hidden file beside the
 * table (tables/.hashes/<table>.parquet, outside the tables analysts see), so a night that merges
 * a few thousand entities again learns what their earlier rows added to the table's hash from this
 * file instead of a scan of the earlier table (about 1.3 s a large table in the 1M night).
 */
export const HASHES_DIR = "tables/.hashes"
const hashesRel = (table: string) => `${HASHES_DIR}/${table}.parquet`
/** An entity's rows' hash sum: exact as DECIMAL(38, 0), which Parquet stores (a HUGEINT column is written as a lossy DOUBLE). */
const HASH_SUM = "sum(hash(t)::HUGEINT)::DECIMAL(38, 0)"

/** Writes `relation`'s per-entity hashes to `file`; returns the table's hash and count (their sums). */
const writeEntityHashes = async (conn: DuckDBConnection, relation: string, entity: string, file: string) => {
  await fs.mkdir(path.dirname(file), { recursive: true })
  await conn.run(`COPY (SELECT ${entity} AS k, ${HASH_SUM} AS h, count(*)::BIGINT AS n FROM ${relation} t GROUP BY 1 ORDER BY 1) TO ${sqlString(file)} (FORMAT parquet, COMPRESSION zstd)`)
  return sumOfHashes(conn, `read_parquet(${sqlString(file)})`)
}

const sumOfHashes = async (conn: DuckDBConnection, hashes: string) => {
  const [h, n] = (await conn.runAndReadAll(`SELECT coalesce(sum(h), 0)::HUGEINT::VARCHAR, coalesce(sum(n), 0) FROM ${hashes}`)).getRows()[0]
  return { hash: String(h), rows: Number(n) }
}

const rawRowsOf = (parts: ReadonlyArray<{ readonly rows: Readonly<Record<string, number>> }>) =>
  parts.reduce((n, p) => n + Object.values(p.rows).reduce((a, b) => a + b, 0), 0)

/** The changed rows of a raw table (its rows in added and gone partitions), for finding the entities they touch. */
const changedView = (raw: string) => `_changed_${raw}`

/** The whole table from every raw row. */
const mergeWhole = async (conn: DuckDBConnection, workDir: string, t: PublishedTable, out: string) => {
  await conn.run(`CREATE TABLE ${t.name} AS ${t.select}`)
  await conn.run(`COPY (SELECT * FROM ${t.name} ORDER BY ${t.orderBy}) TO ${sqlString(out)} (FORMAT parquet, COMPRESSION zstd)`)
  const r = await writeEntityHashes(conn, t.name, t.entity.column, path.join(workDir, hashesRel(t.name)))
  await conn.run(`DROP TABLE ${t.name}`)
  return { ...r, hashesFile: hashesRel(t.name) }
}

/**
 * The keys of the table's entities whose raw rows changed, in the table `_affected(k)`; their
 * number, or 0 when no raw table the table reads changed.
 */
const affectedEntities = async (conn: DuckDBConnection, t: PublishedTable, changed: ReadonlySet<string>) => {
  const e = t.entity
  const sources = [
    ...(changed.has(e.raw) ? [`SELECT ${e.rawKey ?? e.column} FROM ${changedView(e.raw)}`] : []),
    ...(e.alsoFrom && changed.has(e.alsoFrom.raw) ? [e.alsoFrom.keys(changedView(e.alsoFrom.raw))] : [])
  ]
  if (sources.length === 0) return 0
  await conn.run(`CREATE OR REPLACE TABLE _affected AS SELECT DISTINCT k FROM (${sources.join(" UNION ALL ")}) s(k)`)
  return Number((await conn.runAndReadAll(`SELECT count(*) FROM _affected`)).getRows()[0][0])
}

/**
 * The earlier table without the affected entities, plus those entities merged again: the table's
 * SELECT runs with its raw table narrowed to their rows (a schema of the same name first on the
 * search path), so the one definition serves both merges. Other raw tables it reads stay whole.
 */
const mergeEntities = async (conn: DuckDBConnection, workDir: string, t: PublishedTable, out: string, earlier: UsableEarlier, deltaLimit: number) => {
  const e = t.entity
  await conn.run(`CREATE SCHEMA _entities`)
  try {
    await conn.run(`CREATE VIEW _entities.${e.raw} AS SELECT * FROM main.${e.raw} WHERE ${e.rawKey ?? e.column} IN (SELECT k FROM main._affected)`)
    await conn.run(`SET search_path = '_entities,main'`)
    await conn.run(`CREATE TABLE main._fresh AS ${t.select}`)
  } finally {
    await conn.run(`SET search_path = 'main'`)
    await conn.run(`DROP SCHEMA _entities CASCADE`)
  }
  // The earlier table as it reads: its base, less what its delta replaced, plus the delta.
  const before = await tableRelation(conn, earlier.file)
  // What the entities' earlier rows added to the hash: from the earlier per-entity hashes, or (a
  // version written before them) from a scan of the earlier table, after which the next whole merge writes them.
  const removed = earlier.hashes
    ? await sumOfHashes(conn, `(SELECT * FROM read_parquet(${sqlString(earlier.hashes.file)}) WHERE k IN (SELECT k FROM _affected))`)
    : await hashAndCount(conn, `(SELECT * FROM ${before} WHERE ${e.column} IN (SELECT k FROM _affected))`)
  let fresh: { hash: string; rows: number }
  let hashesFile: string | undefined
  if (earlier.hashes) {
    await conn.run(`CREATE TABLE _fresh_hashes AS SELECT ${e.column} AS k, ${HASH_SUM} AS h, count(*)::BIGINT AS n FROM _fresh t GROUP BY 1`)
    fresh = await sumOfHashes(conn, "_fresh_hashes")
    hashesFile = hashesRel(t.name)
    await fs.mkdir(path.join(workDir, HASHES_DIR), { recursive: true })
    await conn.run(
      `COPY (SELECT e.* FROM read_parquet(${sqlString(earlier.hashes.file)}) e ANTI JOIN _affected a ON a.k = e.k UNION ALL SELECT * FROM _fresh_hashes ORDER BY k) ` +
        `TO ${sqlString(path.join(workDir, hashesFile))} (FORMAT parquet, COMPRESSION zstd)`
    )
    await conn.run(`DROP TABLE _fresh_hashes`)
  } else fresh = await hashAndCount(conn, "_fresh")
  // The entities' rows as merged now, beside their keys: later stages read these instead of the whole table.
  const rowsFile = await writeChangedRows(conn, workDir, t.name, "_fresh")
  const written = await writeDeltaOrWhole(conn, workDir, t, out, earlier, deltaLimit)
  await conn.run(`DROP TABLE _fresh`)
  // The hash is a sum over rows: the earlier sum, less the rows taken out, plus those merged again.
  const hash = (BigInt(earlier.hash) - BigInt(removed.hash) + BigInt(fresh.hash)).toString()
  return { hash, rows: earlier.rows - removed.rows + fresh.rows, removed: removed.rows, fresh: fresh.rows, rowsFile, hashesFile, ...written }
}

/**
 * Writes the table by entity (`_affected`, `_fresh` made): as a delta beside the earlier base while
 * the delta's rows stay within `deltaLimit` of the base's, else whole, in key order
 * (pipeline/stages/entity-delta.ts). Returns the delta's rows and files (version-relative) when it wrote one.
 */
const writeDeltaOrWhole = async (conn: DuckDBConnection, workDir: string, t: PublishedTable, out: string, earlier: UsableEarlier, deltaLimit: number) => {
  const w = await writeEntityTable(conn, workDir, {
    file: out,
    earlierFile: earlier.file,
    entity: t.entity.column,
    fresh: "_fresh",
    affected: "_affected",
    limit: deltaLimit,
    orderBy: t.orderBy
  })
  return w.deltaFiles.length ? { delta: { rows: w.deltaRows, files: w.deltaFiles } } : {}
}

type UsableEarlier = NonNullable<Awaited<ReturnType<typeof usableEarlier>>>

/** An earlier table this merge may start from: listed with its rows and hash (a sum, see hashAndCount), and still there at its recorded size. */
const usableEarlier = async (earlier: EarlierMerge, rel: string) => {
  const record = earlier.tables.get(rel)
  if (!record || record.rows === undefined || record.contentHash === undefined || !/^-?\d+$/.test(record.contentHash)) return undefined
  const file = path.join(earlier.dir, rel)
  if (!(await hasRecordedSize(file, record.bytes))) return undefined
  // Its delta files (table-delta.ts), when it has them: both recorded there and intact, or the table cannot be read.
  const parts = Object.values(deltaPartsOf(rel)).map((p) => earlier.tables.get(p))
  if (parts.some((p) => p !== undefined)) {
    if (parts.some((p) => p === undefined)) return undefined
    for (const p of parts) if (!(await hasRecordedSize(path.join(earlier.dir, p!.path), p!.bytes))) return undefined
  }
  const delta = parts.every((p) => p !== undefined) ? (parts as StageOutput[]) : undefined
  // Its per-entity hashes, when recorded there and intact.
  const hashesRecord = earlier.tables.get(hashesRel(path.basename(rel, ".parquet")))
  const hashesFile = hashesRecord && path.join(earlier.dir, hashesRecord.path)
  const hashes = hashesFile && (await hasRecordedSize(hashesFile, hashesRecord!.bytes)) ? { file: hashesFile, record: hashesRecord! } : undefined
  return { file, record, rows: record.rows, hash: record.contentHash, delta, hashes }
}

/**
 * Builds the published tables under `<workDir>/tables/` from the objects' raw partitions; with
 * `earlier`, by entity from the earlier version's tables where that is the cheaper way.
 *
 * The raw tables are views over the partitions' Parquet files, with each row's `_doc` looked up
 * from its `_file`: partitions do not carry `_doc`, because an object's place in the corpus moves
 * when an object before it is added or deleted, and a reused partition must still sort where a
 * fresh read would (relative order, which is all the merge compares, never changes). DuckDB gets
 * every core here (the readers had them before, in worker threads) and a bounded share of RAM
 * (MERGE_MEMORY_LIMIT): the aggregates hold no texts (see fetchTexts), so what grows with the
 * corpus (joins, tables, the sorts of the COPYs) spills to the staging folder. With texts in the
 * aggregate states a million applications took 14.5 GB. Insertion order is not needed (every
 * table is written with ORDER BY) and costs memory. The database is in memory (spilling to the
 * staging folder): each table is built, written out and dropped, so nothing is stored,
 * compressed and checkpointed to a database file on the way.
 */
export const mergePartitions = async (
  workDir: string,
  objects: ReadonlyArray<MergeInput>,
  options: {
    readonly memoryLimit?: string
    readonly log?: (line: string) => void
    readonly earlier?: EarlierMerge
    /** ENTITY_MERGE_LIMIT unless given (tests of a few rows merge by entity at any share). */
    readonly entityMergeLimit?: number
    /** TABLE_DELTA_LIMIT unless given (0: every table merged by entity is written whole). */
    readonly tableDeltaLimit?: number
  } = {}
): Promise<MergedTables> => {
  const tableDeltaLimit = options.tableDeltaLimit ?? TABLE_DELTA_LIMIT
  const stagingDir = path.join(workDir, ".staging")
  await fs.rm(stagingDir, { recursive: true, force: true })
  await fs.mkdir(stagingDir, { recursive: true })
  await fs.mkdir(path.join(workDir, "tables"), { recursive: true })
  await clearChanges(workDir)
  await fs.rm(path.join(workDir, HASHES_DIR), { recursive: true, force: true })
  // A delta left by an interrupted run would be read with whatever table this run writes.
  for (const name of await fs.readdir(path.join(workDir, "tables"))) {
    if (isDeltaPart(name)) await fs.rm(path.join(workDir, "tables", name), { force: true })
  }
  const db = await openStageDatabase({
    spillDir: path.join(stagingDir, "merge.spill"),
    memoryLimit: options.memoryLimit ?? MERGE_MEMORY_LIMIT,
    preserveInsertionOrder: false
  })
  const conn = await db.connect()
  const log = options.log ?? (() => {})
  try {
    await conn.run(`CREATE TABLE _objects (_file VARCHAR PRIMARY KEY, _doc INTEGER)`)
    const ap = await conn.createAppender("_objects")
    for (const o of objects) {
      ap.appendVarchar(o.path)
      ap.appendInteger(o.doc)
      ap.endRow()
    }
    ap.closeSync()
    for (const t of Object.values(readerTables)) {
      const raw = `raw_${t.name}`
      const files = objects.filter((o) => (o.rows[raw] ?? 0) > 0).map((o) => sqlString(path.join(o.dir, `${raw}.parquet`)))
      if (files.length === 0) await conn.run(emptyRawDdl(t))
      else await conn.run(`CREATE VIEW ${raw} AS SELECT p.*, o._doc, ${POS} AS _pos FROM read_parquet([${files.join(", ")}]) p JOIN _objects o ON o._file = p._file`)
    }

    // By entity only while the change is small against the whole.
    const earlier = options.earlier
    const changedRows = earlier ? rawRowsOf(earlier.added) + rawRowsOf(earlier.gone) : Infinity
    const limit = options.entityMergeLimit ?? ENTITY_MERGE_LIMIT
    const byEntity = earlier !== undefined && changedRows <= limit * Math.max(1, rawRowsOf(objects))
    const changed = new Set<string>()
    if (byEntity) {
      for (const t of Object.values(readerTables)) {
        const raw = `raw_${t.name}`
        const parts = [...earlier.added, ...earlier.gone].filter((p) => (p.rows[raw] ?? 0) > 0)
        if (parts.length === 0) continue
        await conn.run(`CREATE VIEW ${changedView(raw)} AS SELECT * FROM read_parquet([${parts.map((p) => sqlString(path.join(p.dir, `${raw}.parquet`))).join(", ")}], union_by_name = true)`)
        changed.add(raw)
      }
    }

    const rowCounts: Record<string, number> = {}
    const contentHashes: Record<string, string> = {}
    const linked: Record<string, StageOutput> = {}
    const outputs: string[] = []
    const how = { linked: 0, byEntity: 0, delta: 0, whole: 0 }
    // What changed since the earlier version, for the stages after ingest (changes.ts).
    const changes = { unchanged: [] as string[], byEntity: [] as string[] }
    for (const t of publishedTables) {
      const rel = `tables/${t.name}.parquet`
      const out = path.join(workDir, rel)
      const took = stopwatch()
      outputs.push(rel)
      const from = byEntity ? await usableEarlier(earlier, rel) : undefined
      const affected = from ? await affectedEntities(conn, t, changed) : -1
      if (from && affected === 0) {
        await linkFile(from.file, out)
        linked[rel] = from.record
        for (const part of from.delta ?? []) {
          await linkFile(path.join(earlier!.dir, part.path), path.join(workDir, part.path))
          linked[part.path] = part
          outputs.push(part.path)
        }
        if (from.hashes) {
          await linkFile(from.hashes.file, path.join(workDir, from.hashes.record.path))
          linked[from.hashes.record.path] = from.hashes.record
          outputs.push(from.hashes.record.path)
        }
        rowCounts[t.name] = from.rows
        contentHashes[rel] = from.hash
        how.linked++
        changes.unchanged.push(t.name)
        log(`${t.name}: unchanged, ${from.rows.toLocaleString("en-US")} rows linked`)
      } else if (from) {
        outputs.push(await writeChangedKeys(conn, workDir, t.name, "_affected"))
        changes.byEntity.push(t.name)
        const r = await mergeEntities(conn, workDir, t, out, from, tableDeltaLimit)
        outputs.push(r.rowsFile)
        if (r.hashesFile) outputs.push(r.hashesFile)
        rowCounts[t.name] = r.rows
        contentHashes[rel] = r.hash
        how.byEntity++
        if (r.delta) {
          // The base is the earlier one, linked; the delta beside it is this night's.
          linked[rel] = from.record
          outputs.push(...r.delta.files)
          how.delta++
        }
        const wrote = r.delta ? `a delta of ${r.delta.rows.toLocaleString("en-US")} rows written beside the earlier base` : `${r.rows.toLocaleString("en-US")} rows written`
        log(`${t.name}: ${affected.toLocaleString("en-US")} changed entities merged again (${r.removed.toLocaleString("en-US")} rows out, ${r.fresh.toLocaleString("en-US")} in), ${wrote} in ${took()}`)
      } else {
        const r = await mergeWhole(conn, workDir, t, out)
        outputs.push(r.hashesFile)
        rowCounts[t.name] = r.rows
        contentHashes[rel] = r.hash
        how.whole++
        log(`${t.name}: ${r.rows.toLocaleString("en-US")} rows merged and written in ${took()}`)
      }
    }
    outputs.push(await writeChangeListing(workDir, { since: byEntity ? path.basename(earlier.dir) : null, ...changes }))
    const note = earlier
      ? byEntity
        ? `merge: ${how.linked} tables unchanged (linked), ${how.byEntity} merged again for the changed entities only (${how.delta} of them as a delta beside the earlier base), ${how.whole} merged whole`
        : `merge: every table merged whole (${changedRows.toLocaleString("en-US")} raw rows changed, over ${limit * 100}% of ${rawRowsOf(objects).toLocaleString("en-US")})`
      : `merge: every table merged whole`
    return { outputs, rowCounts, contentHashes, linked, note }
  } finally {
    conn.closeSync()
    db.closeSync()
    await fs.rm(stagingDir, { recursive: true, force: true })
  }
}
