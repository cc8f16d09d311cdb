/**
 * Taking keyed records over from the version a build replaces: a stage that writes one record per
 * key (serving record files, stored documents) fingerprints each key's rows, compares them with
 * the earlier version's fingerprints (changedKeys), and writes the earlier records of unchanged
 * keys as copied bytes beside freshly serialised ones for the rest (mergeRecords), in one
 * sequential pass over the earlier data file. The result equals a full write byte for byte.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { Config } from "effect"
import type { StageRecord } from "../../core/artifacts/manifest.ts"
import type { StageResult } from "./Stage.ts"
import * as fs from "node:fs/promises"
import { sqlString } from "../../core/artifacts/files.ts"

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
 * The records of an earlier file in key order: each key's bytes and its span in one of the data
 * files (`file`, an index into `data`; 0 when absent): a record file with its delta reads from two.
 */
export interface EarlierListing {
  readonly data: string | ReadonlyArray<string>
  /** Read once, in order, by the merge: a listing need not be held in memory whole. */
  readonly records: () => AsyncIterable<{ readonly key: Buffer; readonly from: number; readonly to: number; readonly file?: number }>
}

/**
 * Writes the merged file: the earlier file's records except `dropped` keys, and `fresh` (keys not
 * among the kept ones), all in bytewise key order. Returns how many were taken over.
 */
export const mergeRecords = async (
  earlier: EarlierListing,
  dropped: ReadonlySet<string>,
  fresh: FreshRecords,
  writer: {
    readonly addBytes: (key: string, bytes: Buffer) => Promise<void>
    /**
     * Takes an earlier record over by reference rather than by its bytes (a file that points into
     * a linked earlier one); false: copy its bytes.
     */
    readonly keep?: (key: string, span: { readonly from: number; readonly to: number; readonly file: number }) => boolean
  }
) => {
  const handles = await Promise.all((typeof earlier.data === "string" ? [earlier.data] : earlier.data).map((f) => fs.open(f, "r")))
  // Each file is read in increasing order on its own: the listing's spans increase within a file.
  const spans = handles.map((h) => new SequentialSpans(h))
  let takenOver = 0
  try {
    let next = await fresh.next()
    // The next fresh key's bytes, encoded once: it is compared with every earlier key it follows.
    let nextKey = next.done ? undefined : Buffer.from(next.value.key, "utf8")
    for await (const { key: keyBytes, from, to, file } of earlier.records()) {
      while (!next.done && Buffer.compare(nextKey!, keyBytes) < 0) {
        await writer.addBytes(next.value.key, next.value.bytes)
        next = await fresh.next()
        nextKey = next.done ? undefined : Buffer.from(next.value.key, "utf8")
      }
      const key = keyBytes.toString("utf8")
      if (dropped.has(key)) continue
      if (!writer.keep?.(key, { from, to, file: file ?? 0 })) await writer.addBytes(key, await spans[file ?? 0].span(from, to))
      takenOver++
    }
    for (; !next.done; next = await fresh.next()) await writer.addBytes(next.value.key, next.value.bytes)
  } finally {
    await Promise.all(handles.map((h) => h.close()))
  }
  return takenOver
}

/**
 * Which keys changed between an earlier fingerprint file and this build's fingerprints (table
 * `current`): `fresh` (a table of keys to write anew: new or changed) is created, and the earlier
 * keys to leave out (changed or deleted) are returned.
 */
export const changedKeys = async (conn: DuckDBConnection, earlierFingerprints: string, current: string, fresh: string) => {
  const before = `read_parquet(${sqlString(earlierFingerprints)})`
  await conn.run(`CREATE OR REPLACE TEMP TABLE ${fresh} AS SELECT c.k FROM ${current} c LEFT JOIN ${before} e ON e.k = c.k WHERE e.h IS DISTINCT FROM c.h`)
  const rows = (await conn.runAndReadAll(`SELECT e.k FROM ${before} e LEFT JOIN ${current} c ON c.k = e.k WHERE c.h IS DISTINCT FROM e.h`)).getRows() as [string][]
  return new Set(rows.map(([k]) => k))
}

/**
 * This version's fingerprints (k, h) when only the keys in table `only` can have changed (a
 * night's change lists name them): the earlier version's for every other key (same rows, same
 * hash) and `freshSql`'s, the fingerprints of those keys computed now.
 */
export const carriedFingerprintsSql = (earlierFingerprints: string, only: string, freshSql: string) =>
  `SELECT k, h FROM read_parquet(${sqlString(earlierFingerprints)}) WHERE k NOT IN (SELECT k FROM ${only}) UNION ALL ${freshSql}`

/**
 * Files the API reads by key (serving record files, stored documents) get a delta beside their
 * base file, linked from the version a night replaces, while the delta stays within this share of
 * the base's bytes: a year of weekly changes (about 0.5% of the applications each) before one night
 * writes the file whole again, and a lookup never reads more than the two files.
 */
export const SERVING_DELTA_LIMIT = 0.25

/** SERVING_DELTA_LIMIT, or the share an operator (or a test) sets; 0 writes every file whole. */
export const servingDeltaLimit = Config.number("SERVING_DELTA_LIMIT").pipe(
  Config.validate({ message: "SERVING_DELTA_LIMIT must be a share of a record file's bytes, 0 or more", validation: (x) => Number.isFinite(x) && x >= 0 }),
  Config.withDefault(SERVING_DELTA_LIMIT)
)

/**
 * A stage that takes records over from the version it replaces (serving record files, stored
 * documents): writes `workDir`'s files, with `earlierDir`'s at hand and ingest's change lists
 * (`changesDir`); `deltaLimit` as SERVING_DELTA_LIMIT. `linked`: its outputs hard-linked from
 * `earlierDir` unchanged.
 */
export type TakeOverWriter = (
  workDir: string,
  tick?: (n: number) => void,
  earlierDir?: string,
  changesDir?: string,
  deltaLimit?: number
) => Promise<StageResult & { readonly linked: ReadonlyArray<string> }>

/** The stage's result with its linked outputs' records from the earlier version, whose hashes the runner then takes over instead of reading gigabytes again. */
export const withLinkedOutputs = ({ linked, ...result }: StageResult & { readonly linked: ReadonlyArray<string> }, earlier: StageRecord | undefined): StageResult => {
  const recorded = new Map((earlier?.outputs ?? []).map((o) => [o.path, o]))
  return { ...result, linkedOutputs: Object.fromEntries(linked.flatMap((rel) => (recorded.has(rel) ? [[rel, recorded.get(rel)!]] : []))) }
}
