/**
 * Raw partitions: what one corpus object became. Each object read by the ingest stage leaves a
 * folder `.ingest/<key>/` in the version with one Parquet file per raw table it has rows for
 * (`raw_<table>.parquet`, columns of the table plus `_file` and `_seq`) and `object.json`, what
 * was read and skipped. The merge reads every object's partition; a later build whose object
 * is unchanged hard-links the folder instead of reading the object again.
 *
 * The key is derived from the ingest code version, the object's path and its fingerprint, so a
 * changed object, or the same object read by other code, never finds a stale partition.
 *
 * The folder is hidden on purpose: the catalog, the API and the serving stage make one view per
 * Parquet file outside hidden folders, and raw partitions are ingest's own state, not tables.
 */
import { DuckDBAppender, DuckDBConnection, DuckDBInstance } from "@duckdb/node-api"
import { Effect, Schema } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { sqlString } from "../../core/artifacts/files.ts"
import { SkippedRecord } from "../../core/artifacts/manifest.ts"
import { readerTables, type ReaderTableName } from "../../core/artifacts/tables.ts"
import type { CorpusFile } from "../../core/corpus/reader.ts"
import { codeVersionOf, sha256 } from "../stages/fingerprint.ts"
import { SkipTally } from "../stages/Stage.ts"
import { chooseReader } from "./dispatch.ts"
import { appendValue, partitionDdl, rowProblem } from "./staging.ts"

/** Where partitions live inside a version (hidden: see above). */
export const PARTITIONS_DIR = ".ingest"

export const ObjectPartition = Schema.Struct({
  path: Schema.String,
  fingerprint: Schema.String,
  codeVersion: Schema.String,
  /** Rows per raw table (`raw_claims` …), only tables the object has rows for: each has a Parquet file. */
  rows: Schema.Record({ key: Schema.String, value: Schema.Number }),
  /** What reading the object skipped: the same tally the stage keeps, the first 200 records kept. */
  skipped: Schema.Struct({
    count: Schema.Number,
    byReason: Schema.Record({ key: Schema.String, value: Schema.Number }),
    samples: Schema.Array(SkippedRecord)
  })
})
export type ObjectPartition = typeof ObjectPartition.Type

export const decodeObjectPartition = Schema.decodeUnknown(Schema.parseJson(ObjectPartition))

export interface ObjectIdentity {
  readonly path: string
  readonly fingerprint: string
}

/**
 * The code a partition depends on: what reads an object into its rows (the worker thread and
 * everything it imports: readers, row checks, table definitions). The merge, the stage's
 * planning and the distributed queue are not part of it, so changing them reuses every partition.
 */
export const readerCodeVersion = () => codeVersionOf(["pipeline/ingest/worker.ts"])

export const partitionKey = (codeVersion: string, obj: ObjectIdentity) =>
  sha256(`${codeVersion}\u0000${obj.path}\u0000${obj.fingerprint}`).slice(0, 32)

/** Partition folder relative to the version directory. */
export const partitionRel = (key: string) => `${PARTITIONS_DIR}/${key}`

export const PARTITION_INDEX = "object.json"

/** The files of a partition, relative to its folder; object.json last (it marks the folder complete). */
export const partitionFiles = (p: ObjectPartition) => [...Object.keys(p.rows).sort().map((t) => `${t}.parquet`), PARTITION_INDEX]

/**
 * Writes one object's raw rows: appended into an in-memory DuckDB (which spills to its temp
 * folder beyond its memory limit), then copied out as Parquet. One writer per thread, reused
 * object after object.
 */
export class PartitionWriter {
  private readonly appenders = new Map<ReaderTableName, DuckDBAppender>()
  private readonly counts = new Map<ReaderTableName, number>()
  private seq = 0
  private constructor(private readonly db: DuckDBInstance, private readonly conn: DuckDBConnection) {}

  /** One DuckDB thread: the parallelism is in the number of writers, one per worker thread. */
  static async open(options: { readonly memoryLimit: string; readonly tempDirectory: string }) {
    const db = await DuckDBInstance.create(":memory:", { threads: "1", memory_limit: options.memoryLimit, temp_directory: options.tempDirectory })
    return new PartitionWriter(db, await db.connect())
  }

  async begin() {
    this.seq = 0
    this.counts.clear()
    for (const [name, t] of Object.entries(readerTables)) {
      await this.conn.run(partitionDdl(t))
      this.appenders.set(name as ReaderTableName, await this.conn.createAppender(`raw_${t.name}`))
    }
  }

  /** Appends a row (already checked with rowProblem); synchronous, so the reader loop never yields per row. */
  append(table: ReaderTableName, row: Record<string, unknown>, file: string) {
    const spec = readerTables[table]
    const ap = this.appenders.get(table)!
    for (const [name, c] of Object.entries(spec.columns)) appendValue(ap, c, row[name])
    ap.appendVarchar(file)
    ap.appendBigInt(BigInt(this.seq++))
    ap.endRow()
    this.counts.set(table, (this.counts.get(table) ?? 0) + 1)
  }

  /** Writes a Parquet file per raw table with rows into `dir`; returns rows per raw table. */
  async finish(dir: string): Promise<Record<string, number>> {
    for (const ap of this.appenders.values()) ap.closeSync()
    this.appenders.clear()
    const rows: Record<string, number> = {}
    for (const [name, n] of [...this.counts].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const table = `raw_${readerTables[name].name}`
      await this.conn.run(`COPY ${table} TO ${sqlString(path.join(dir, `${table}.parquet`))} (FORMAT parquet, COMPRESSION zstd)`)
      rows[table] = n
    }
    for (const t of Object.values(readerTables)) await this.conn.run(`DROP TABLE IF EXISTS raw_${t.name}`)
    return rows
  }

  close() {
    for (const ap of this.appenders.values()) ap.closeSync()
    this.appenders.clear()
    this.conn.closeSync()
    this.db.closeSync()
  }
}

/** Opens the file once, keeps its first chunk for sniffing, and replays it to the reader. */
const peek = async (file: CorpusFile) => {
  const it = file.open()[Symbol.asyncIterator]()
  const first = await it.next()
  const head = first.done ? new Uint8Array() : first.value
  const replay: CorpusFile = {
    path: file.path,
    open: () => ({
      async *[Symbol.asyncIterator]() {
        if (!first.done) yield head
        for (let r = await it.next(); !r.done; r = await it.next()) yield r.value
      }
    })
  }
  return { head: Buffer.from(head.subarray(0, 4096)).toString("utf8"), file: replay }
}

const readInto = async (writer: PartitionWriter, file: CorpusFile, skipped: SkipTally, onRows: (n: number) => void) => {
  const { head, file: replay } = await peek(file)
  const choice = chooseReader(file.path, head)
  if (!choice) {
    skipped.add({ file: file.path, position: "file", reason: "no reader for this file type" })
    return
  }
  let pending = 0
  for await (const ev of choice.reader(replay)) {
    if (ev.kind === "skip") {
      skipped.add({ file: ev.file, position: ev.position, reason: ev.reason })
      continue
    }
    const spec = readerTables[ev.table]
    const problem = rowProblem(spec, ev.row as Record<string, unknown>)
    if (problem) {
      skipped.add({ file: file.path, position: `${ev.table} row`, reason: problem })
      continue
    }
    writer.append(ev.table, ev.row as Record<string, unknown>, file.path)
    if (++pending === 1000) {
      onRows(pending)
      pending = 0
    }
  }
  onRows(pending)
}

/**
 * Reads one corpus object into its partition folder `dir` (emptied first) and returns what it
 * became. A bad record is skipped and counted; a file that cannot be read at all is counted with
 * position "file" and keeps the rows read before the failure, as a single-threaded read did.
 * Plain Promise code: it runs in worker threads as well as in the stage's own thread.
 */
export const parseObject = async (
  writer: PartitionWriter,
  file: CorpusFile,
  object: ObjectIdentity & { readonly codeVersion: string },
  dir: string,
  onRows: (n: number) => void
): Promise<ObjectPartition> => {
  await fs.rm(dir, { recursive: true, force: true })
  await fs.mkdir(dir, { recursive: true })
  const skipped = new SkipTally()
  await writer.begin()
  try {
    await readInto(writer, file, skipped, onRows)
  } catch (e) {
    // The whole file is unreadable (corrupt gzip, unreadable object): report it and go on.
    skipped.add({ file: object.path, position: "file", reason: `unreadable: ${e instanceof Error ? e.message : String(e)}` })
  }
  const rows = await writer.finish(dir)
  const partition: ObjectPartition = {
    path: object.path,
    fingerprint: object.fingerprint,
    codeVersion: object.codeVersion,
    rows,
    skipped: { count: skipped.count, byReason: { ...skipped.byReason }, samples: [...skipped.samples] }
  }
  // object.json is written last and renamed into place: a folder with it is complete (a crashed
  // build resumes from the objects it finished).
  const tmp = path.join(dir, `.${PARTITION_INDEX}.tmp`)
  await fs.writeFile(tmp, JSON.stringify(partition))
  await fs.rename(tmp, path.join(dir, PARTITION_INDEX))
  return partition
}

/** A complete partition folder's object.json, or undefined when the folder is missing or incomplete. */
export const readPartition = (dir: string) =>
  Effect.tryPromise(() => fs.readFile(path.join(dir, PARTITION_INDEX), "utf8")).pipe(
    Effect.flatMap(decodeObjectPartition),
    Effect.option
  )
