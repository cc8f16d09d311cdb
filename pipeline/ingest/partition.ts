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
import { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api"
import { Effect, Schema } from "effect"
import * as fsSync from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { sqlString } from "../../core/artifacts/files.ts"
import { SkippedRecord } from "../../core/artifacts/manifest.ts"
import { readerTables, type ReaderTableName } from "../../core/artifacts/tables.ts"
import type { CorpusFile } from "../../core/corpus/reader.ts"
import { codeVersionOf, sha256 } from "../stages/fingerprint.ts"
import { SkipTally } from "../stages/Stage.ts"
import { chooseReader } from "./dispatch.ts"
import { ndjsonColumns, partitionColumns, rowProblem } from "./staging.ts"

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

/** Rows of one raw table on their way to its Parquet file: newline-delimited JSON, flushed in blocks. */
interface TableRows {
  readonly file: string
  fd: number | undefined
  lines: string[]
  /** UTF-16 units held in `lines`. */
  chars: number
  rows: number
  /** The longest line so far, in UTF-16 units (at most three UTF-8 bytes each). */
  longest: number
}

/** JSON held per table before it is written out (bounds memory on large objects). */
const FLUSH_CHARS = 1 << 20

/** read_ndjson's buffer for one line: its default, raised for an object with longer lines. */
const MIN_OBJECT_SIZE = 16 * 2 ** 20

/**
 * JSON.stringify writes a lone surrogate as an escape (`\udc00`) that DuckDB's JSON reader
 * refuses; such a row is written again with every string made well-formed (U+FFFD for the lone
 * surrogate, what the appender stored before).
 */
const LONE_SURROGATE = /\\ud[89a-f]/

/** _seq is packed below 2^32 in the merge's `_pos`. */
const MAX_ROWS = 2 ** 32

const wellFormed = (_key: string, v: unknown) => (typeof v === "string" ? (v as string & { toWellFormed(): string }).toWellFormed() : v)

/**
 * Writes one object's raw rows. Each row becomes one line of JSON in a per-table file beside the
 * partition (V8's JSON.stringify and DuckDB's JSON reader do the per-value work, not a native
 * call per cell), and each table with rows is then copied out as Parquet by one statement and its
 * JSON file removed. One writer (one single-threaded in-memory DuckDB) per thread, reused object
 * after object; nothing is created in DuckDB for tables an object has no rows for.
 */
export class PartitionWriter {
  private readonly tables = new Map<ReaderTableName, TableRows>()
  private dir = ""
  private file = ""
  private seq = 0
  private constructor(private readonly db: DuckDBInstance, private readonly conn: DuckDBConnection) {}

  /** One DuckDB thread: the parallelism is in the number of writers, one per worker thread. */
  static async open(options: { readonly memoryLimit: string; readonly tempDirectory: string }) {
    const db = await DuckDBInstance.create(":memory:", { threads: "1", memory_limit: options.memoryLimit, temp_directory: options.tempDirectory })
    return new PartitionWriter(db, await db.connect())
  }

  /** Starts an object whose partition folder (existing, empty) is `dir`. */
  begin(dir: string) {
    this.discard()
    this.dir = dir
    this.seq = 0
  }

  /** Appends a row (already checked with rowProblem); synchronous, so the reader loop never yields per row. */
  append(table: ReaderTableName, row: Record<string, unknown>, file: string) {
    this.file = file
    let rows = this.tables.get(table)
    if (!rows) {
      rows = { file: path.join(this.dir, `.raw_${readerTables[table].name}.ndjson`), fd: undefined, lines: [], chars: 0, rows: 0, longest: 0 }
      this.tables.set(table, rows)
    }
    if (this.seq === MAX_ROWS) throw new Error(`more than ${MAX_ROWS} rows in one corpus object`)
    let json = JSON.stringify(row)
    if (json.includes("\\ud") && LONE_SURROGATE.test(json)) json = JSON.stringify(row, wellFormed)
    const line = json.length > 2 ? `{"_seq":${this.seq++},${json.slice(1)}` : `{"_seq":${this.seq++}}`
    rows.lines.push(line)
    rows.rows++
    rows.chars += line.length
    if (line.length > rows.longest) rows.longest = line.length
    if (rows.chars >= FLUSH_CHARS) this.flush(rows)
  }

  private flush(rows: TableRows) {
    if (rows.lines.length === 0) return
    rows.fd ??= fsSync.openSync(rows.file, "w")
    rows.lines.push("")
    fsSync.writeFileSync(rows.fd, rows.lines.join("\n"))
    rows.lines = []
    rows.chars = 0
  }

  /** Writes a Parquet file per raw table with rows into the object's folder; returns rows per raw table. */
  async finish(): Promise<Record<string, number>> {
    const rows: Record<string, number> = {}
    try {
      for (const [name, t] of [...this.tables].sort(([a], [b]) => (a < b ? -1 : 1))) {
        this.flush(t)
        fsSync.closeSync(t.fd!)
        t.fd = undefined
        const spec = readerTables[name]
        const table = `raw_${spec.name}`
        await this.conn.run(
          `COPY (SELECT ${partitionColumns(spec)}, ${sqlString(this.file)} AS _file, _seq FROM read_ndjson(${sqlString(t.file)}, columns = ${ndjsonColumns(spec)}, maximum_object_size = ${Math.max(MIN_OBJECT_SIZE, 3 * t.longest + 1)})) ` +
            `TO ${sqlString(path.join(this.dir, `${table}.parquet`))} (FORMAT parquet, COMPRESSION zstd)`
        )
        rows[table] = t.rows
      }
    } finally {
      this.discard()
    }
    return rows
  }

  /** Closes and removes the current object's JSON files. */
  private discard() {
    for (const t of this.tables.values()) {
      if (t.fd !== undefined) fsSync.closeSync(t.fd)
      fsSync.rmSync(t.file, { force: true })
    }
    this.tables.clear()
  }

  close() {
    this.discard()
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
  writer.begin(dir)
  try {
    await readInto(writer, file, skipped, onRows)
  } catch (e) {
    // The whole file is unreadable (corrupt gzip, unreadable object): report it and go on.
    skipped.add({ file: object.path, position: "file", reason: `unreadable: ${e instanceof Error ? e.message : String(e)}` })
  }
  const rows = await writer.finish()
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
