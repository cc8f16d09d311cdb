/**
 * Writing a record file (core/serving/records.ts) from a stream of (key, record) pairs in key
 * order. Records are serialised with JSON.stringify from the values DuckDB hands to JavaScript,
 * so a record reads back exactly as the same SQL row read by the API did.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { encodeIndex, RecordFileKind, recordFileNames } from "../../core/serving/records.ts"

class Growable<T extends Float64Array | Uint32Array> {
  private data: T
  length = 0
  constructor(private readonly make: (n: number) => T) {
    this.data = make(1024)
  }
  push(v: number) {
    if (this.length === this.data.length) {
      const next = this.make(this.data.length * 2)
      next.set(this.data)
      this.data = next
    }
    this.data[this.length++] = v
  }
  view(): T {
    return this.data.subarray(0, this.length) as T
  }
}

/**
 * The keys' bytes, appended into one growing array. Not a list of Buffers: a short Buffer is a
 * view of one of Node's shared 8 KB pool slabs, which also hold the small records serialised
 * around it, so holding a million key Buffers held every record's bytes too (3.25 GB of claims
 * at a million applications, the 1M build's peak).
 */
class KeyBytes {
  private static readonly utf8 = new TextEncoder()
  private data = new Uint8Array(1 << 16)
  length = 0
  /** Appends a key's UTF-8 bytes; its offset is the length before. */
  append(key: string) {
    const most = key.length * 3
    if (this.length + most > this.data.length) {
      const next = new Uint8Array(Math.max(this.data.length * 2, this.length + most))
      next.set(this.data.subarray(0, this.length))
      this.data = next
    }
    this.length += KeyBytes.utf8.encodeInto(key, this.data.subarray(this.length)).written
  }
  /** Bytewise comparison of the spans [a, b) and [b, c). */
  compare(a: number, b: number, c: number) {
    return Buffer.compare(this.data.subarray(a, b), this.data.subarray(b, c))
  }
  text(from: number, to: number) {
    return Buffer.from(this.data.buffer, this.data.byteOffset + from, to - from).toString("utf8")
  }
  bytes(): Buffer {
    return Buffer.from(this.data.buffer, this.data.byteOffset, this.length)
  }
}

/** Records are gathered into writes of this size: a write per record costs more than small records themselves. */
const CHUNK_BYTES = 1 << 20

export interface RecordWriter {
  /** Keyed files: keys strictly increasing as UTF-8 bytes. Ordinal files: integer keys increasing. */
  readonly add: (key: string | number, record: unknown) => Promise<void>
  /** A record serialised as JSON text, under the same ordering rule. */
  readonly addJson: (key: string | number, json: string) => Promise<void>
  /** A record already serialised (taken over from an earlier version's file), under the same ordering rule. */
  readonly addBytes: (key: string | number, bytes: Uint8Array) => Promise<void>
  readonly finish: () => Promise<{ readonly records: number; readonly outputs: ReadonlyArray<string> }>
}

export const openRecordWriter = async (versionDir: string, name: string, kind: RecordFileKind): Promise<RecordWriter> => {
  const files = recordFileNames(name)
  await fs.mkdir(path.join(versionDir, path.dirname(files.data)), { recursive: true })
  const out = await fs.open(path.join(versionDir, files.data), "w")
  const offsets = new Growable((n) => new Float64Array(n))
  const keyOffsets = new Growable((n) => new Uint32Array(n))
  const keyBytes = new KeyBytes()
  let offset = 0
  /** Where the previous key's bytes start (−1 before the first). */
  let previous = -1
  let records = 0
  offsets.push(0)
  keyOffsets.push(0)
  // One chunk, filled and written again and again (each write awaited before it is refilled).
  // A Buffer per record, handed to a stream, left gigabytes of written records for the garbage
  // collector: V8 collects ArrayBuffers only in a full collection, which a small JS heap rarely
  // needs, and the 1M build's serving stage peaked with 3.25 GB of them.
  const chunk = Buffer.allocUnsafeSlow(CHUNK_BYTES)
  let filled = 0
  const writeAll = async (bytes: Uint8Array) => {
    for (let at = 0; at < bytes.length; ) at += (await out.write(bytes, at, bytes.length - at)).bytesWritten
  }
  const flush = async () => {
    if (filled === 0) return
    await writeAll(chunk.subarray(0, filled))
    filled = 0
  }

  /** Checks and records the key of the next record, before its bytes are written. */
  const nextKey = (key: string | number) => {
    if (kind === RecordFileKind.Ordinal) {
      const position = Number(key)
      if (!Number.isInteger(position) || position < offsets.length - 1) throw new Error(`${name}: ordinal key ${key} out of order`)
      // Positions without a record get an empty span.
      while (offsets.length - 1 < position) offsets.push(offset)
    } else {
      const start = keyBytes.length
      keyBytes.append(String(key))
      if (previous >= 0 && keyBytes.compare(previous, start, keyBytes.length) >= 0)
        throw new Error(`${name}: key ${JSON.stringify(String(key))} is not after ${JSON.stringify(keyBytes.text(previous, start))}`)
      previous = start
      if (keyBytes.length > 0xffffffff) throw new Error(`${name}: keys exceed 4 GiB`)
      keyOffsets.push(keyBytes.length)
    }
  }
  const recorded = (length: number) => {
    offset += length
    offsets.push(offset)
    records++
  }

  const addBytes = async (key: string | number, bytes: Uint8Array) => {
    nextKey(key)
    if (filled + bytes.length > CHUNK_BYTES) await flush()
    if (bytes.length > CHUNK_BYTES) await writeAll(bytes)
    else {
      chunk.set(bytes, filled)
      filled += bytes.length
    }
    recorded(bytes.length)
  }
  const addJson = async (key: string | number, json: string) => {
    nextKey(key)
    // At most 3 bytes per UTF-16 unit: a text that surely fits is encoded straight into the chunk.
    if (filled + json.length * 3 > CHUNK_BYTES) await flush()
    if (json.length * 3 > CHUNK_BYTES) {
      const bytes = Buffer.from(json, "utf8")
      await writeAll(bytes)
      recorded(bytes.length)
    } else {
      const written = chunk.write(json, filled, "utf8")
      filled += written
      recorded(written)
    }
  }
  const add = (key: string | number, record: unknown) => addJson(key, JSON.stringify(record))

  const finish = async () => {
    await flush()
    await out.close()
    const count = offsets.length - 1
    const index = encodeIndex({
      kind,
      count,
      recordOffsets: offsets.view(),
      ...(kind === RecordFileKind.Keyed ? { keyOffsets: keyOffsets.view(), keyBytes: keyBytes.bytes() } : {})
    })
    await fs.writeFile(path.join(versionDir, files.index), index)
    return { records, outputs: [files.data, files.index] }
  }
  return { add, addJson, addBytes, finish }
}
