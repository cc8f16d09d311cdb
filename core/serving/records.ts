/**
 * Record files: the serving structures the API reads by key, written once by the pipeline.
 *
 * Why: a request that names an application must cost the same at 10,000 and at 10,000,000
 * applications. Parquet (and DuckDB over it) answers `WHERE app_num IN (…)` by scanning column
 * chunks, so every lookup grew with the table. A record file answers it with a binary search over
 * keys held in memory and one positioned read, as `documents/stored.bin` already did for search
 * hydration. Parquet stays the analysts' format; these files are derived from it.
 *
 *   serving/<name>.bin   UTF-8 JSON records, concatenated in key order
 *   serving/<name>.idx   header (32 bytes) · record offsets f64 × (n+1) · key offsets u32 × (n+1) · key bytes
 *
 * Keys are compared as UTF-8 bytes (the writer checks they arrive strictly increasing). An
 * ordinal file (keys 0 … n−1, e.g. vector keys) stores no key bytes: the key is the position, and a
 * position without a record has length 0.
 *
 * A keyed file may have a delta beside it, a keyed record file of its own:
 *
 *   serving/<name>.delta.{bin,idx}   the records of keys that changed since the base file was written
 *
 * A key the delta holds is answered from it (an empty record there: the key is gone); any other
 * key from the base. A nightly build links the base file of the version it replaces unchanged and
 * writes only the delta (all changes since the base, so a version never needs more than the two),
 * rather than copying gigabytes of unchanged records into a new file; past a share of the base it
 * writes one whole file again.
 */
export const SERVING_DIR = "serving"
export const MAGIC = "KREC0001"
export const HEADER_BYTES = 32

export const RecordFileKind = { Keyed: 1, Ordinal: 2 } as const
export type RecordFileKind = (typeof RecordFileKind)[keyof typeof RecordFileKind]

export interface RecordFileLayout {
  readonly kind: RecordFileKind
  readonly count: number
  readonly recordOffsets: Float64Array
  /** Keyed files only. */
  readonly keyOffsets?: Uint32Array
  readonly keyBytes?: Buffer
}

export const recordFileNames = (name: string) => ({ data: `${SERVING_DIR}/${name}.bin`, index: `${SERVING_DIR}/${name}.idx` })

/** The delta of a keyed record file: records changed since its base file, an empty one for a key gone. */
export const deltaFileNames = (name: string) => recordFileNames(`${name}.delta`)

/** Serialises a layout into the `.idx` file's bytes. */
export const encodeIndex = (layout: RecordFileLayout): Buffer => {
  const n = layout.count
  const keyed = layout.kind === RecordFileKind.Keyed
  const keyBytes = keyed ? layout.keyBytes! : Buffer.alloc(0)
  const offsetsBytes = (n + 1) * 8
  const keyOffsetBytes = keyed ? (n + 1) * 4 : 0
  const out = Buffer.alloc(HEADER_BYTES + offsetsBytes + keyOffsetBytes + keyBytes.length)
  out.write(MAGIC, 0, "latin1")
  out.writeUInt32LE(layout.kind, 8)
  out.writeDoubleLE(n, 16)
  out.writeDoubleLE(keyBytes.length, 24)
  Buffer.from(layout.recordOffsets.buffer, layout.recordOffsets.byteOffset, offsetsBytes).copy(out, HEADER_BYTES)
  if (keyed) {
    Buffer.from(layout.keyOffsets!.buffer, layout.keyOffsets!.byteOffset, keyOffsetBytes).copy(out, HEADER_BYTES + offsetsBytes)
    keyBytes.copy(out, HEADER_BYTES + offsetsBytes + keyOffsetBytes)
  }
  return out
}

/** Reads an `.idx` file's bytes back; throws on a file that is not one (or is cut short). */
export const decodeIndex = (bytes: Buffer): RecordFileLayout => {
  if (bytes.length < HEADER_BYTES || bytes.toString("latin1", 0, 8) !== MAGIC) throw new Error("not a record index (bad magic)")
  const kind = bytes.readUInt32LE(8) as RecordFileKind
  const n = bytes.readDoubleLE(16)
  const keyLength = bytes.readDoubleLE(24)
  const keyed = kind === RecordFileKind.Keyed
  const offsetsBytes = (n + 1) * 8
  const keyOffsetBytes = keyed ? (n + 1) * 4 : 0
  if (bytes.length !== HEADER_BYTES + offsetsBytes + keyOffsetBytes + keyLength) throw new Error("record index has the wrong length")
  // Typed arrays need aligned offsets: one copy into a fresh buffer gives them.
  const aligned = new ArrayBuffer(offsetsBytes + keyOffsetBytes)
  new Uint8Array(aligned).set(bytes.subarray(HEADER_BYTES, HEADER_BYTES + offsetsBytes + keyOffsetBytes))
  return {
    kind,
    count: n,
    recordOffsets: new Float64Array(aligned, 0, n + 1),
    ...(keyed
      ? { keyOffsets: new Uint32Array(aligned, offsetsBytes, n + 1), keyBytes: bytes.subarray(HEADER_BYTES + offsetsBytes + keyOffsetBytes) }
      : {})
  }
}

/** Position of `key` among the sorted keys, or −1. */
export const findKey = (layout: RecordFileLayout, key: Buffer): number => {
  const { keyOffsets, keyBytes } = layout
  if (!keyOffsets || !keyBytes) return -1
  let lo = 0
  let hi = layout.count - 1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    const c = key.compare(keyBytes, keyOffsets[mid], keyOffsets[mid + 1])
    if (c === 0) return mid
    if (c > 0) lo = mid + 1
    else hi = mid - 1
  }
  return -1
}

/** The record span of position `at`. */
export const spanAt = (layout: RecordFileLayout, at: number) => ({ from: layout.recordOffsets[at], to: layout.recordOffsets[at + 1] })

/** The key bytes of position `at` of a keyed layout. */
export const keyAt = (layout: RecordFileLayout, at: number) => layout.keyBytes!.subarray(layout.keyOffsets![at], layout.keyOffsets![at + 1])

/**
 * How many keys a base file with its delta holds: the base's, plus the keys the delta adds, less
 * the base keys it empties.
 */
export const countWithDelta = (base: RecordFileLayout, delta: RecordFileLayout) => {
  let count = base.count
  for (let at = 0; at < delta.count; at++) {
    const inBase = findKey(base, keyAt(delta, at)) >= 0
    const present = delta.recordOffsets[at + 1] > delta.recordOffsets[at]
    if (present && !inBase) count++
    else if (!present && inBase) count--
  }
  return count
}
