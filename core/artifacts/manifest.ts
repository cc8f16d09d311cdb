/**
 * manifest.json of an artifact version: what was built, from what, by which code, and what was
 * skipped. The pipeline writes it; the API reads it to know what it serves. `current` only ever
 * points at a version whose manifest decodes and whose listed outputs exist.
 */
import { Schema } from "effect"

export const SkippedRecord = Schema.Struct({
  file: Schema.String,
  position: Schema.String,
  reason: Schema.String
})
export type SkippedRecord = typeof SkippedRecord.Type

export const StageOutput = Schema.Struct({
  /** Path relative to the version directory. */
  path: Schema.String,
  sha256: Schema.String,
  bytes: Schema.Number,
  /** Row count for tables. */
  rows: Schema.optional(Schema.Number),
  /** Order-independent hash of the table's rows: equal tables give equal hashes wherever they were built. */
  contentHash: Schema.optional(Schema.String)
})
export type StageOutput = typeof StageOutput.Type

export const StageRecord = Schema.Struct({
  name: Schema.String,
  codeVersion: Schema.String,
  inputHash: Schema.String,
  inputs: Schema.Array(Schema.String),
  outputs: Schema.Array(StageOutput),
  rowCounts: Schema.Record({ key: Schema.String, value: Schema.Number }),
  skipped: Schema.Struct({
    count: Schema.Number,
    byReason: Schema.Record({ key: Schema.String, value: Schema.Number }),
    /** The first records skipped (bounded so a bad corpus cannot bloat the manifest). */
    samples: Schema.Array(SkippedRecord)
  }),
  startedAt: Schema.String,
  finishedAt: Schema.String,
  seconds: Schema.Number,
  /** True when the outputs were taken over from an earlier build with identical inputs and code. */
  reused: Schema.Boolean,
  notes: Schema.optional(Schema.Array(Schema.String))
})
export type StageRecord = typeof StageRecord.Type

export const CorpusFileEntry = Schema.Struct({
  path: Schema.String,
  bytes: Schema.Number,
  fingerprint: Schema.String
})

export const Manifest = Schema.Struct({
  formatVersion: Schema.Literal(1),
  version: Schema.String,
  /** Hash of the corpus fingerprints and every stage's code version: equal keys mean an equal build. */
  buildKey: Schema.String,
  createdAt: Schema.String,
  corpus: Schema.Struct({
    location: Schema.String,
    files: Schema.Array(CorpusFileEntry)
  }),
  stages: Schema.Array(StageRecord)
})
export type Manifest = typeof Manifest.Type

export const decodeManifest = Schema.decodeUnknown(Manifest)
