/**
 * Raw rows as the readers give them: the checks a row passes before it is stored and the shape
 * it is stored in (partitions: JSON lines copied to Parquet, see PartitionWriter; Staging below:
 * DuckDB appender, no SQL per row). Each raw table carries extra columns: `_file` (the corpus
 * object the row came from), `_seq` (the order of the row within that object) and, once the
 * merge reads the partitions, `_doc` (the order of the object in the corpus) and `_pos` ((_doc,
 * _seq) as one integer), so merging can keep rows of one document together and break every tie
 * by (_doc, _seq), the order of a single-threaded read, whichever worker read which object.
 */
import { DuckDBAppender, DuckDBConnection, DuckDBInstance, FLOAT, INTEGER, LIST, VARCHAR } from "@duckdb/node-api"
import * as os from "node:os"
import { readerTables, type ColumnSpec, type ReaderTableName, type TableSpec } from "../../core/artifacts/tables.ts"

const stagingType = (c: ColumnSpec) => (c.type === "DATE" ? "VARCHAR" : c.type)

/** The table's own columns of a partition, in order, for a SELECT. */
export const partitionColumns = (t: TableSpec) => Object.keys(t.columns).map((name) => `"${name}"`).join(", ")

/** The `columns` argument of read_ndjson for a partition's JSON rows: the table's columns and `_seq`. */
export const ndjsonColumns = (t: TableSpec) =>
  `{${Object.entries(t.columns)
    .map(([name, c]) => `'${name}': '${stagingType(c)}'`)
    .concat([`'_seq': 'BIGINT'`])
    .join(", ")}}`

/** The raw table as the merge reads it, for a table no partition has rows of. */
export const emptyRawDdl = (t: TableSpec) =>
  `CREATE TABLE raw_${t.name} (${Object.entries(t.columns)
    .map(([name, c]) => `"${name}" ${stagingType(c)}`)
    .concat([`_file VARCHAR`, `_seq BIGINT`, `_doc INTEGER`, `_pos BIGINT`])
    .join(", ")})`

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/

/** A table's columns as entries, listed once per table rather than once per row. */
const columnEntries = new Map<TableSpec, ReadonlyArray<readonly [string, ColumnSpec]>>()
const entriesOf = (t: TableSpec) => {
  let e = columnEntries.get(t)
  if (!e) columnEntries.set(t, (e = Object.entries(t.columns)))
  return e
}

/** Why a row cannot be stored, or undefined when it can. Cheap checks only: this runs per row. */
const isInt32 = (v: number) => Number.isInteger(v) && v >= -2147483648 && v <= 2147483647

export const rowProblem = (t: TableSpec, row: Record<string, unknown>): string | undefined => {
  for (const [name, c] of entriesOf(t)) {
    const v = row[name]
    if (v === undefined || v === null) {
      if (c.required) return `missing required ${t.name}.${name}`
      continue
    }
    switch (c.type) {
      case "VARCHAR":
        if (typeof v !== "string") return `${t.name}.${name} is not a string`
        break
      case "DATE":
        if (typeof v !== "string" || !ISO_DATE.test(v)) return `${t.name}.${name} is not a YYYY-MM-DD date: ${String(v).slice(0, 40)}`
        break
      case "BOOLEAN":
        if (typeof v !== "boolean") return `${t.name}.${name} is not a boolean`
        break
      // Out of the column's range the Parquet copy of the whole object would fail: the row is
      // skipped and counted instead.
      case "INTEGER":
        if (typeof v !== "number" || !isInt32(v)) return `${t.name}.${name} is not a 32-bit integer: ${String(v).slice(0, 40)}`
        break
      case "BIGINT":
        if (typeof v !== "number" || !Number.isSafeInteger(v)) return `${t.name}.${name} is not an integer: ${String(v).slice(0, 40)}`
        break
      case "DOUBLE":
      case "FLOAT":
        if (typeof v !== "number" || !Number.isFinite(v)) return `${t.name}.${name} is not a number`
        break
      case "VARCHAR[]":
        if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) return `${t.name}.${name} is not a list of strings`
        break
      case "INTEGER[]":
        if (!Array.isArray(v) || v.some((x) => typeof x !== "number" || !isInt32(x))) return `${t.name}.${name} is not a list of 32-bit integers`
        break
      case "FLOAT[]":
        if (!Array.isArray(v) || v.some((x) => typeof x !== "number" || !Number.isFinite(x))) return `${t.name}.${name} is not a list of numbers`
        break
    }
  }
  return undefined
}

export const appendValue = (ap: DuckDBAppender, c: ColumnSpec, v: unknown) => {
  if (v === undefined || v === null) return ap.appendNull()
  switch (c.type) {
    case "VARCHAR":
    case "DATE":
      return ap.appendVarchar(v as string)
    case "BOOLEAN":
      return ap.appendBoolean(v as boolean)
    case "INTEGER":
      return ap.appendInteger(v as number)
    case "BIGINT":
      return ap.appendBigInt(BigInt(v as number))
    case "DOUBLE":
      return ap.appendDouble(v as number)
    case "FLOAT":
      return ap.appendFloat(v as number)
    case "VARCHAR[]":
      return ap.appendList(v as string[], LIST(VARCHAR))
    case "INTEGER[]":
      return ap.appendList(v as number[], LIST(INTEGER))
    case "FLOAT[]":
      return ap.appendList(v as number[], LIST(FLOAT))
  }
}


/**
 * All raw rows in one DuckDB database, as ingest staged them before it had partitions: for tests
 * and tools that run a few files through the readers and the merge SQL by hand. The stage itself
 * writes partitions (partition.ts) and merges them with mergePartitions.
 */
export class Staging {
  private readonly appenders = new Map<ReaderTableName, DuckDBAppender>()
  readonly counts: Record<string, number> = {}
  private seq = 0
  private constructor(readonly db: DuckDBInstance, readonly conn: DuckDBConnection) {}

  /**
   * DuckDB's buffer pool defaults to 80% of RAM; staging bounds it to a quarter of RAM (at least
   * 2 GB: the merge's grouped aggregates do not all spill, and 1 GB ran out on 100k applications),
   * spilling the rest to the staging folder.
   */
  static async open(file: string, memoryLimit = `${Math.max(2, Math.floor(os.totalmem() / 4 / 2 ** 30))}GB`) {
    const db = await DuckDBInstance.create(file, { memory_limit: memoryLimit, temp_directory: `${file}.spill` })
    const conn = await db.connect()
    const staging = new Staging(db, conn)
    for (const [name, t] of Object.entries(readerTables)) {
      await conn.run(emptyRawDdl(t))
      staging.appenders.set(name as ReaderTableName, await conn.createAppender(`raw_${t.name}`))
    }
    return staging
  }

  /** Appends a row (already checked with rowProblem); synchronous, so the reader loop never yields per row. */
  append(table: ReaderTableName, row: Record<string, unknown>, file: string, doc: number) {
    const spec = readerTables[table]
    const ap = this.appenders.get(table)!
    for (const [name, c] of Object.entries(spec.columns)) appendValue(ap, c, row[name])
    ap.appendVarchar(file)
    ap.appendBigInt(BigInt(this.seq++))
    ap.appendInteger(doc)
    ap.appendBigInt((BigInt(doc) << 32n) + BigInt(this.seq - 1))
    ap.endRow()
    this.counts[table] = (this.counts[table] ?? 0) + 1
  }

  flush() {
    for (const ap of this.appenders.values()) ap.flushSync()
  }

  close() {
    for (const ap of this.appenders.values()) ap.closeSync()
    this.appenders.clear()
    this.conn.closeSync()
    this.db.closeSync()
  }
}
