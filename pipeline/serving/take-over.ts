/**
 * A nightly build's record files: the records of keys whose rows did not change are copied, as
 * bytes, from the version being replaced; only new and changed keys are queried and serialised.
 *
 * Each keyed record file has a fingerprint file, `serving/.fingerprints/<name>.parquet` (k, h; a
 * hidden folder: the stage's own working state, not a table for analysts or later stages):
 * h is a hash of the multiset of row hashes the spec's select gives for k, computed by DuckDB over
 * the whole table (vectorised, on every core) — far cheaper than sorting and serialising every
 * row. Comparing it with the earlier version's fingerprints names the keys to write anew (new or
 * changed) and the earlier records to leave out (changed or deleted); the rest are taken over.
 * A record is a function of its rows, so the result is byte-identical to a full write
 * (test/serving/take-over.test.ts). The fingerprint belongs to the stage's code version: another
 * code version (a different select, DuckDB's hash after an upgrade) never takes records over.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { sqlString } from "../../core/artifacts/files.ts"
import { decodeIndex, RecordFileKind, recordFileNames, SERVING_DIR } from "../../core/serving/records.ts"
import type { RecordSpec } from "./specs.ts"
import type { RecordWriter } from "./write-records.ts"

export const fingerprintFile = (name: string) => `${SERVING_DIR}/.fingerprints/${name}.parquet`

/** The spec's rows in the order a record file is written, optionally only for the keys in table `only`. */
export const orderedSql = (spec: RecordSpec, only?: string) =>
  `SELECT * FROM (${spec.select}) AS s${only ? ` WHERE s.k IN (SELECT k FROM ${only})` : ""} ORDER BY ${spec.order}`

/** One fingerprint per key: a hash of its rows' hashes, in a fixed order (so it counts each row). */
export const fingerprintSql = (spec: RecordSpec) =>
  `SELECT s.k::VARCHAR AS k, hash(list(hash(s) ORDER BY hash(s))) AS h FROM (${spec.select}) AS s WHERE s.k IS NOT NULL GROUP BY s.k`

/** Writes this version's fingerprints of `spec` (table `table`, made by fingerprintSql) next to its records. */
export const writeFingerprints = async (conn: DuckDBConnection, workDir: string, spec: RecordSpec, table: string) => {
  const rel = fingerprintFile(spec.name)
  await fs.mkdir(path.dirname(path.join(workDir, rel)), { recursive: true })
  await conn.run(`COPY (SELECT k, h FROM ${table} ORDER BY k) TO ${sqlString(path.join(workDir, rel))} (FORMAT parquet, COMPRESSION zstd)`)
  return rel
}

/** An earlier version's record file and fingerprints, when both are there. */
export const earlierRecords = async (dir: string, spec: RecordSpec) => {
  if (spec.kind !== RecordFileKind.Keyed) return undefined
  const files = recordFileNames(spec.name)
  const paths = { data: path.join(dir, files.data), index: path.join(dir, files.index), fingerprints: path.join(dir, fingerprintFile(spec.name)) }
  const present = await Promise.all(Object.values(paths).map((p) => fs.access(p).then(() => true, () => false)))
  return present.every(Boolean) ? paths : undefined
}

/** Reads spans of a file in increasing order through a window, so copying records is a sequential read. */
class SequentialSpans {
  private window = Buffer.alloc(0)
  private start = 0
  constructor(private readonly handle: fs.FileHandle, private readonly windowBytes = 4 << 20) {}
  async span(from: number, to: number): Promise<Buffer> {
    if (from >= this.start && to <= this.start + this.window.length) return this.window.subarray(from - this.start, to - this.start)
    // A fresh buffer each time: spans already handed out stay valid while the writer holds them.
    const size = Math.max(this.windowBytes, to - from)
    const buffer = Buffer.allocUnsafe(size)
    const { bytesRead } = await this.handle.read(buffer, 0, size, from)
    if (bytesRead < to - from) throw new Error(`short read at ${from}: the earlier record file is cut short`)
    this.window = buffer.subarray(0, bytesRead)
    this.start = from
    return this.window.subarray(0, to - from)
  }
}

/** New and changed records, in key order: what the merge interleaves with the taken-over ones. */
export type FreshRecords = AsyncIterator<{ readonly key: string; readonly bytes: Buffer }>

/**
 * Writes the merged record file: the earlier file's records except `dropped` keys, and `fresh`
 * (keys not among the kept ones), all in bytewise key order. Returns how many were taken over.
 */
export const mergeRecords = async (earlier: { readonly data: string; readonly index: string }, dropped: ReadonlySet<string>, fresh: FreshRecords, writer: RecordWriter) => {
  const layout = decodeIndex(await fs.readFile(earlier.index))
  if (layout.kind !== RecordFileKind.Keyed) throw new Error(`${earlier.index} is not a keyed record file`)
  const handle = await fs.open(earlier.data, "r")
  const spans = new SequentialSpans(handle)
  let takenOver = 0
  try {
    let next = await fresh.next()
    for (let at = 0; at < layout.count; at++) {
      const keyBytes = layout.keyBytes!.subarray(layout.keyOffsets![at], layout.keyOffsets![at + 1])
      while (!next.done && Buffer.compare(Buffer.from(next.value.key, "utf8"), keyBytes) < 0) {
        await writer.addBytes(next.value.key, next.value.bytes)
        next = await fresh.next()
      }
      const key = keyBytes.toString("utf8")
      if (dropped.has(key)) continue
      await writer.addBytes(key, await spans.span(layout.recordOffsets[at], layout.recordOffsets[at + 1]))
      takenOver++
    }
    for (; !next.done; next = await fresh.next()) await writer.addBytes(next.value.key, next.value.bytes)
  } finally {
    await handle.close()
  }
  return takenOver
}
