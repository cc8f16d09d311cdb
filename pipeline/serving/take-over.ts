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
 * A record is a function of its rows, so a file written whole is byte-identical to a full write,
 * and a base with its delta answers every key as one (test/serving/take-over.test.ts). The fingerprint belongs to the stage's code version: another
 * code version (a different select, DuckDB's hash after an upgrade) never takes records over.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { sqlString } from "../../core/artifacts/files.ts"
import { decodeIndex, deltaFileNames, keyAt, RecordFileKind, recordFileNames, SERVING_DIR, spanAt } from "../../core/serving/records.ts"
import type { EarlierListing } from "../stages/take-over.ts"
import type { RecordSpec } from "./specs.ts"

export const fingerprintFile = (name: string) => `${SERVING_DIR}/.fingerprints/${name}.parquet`

/** The spec's rows in the order a record file is written, optionally only for the keys in table `only`. */
export const orderedSql = (spec: RecordSpec, only?: string) =>
  `SELECT * FROM (${spec.select}) AS s${only ? ` WHERE s.k IN (SELECT k FROM ${only})` : ""} ORDER BY ${spec.order}`

/** One fingerprint per key: a hash of its rows' hashes, in a fixed order (so it counts each row); optionally only for the keys in table `only`. */
export const fingerprintSql = (spec: RecordSpec, only?: string) =>
  `SELECT s.k::VARCHAR AS k, hash(list(hash(s) ORDER BY hash(s))) AS h FROM (${spec.select}) AS s WHERE s.k IS NOT NULL${only ? ` AND s.k IN (SELECT k FROM ${only})` : ""} GROUP BY s.k`

/** Writes this version's fingerprints of `spec` (table `table`, made by fingerprintSql) next to its records. */
export const writeFingerprints = async (conn: DuckDBConnection, workDir: string, spec: RecordSpec, table: string) => {
  const rel = fingerprintFile(spec.name)
  await fs.mkdir(path.dirname(path.join(workDir, rel)), { recursive: true })
  await conn.run(`COPY (SELECT k, h FROM ${table} ORDER BY k) TO ${sqlString(path.join(workDir, rel))} (FORMAT parquet, COMPRESSION zstd)`)
  return rel
}

/** An earlier version's record file and fingerprints, when both are there, and the file's delta when it has one. */
export const earlierRecords = async (dir: string, spec: RecordSpec): Promise<EarlierRecords | undefined> => {
  if (spec.kind !== RecordFileKind.Keyed) return undefined
  const exists = (p: string) => fs.access(p).then(() => true, () => false)
  const files = recordFileNames(spec.name)
  const paths = { data: path.join(dir, files.data), index: path.join(dir, files.index), fingerprints: path.join(dir, fingerprintFile(spec.name)) }
  if (!(await Promise.all(Object.values(paths).map(exists))).every(Boolean)) return undefined
  const delta = deltaFileNames(spec.name)
  const deltaPaths = { data: path.join(dir, delta.data), index: path.join(dir, delta.index) }
  return (await exists(deltaPaths.index)) ? { ...paths, delta: deltaPaths } : paths
}

export interface EarlierRecords {
  readonly data: string
  readonly index: string
  readonly fingerprints: string
  readonly delta?: { readonly data: string; readonly index: string }
}

const keyedLayout = async (index: string) => {
  const layout = decodeIndex(await fs.readFile(index))
  if (layout.kind !== RecordFileKind.Keyed) throw new Error(`${index} is not a keyed record file`)
  return layout
}

/** Every record of a keyed file as written, an empty one (a key gone, in a delta) included. */
export const deltaListing = async (delta: { readonly data: string; readonly index: string }): Promise<EarlierListing> => {
  const layout = await keyedLayout(delta.index)
  return {
    data: delta.data,
    records: async function* () {
      for (let at = 0; at < layout.count; at++) yield { key: keyAt(layout, at), ...spanAt(layout, at) }
    }
  }
}

/**
 * An earlier record file's listing, from its index: with a delta, the records the two answer
 * together (the delta's where it holds the key, none where its record is empty), in key order.
 */
export const recordFileListing = async (earlier: Omit<EarlierRecords, "fingerprints">): Promise<EarlierListing> => {
  const base = await keyedLayout(earlier.index)
  if (!earlier.delta) return deltaListing(earlier)
  const delta = await keyedLayout(earlier.delta.index)
  return {
    data: [earlier.data, earlier.delta.data],
    records: async function* () {
      let d = 0
      for (let b = 0; b < base.count; b++) {
        const key = keyAt(base, b)
        for (; d < delta.count && Buffer.compare(keyAt(delta, d), key) < 0; d++) {
          const span = spanAt(delta, d)
          if (span.to > span.from) yield { key: keyAt(delta, d), ...span, file: 1 }
        }
        if (d < delta.count && Buffer.compare(keyAt(delta, d), key) === 0) {
          const span = spanAt(delta, d++)
          if (span.to > span.from) yield { key, ...span, file: 1 }
        } else yield { key, ...spanAt(base, b), file: 0 }
      }
      for (; d < delta.count; d++) {
        const span = spanAt(delta, d)
        if (span.to > span.from) yield { key: keyAt(delta, d), ...span, file: 1 }
      }
    }
  }
}
