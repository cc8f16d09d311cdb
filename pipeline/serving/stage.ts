/**
 * The serving stage: writes the record files (core/serving) the API reads by key, so that no
 * request scans a table. Every spec in specs.ts becomes serving/<name>.{bin,idx}; a keyed one also
 * gets per-key fingerprints, with which a nightly build copies unchanged records from the version it
 * replaces and writes only new and changed ones (take-over.ts). Where ingest's change lists name
 * the changed keys, a night links the earlier base file and writes only a delta beside it
 * (core/serving/records.ts) until the delta outgrows SERVING_DELTA_LIMIT of the base.
 *
 * Rows are streamed from DuckDB in key order and grouped in JavaScript, so memory stays bounded
 * by one key's rows plus the index arrays (about 20 bytes per key).
 */
import type { DuckDBInstance } from "@duckdb/node-api"
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { linkFile } from "../../core/artifacts/files.ts"
import { createTableViews, tableRelation } from "../../core/artifacts/table-delta.ts"
import { countWithDelta, decodeIndex, deltaFileNames, findKey, RecordFileKind, type RecordFileLayout, recordFileNames, SERVING_DIR } from "../../core/serving/records.ts"
import { type ChangedKeys, changedKeysSql, changedSince, ingestChanges, withChangedRows } from "../ingest/changes.ts"
import { type Stage, type StageResult, stagePromise } from "../stages/Stage.ts"
import { type RecordSpec, recordSpecs } from "./specs.ts"
import { carriedFingerprintsSql, changedKeys, type EarlierListing, mergeRecords, SERVING_DELTA_LIMIT, servingDeltaLimit, type TakeOverWriter, withLinkedOutputs } from "../stages/take-over.ts"
import { deltaListing, type EarlierRecords, earlierRecords, fingerprintFile, fingerprintSql, orderedSql, recordFileListing, writeFingerprints } from "./take-over.ts"
import { openRecordWriter } from "./write-records.ts"
import { closeStageDatabase, openStageDatabase, spillDirOf } from "../stages/duckdb.ts"
import { stopwatch } from "../stages/stopwatch.ts"


/** DuckDB hands BIGINT as bigint, which JSON cannot hold; counts and keys fit a double. */
const plain = (v: unknown): unknown => (typeof v === "bigint" ? Number(v) : v)

const rowOf = (columns: ReadonlyArray<string>, values: ReadonlyArray<unknown>) => {
  const row: Record<string, unknown> = {}
  for (let i = 1; i < columns.length; i++) row[columns[i]] = plain(values[i])
  return row
}

type Connection = Awaited<ReturnType<DuckDBInstance["connect"]>>

/** A spec's records in key order, as JSON text, from its rows (grouped specs gather a key's rows into one list). */
async function* recordsOf(conn: Connection, spec: RecordSpec, sql: string, tick: (n: number) => void): AsyncGenerator<{ key: string; json: string }> {
  const result = await conn.stream(sql)
  const columns = result.columnNames()
  let currentKey: unknown
  let group: Array<Record<string, unknown>> = []
  for await (const rows of result.yieldRowsJs()) {
    for (const values of rows) {
      const key = plain(values[0])
      if (key === null || key === undefined) continue
      if (!spec.grouped) {
        yield { key: String(key), json: JSON.stringify(rowOf(columns, values)) }
        continue
      }
      if (key !== currentKey) {
        if (group.length) yield { key: String(currentKey), json: JSON.stringify(group) }
        group = []
        currentKey = key
      }
      group.push(rowOf(columns, values))
    }
    tick(rows.length)
  }
  if (group.length) yield { key: String(currentKey), json: JSON.stringify(group) }
}

/** Fresh records as the take-over merge copies them: bytes (a night's new and changed keys, few). */
async function* encoded(records: AsyncIterable<{ key: string; json: string }>) {
  for await (const r of records) yield { key: r.key, bytes: Buffer.from(r.json, "utf8") }
}

/**
 * One spec's record file, and for keyed files their fingerprints. With an earlier version's file
 * and fingerprints (a nightly build under the same stage code), only new and changed keys are
 * queried and serialised; the rest are copied (take-over.ts). Which keys those are, ingest's
 * change lists say where the spec has them (`changesWith`; a file none of whose keys changed is
 * linked whole); otherwise every key is fingerprinted and compared.
 */
const writeSpec = async (
  conn: Connection,
  workDir: string,
  spec: RecordSpec,
  earlierDir: string | undefined,
  changesDir: string | undefined,
  deltaLimit: number,
  tick: (n: number) => void
): Promise<{ records: number; outputs: ReadonlyArray<string>; linked?: ReadonlyArray<string>; note: string | undefined }> => {
  if (spec.kind === RecordFileKind.Ordinal) {
    const writer = await openRecordWriter(workDir, spec.name, spec.kind)
    for await (const r of recordsOf(conn, spec, orderedSql(spec), tick)) await writer.addJson(Number(r.key), r.json)
    const written = await writer.finish()
    return { ...written, note: undefined }
  }
  const earlier = earlierDir ? await earlierRecords(earlierDir, spec) : undefined
  const changed = earlier && changesDir && spec.changesWith ? await changedSince(changesDir, earlierDir, spec.changesWith) : undefined
  // (A record that also reads a later stage's output may change with nothing listed.)
  if (earlier && changed?.files.length === 0 && !spec.alsoChanged) return linkRecords(workDir, spec, earlier)
  const keys = earlier && changed && earlierDir ? await listedKeys(conn, spec, earlierDir, changed) : undefined
  // A night that changes more keys than a delta may hold (vector keys that moved for most
  // applications) writes the file whole at once rather than a delta and then the whole file.
  // The earlier base's index, read once: its count, the keys a delta empties, the count with the delta.
  const base = earlier && keys && deltaLimit > 0 ? decodeIndex(await fs.readFile(earlier.index)) : undefined
  if (earlier && keys && base && keys.listed.length <= deltaLimit * base.count) {
    const delta = await writeDelta(conn, workDir, spec, earlier, base, keys, tick)
    const bases = await Promise.all([earlier.data, path.join(workDir, delta.files.data)].map((f) => fs.stat(f).then((s) => s.size)))
    const fingerprints = await writeFingerprints(conn, workDir, spec, "_fingerprints")
    if (bases[1] <= deltaLimit * bases[0]) {
      const files = recordFileNames(spec.name)
      await Promise.all([linkFile(earlier.data, path.join(workDir, files.data)), linkFile(earlier.index, path.join(workDir, files.index))])
      const written = decodeIndex(await fs.readFile(path.join(workDir, delta.files.index)))
      const records = countWithDelta(base, written)
      return {
        records,
        outputs: [files.data, files.index, delta.files.data, delta.files.index, fingerprints],
        linked: [files.data, files.index],
        note: `serving/${spec.name}: ${records} records, the base file linked and a delta of ${written.count} keys written (${delta.fresh} written anew, ${delta.gone} removed, ${delta.carried} carried from the earlier delta; ${delta.listed} keys listed as changed by ingest)`
      }
    }
    // The delta outgrew its share of the base: one whole file again, the base and delta merged.
    const writer = await openRecordWriter(workDir, spec.name, spec.kind)
    const absolute = { data: path.join(workDir, delta.files.data), index: path.join(workDir, delta.files.index) }
    const takenOver = await mergeRecords(await recordFileListing({ data: earlier.data, index: earlier.index, delta: absolute }), new Set(), (async function* () {})(), writer)
    await Promise.all(Object.values(absolute).map((f) => fs.rm(f)))
    const written = await writer.finish()
    return {
      records: written.records,
      outputs: [...written.outputs, fingerprints],
      note: `serving/${spec.name}: ${takenOver} records written whole, the earlier file and this night's delta of ${delta.fresh + delta.gone + delta.carried} keys merged (the delta would have been ${bases[1]} bytes, over ${deltaLimit} of the base's ${bases[0]}; ${delta.listed} keys listed as changed by ingest)`
    }
  }
  const writer = await openRecordWriter(workDir, spec.name, spec.kind)
  let takeOver: { takenOver: number; listed: string } | undefined
  if (earlier && keys) {
    const listed = keys.listed
    // The listed keys' rows are all in ingest's changed rows (where `keys.rows` has them): the tables are not scanned for them.
    const takenOver = await withChangedRows(conn, keys.rows, async () => {
      await conn.run(`CREATE OR REPLACE TEMP TABLE _fingerprints AS ${carriedFingerprintsSql(earlier.fingerprints, "_fresh", fingerprintSql(spec, "_fresh"))}`)
      const fresh = encoded(recordsOf(conn, spec, orderedSql(spec, "_fresh"), tick))
      return mergeRecords(await recordFileListing(earlier), new Set(listed), fresh, writer)
    })
    takeOver = { takenOver, listed: `${listed.length} keys listed as changed by ingest` }
  } else {
    await conn.run(`CREATE OR REPLACE TEMP TABLE _fingerprints AS ${fingerprintSql(spec)}`)
    if (earlier) {
      const dropped = await changedKeys(conn, earlier.fingerprints, "_fingerprints", "_fresh")
      const fresh = encoded(recordsOf(conn, spec, orderedSql(spec, "_fresh"), tick))
      takeOver = { takenOver: await mergeRecords(await recordFileListing(earlier), dropped, fresh, writer), listed: `${dropped.size} earlier ones replaced or removed` }
    } else {
      for await (const r of recordsOf(conn, spec, orderedSql(spec), tick)) await writer.addJson(r.key, r.json)
    }
  }
  const written = await writer.finish()
  const fingerprints = await writeFingerprints(conn, workDir, spec, "_fingerprints")
  const note = takeOver
    ? `serving/${spec.name}: ${takeOver.takenOver} records taken over from the earlier version, ${written.records - takeOver.takenOver} written anew, ${takeOver.listed}`
    : undefined
  return { records: written.records, outputs: [...written.outputs, fingerprints], note }
}

/** An earlier record file none of whose keys changed: its data, index, delta and fingerprints, linked. */
const linkRecords = async (workDir: string, spec: RecordSpec, earlier: EarlierRecords) => {
  const files = recordFileNames(spec.name)
  const delta = deltaFileNames(spec.name)
  const pairs: Array<[string, string]> = [
    [earlier.data, files.data],
    [earlier.index, files.index],
    [earlier.fingerprints, fingerprintFile(spec.name)],
    ...(earlier.delta ? ([[earlier.delta.data, delta.data], [earlier.delta.index, delta.index]] as Array<[string, string]>) : [])
  ]
  await Promise.all(pairs.map(([from, rel]) => linkFile(from, path.join(workDir, rel))))
  const base = decodeIndex(await fs.readFile(earlier.index))
  const records = earlier.delta ? countWithDelta(base, decodeIndex(await fs.readFile(earlier.delta.index))) : base.count
  const rels = pairs.map(([, rel]) => rel)
  return { records, outputs: rels, linked: rels, note: `serving/${spec.name}: unchanged since the earlier version (ingest's change lists), ${records} records linked` }
}

/** The keys a night writes anew (also in temp table `_fresh`), and the rows files that hold all their rows. */
interface ListedKeys {
  readonly listed: ReadonlyArray<string>
  readonly rows: Readonly<Record<string, string>>
}

/**
 * The keys of `spec` whose records may differ from the earlier version's: ingest's listed entities
 * (mapped to the spec's keys where it is keyed otherwise) and what else the spec compares; created
 * as `_fresh`. Undefined when the earlier version lacks a file the spec compares with.
 */
const listedKeys = async (conn: Connection, spec: RecordSpec, earlierDir: string, changed: ChangedKeys): Promise<ListedKeys | undefined> => {
  // The earlier files the spec compares with, each a view (a table there may have a delta).
  const wanted = new Map<string, string>()
  const earlier = (rel: string) => {
    if (!wanted.has(rel)) wanted.set(rel, `_earlier_${wanted.size}`)
    return wanted.get(rel)!
  }
  const listed = changedKeysSql(changed)
  const mapped = spec.keysOfListed?.(listed, earlier)
  const also = spec.alsoChanged?.(earlier)
  for (const [rel, view] of wanted) {
    const file = path.join(earlierDir, rel)
    if (!(await fs.access(file).then(() => true, () => false))) return undefined
    await conn.run(`CREATE OR REPLACE TEMP VIEW ${view} AS SELECT * FROM ${await tableRelation(conn, file)}`)
  }
  let rows = mapped === undefined ? changed.rows : {}
  let keys = mapped === undefined ? `SELECT k FROM ${listed}` : mapped
  if (also !== undefined) {
    await conn.run(`CREATE OR REPLACE TEMP TABLE _also AS SELECT DISTINCT k::VARCHAR AS k FROM (${also}) WHERE k IS NOT NULL`)
    // A key changed only through the compared output has its rows in the whole tables, not the rows files.
    const outside = Number((await conn.runAndReadAll(`SELECT count(*) FROM _also WHERE k NOT IN (SELECT k FROM ${listed})`)).getRows()[0][0])
    if (outside > 0) rows = {}
    keys = `${keys} UNION SELECT k FROM _also`
  }
  await conn.run(`CREATE OR REPLACE TEMP TABLE _fresh AS SELECT DISTINCT k::VARCHAR AS k FROM (${keys}) WHERE k IS NOT NULL`)
  return { listed: ((await conn.runAndReadAll(`SELECT k FROM _fresh`)).getRows() as [unknown][]).map(([k]) => String(k)), rows }
}

/**
 * This version's delta of a record file whose base is linked from the earlier version: the earlier
 * delta's records of keys ingest did not list, the listed keys' records as they are now, and an
 * empty record for each listed key that is gone but which the base holds. Leaves this version's
 * fingerprints in `_fingerprints` (the earlier ones carried, the listed keys' computed).
 */
const writeDelta = async (conn: Connection, workDir: string, spec: RecordSpec, earlier: EarlierRecords, base: RecordFileLayout, keys: ListedKeys, tick: (n: number) => void) => {
  const listed = keys.listed.map((k) => Buffer.from(k, "utf8")).sort(Buffer.compare)
  const counts = { fresh: 0, gone: 0, carried: 0, listed: listed.length }
  const writer = await openRecordWriter(workDir, `${spec.name}.delta`, RecordFileKind.Keyed)
  counts.carried = await withChangedRows(conn, keys.rows, async () => {
    await conn.run(`CREATE OR REPLACE TEMP TABLE _fingerprints AS ${carriedFingerprintsSql(earlier.fingerprints, "_fresh", fingerprintSql(spec, "_fresh"))}`)
    const fresh = encoded(recordsOf(conn, spec, orderedSql(spec, "_fresh"), tick))
    // Every listed key in key order: its record now, or an empty one where it is gone from the base.
    async function* listedRecords() {
      let next = await fresh.next()
      for (const key of listed) {
        while (!next.done && Buffer.compare(Buffer.from(next.value.key, "utf8"), key) < 0) {
          counts.fresh++
          yield next.value
          next = await fresh.next()
        }
        if (!next.done && Buffer.compare(Buffer.from(next.value.key, "utf8"), key) === 0) {
          counts.fresh++
          yield next.value
          next = await fresh.next()
        } else if (findKey(base, key) >= 0) {
          counts.gone++
          yield { key: key.toString("utf8"), bytes: Buffer.alloc(0) }
        }
      }
      for (; !next.done; next = await fresh.next()) {
        counts.fresh++
        yield next.value
      }
    }
    const earlierDelta: EarlierListing = earlier.delta ? await deltaListing(earlier.delta) : { data: [], records: async function* () {} }
    return mergeRecords(earlierDelta, new Set(listed.map((k) => k.toString("utf8"))), listedRecords(), writer)
  })
  await writer.finish()
  return { files: deltaFileNames(spec.name), ...counts }
}

/**
 * `changesDir`: ingest's change lists (pipeline/ingest/changes.ts), which spare a nightly build the
 * fingerprints of unchanged tables. `deltaLimit`: the share of a base file's bytes up to which a
 * night writes a delta beside the linked base rather than a whole file (0: always whole).
 * `linked`: the outputs hard-linked from `earlierDir` unchanged.
 */
export const writeServingRecords: TakeOverWriter = async (workDir, tick = () => {}, earlierDir, changesDir, deltaLimit = SERVING_DELTA_LIMIT) => {
  // A spec skipped for a missing table must not leave an earlier file of that name behind.
  await fs.rm(path.join(workDir, SERVING_DIR), { recursive: true, force: true })
  const spillDir = spillDirOf(workDir, "serving")
  const db = await openStageDatabase({ spillDir })
  const conn = await db.connect()
  const outputs: string[] = []
  const linked: string[] = []
  const rowCounts: Record<string, number> = {}
  const notes: string[] = []
  try {
    // Every Parquet file a view by its name, a table a night changed by entity with its delta (core/artifacts/table-delta.ts).
    const tables = new Set((await createTableViews(conn, workDir)).map((file) => path.basename(file, ".parquet")))
    for (const spec of recordSpecs) {
      const missing = spec.tables.filter((t) => !tables.has(t))
      if (missing.length) {
        notes.push(`serving/${spec.name} not written: the version has no ${missing.join(", ")} table`)
        continue
      }
      const took = stopwatch()
      const written = await writeSpec(conn, workDir, spec, earlierDir, changesDir, deltaLimit, tick)
      outputs.push(...written.outputs)
      linked.push(...(written.linked ?? []))
      rowCounts[`serving_${spec.name}`] = written.records
      notes.push(written.note ? `${written.note} (${took()})` : `serving/${spec.name}: ${written.records} records written (${took()})`)
    }
  } finally {
    conn.closeSync()
    await closeStageDatabase(db, spillDir)
  }
  return { outputs, rowCounts, notes, linked }
}

export const servingStage: Stage = {
  name: "serving",
  sources: ["pipeline/serving", "core/serving", "core/prosecution/sections.ts"],
  dependsOn: ["ingest", "embed", "map", "prosecution"],
  readsCorpusFile: () => false,
  run: (ctx) =>
    Effect.flatMap(servingDeltaLimit, (deltaLimit) => stagePromise(async () => {
      // Records are taken over only from an earlier version whose serving stage ran the same code.
      const earlier = ctx.previous && ctx.previous.record.codeVersion === ctx.codeVersion ? ctx.previous : undefined
      // Files linked unchanged keep the hashes recorded for them there.
      return withLinkedOutputs(await writeServingRecords(ctx.workDir, (n) => ctx.progress.tick(n, "serving rows"), earlier?.dir, ctx.outputOf(ingestChanges), deltaLimit), earlier?.record)
    }))
}
