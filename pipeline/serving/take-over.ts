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

/** An earlier version's record file and fingerprints, when both are there. */
export const earlierRecords = async (dir: string, spec: RecordSpec) => {
  if (spec.kind !== RecordFileKind.Keyed) return undefined
  const files = recordFileNames(spec.name)
  const paths = { data: path.join(dir, files.data), index: path.join(dir, files.index), fingerprints: path.join(dir, fingerprintFile(spec.name)) }
  const present = await Promise.all(Object.values(paths).map((p) => fs.access(p).then(() => true, () => false)))
  return present.every(Boolean) ? paths : undefined
}

/** An earlier record file's listing, from its index. */
export const recordFileListing = async (earlier: { readonly data: string; readonly index: string }): Promise<EarlierListing> => {
  const layout = decodeIndex(await fs.readFile(earlier.index))
  if (layout.kind !== RecordFileKind.Keyed) throw new Error(`${earlier.index} is not a keyed record file`)
  return {
    data: earlier.data,
    records: async function* () {
      for (let at = 0; at < layout.count; at++) {
        yield { key: layout.keyBytes!.subarray(layout.keyOffsets![at], layout.keyOffsets![at + 1]), from: layout.recordOffsets[at], to: layout.recordOffsets[at + 1] }
      }
    }
  }
}
