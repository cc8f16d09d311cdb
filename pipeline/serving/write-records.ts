/**
 * Writing a record file (core/serving/records.ts) from a stream of (key, record) pairs in key
 * order. Records are serialised with JSON.stringify from the values DuckDB hands to JavaScript,
 * so a record reads back exactly as the same SQL row read by the API did.
 */
import { createWriteStream } from "node:fs"
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

const FLUSH_BYTES = 1 << 20

const writeChunk = (out: NodeJS.WritableStream, buf: Buffer) =>
  new Promise<void>((resolve, reject) => {
    out.once("error", reject)
    if (out.write(buf)) {
      out.off("error", reject)
      resolve()
    } else
      out.once("drain", () => {
        out.off("error", reject)
        resolve()
      })
  })

export interface RecordWriter {
  /** Keyed files: keys strictly increasing as UTF-8 bytes. Ordinal files: integer keys increasing. */
  readonly add: (key: string | number, record: unknown) => Promise<void>
  /** A record already serialised (taken over from an earlier version's file), under the same ordering rule. */
  readonly addBytes: (key: string | number, bytes: Buffer) => Promise<void>
  readonly finish: () => Promise<{ readonly records: number; readonly outputs: ReadonlyArray<string> }>
}

export const openRecordWriter = async (versionDir: string, name: string, kind: RecordFileKind): Promise<RecordWriter> => {
  const files = recordFileNames(name)
  await fs.mkdir(path.join(versionDir, path.dirname(files.data)), { recursive: true })
  const out = createWriteStream(path.join(versionDir, files.data))
  const offsets = new Growable((n) => new Float64Array(n))
  const keyOffsets = new Growable((n) => new Uint32Array(n))
  const keyChunks: Buffer[] = []
  let keyLength = 0
  let offset = 0
  let previous: Buffer | undefined
  let records = 0
  offsets.push(0)
  keyOffsets.push(0)
  // Records are gathered into writes of about a megabyte: one stream write (and one wait for it)
  // per record cost more than the records themselves for small ones.
  let pending: Buffer[] = []
  let pendingBytes = 0
  const flush = async () => {
    if (pending.length === 0) return
    const chunk = pending.length === 1 ? pending[0] : Buffer.concat(pending, pendingBytes)
    pending = []
    pendingBytes = 0
    await writeChunk(out, chunk)
  }

  const addBytes = async (key: string | number, bytes: Buffer) => {
    if (kind === RecordFileKind.Ordinal) {
      const position = Number(key)
      if (!Number.isInteger(position) || position < offsets.length - 1) throw new Error(`${name}: ordinal key ${key} out of order`)
      // Positions without a record get an empty span.
      while (offsets.length - 1 < position) offsets.push(offset)
    } else {
      const k = Buffer.from(String(key), "utf8")
      if (previous && previous.compare(k) >= 0) throw new Error(`${name}: key ${JSON.stringify(String(key))} is not after ${JSON.stringify(previous.toString("utf8"))}`)
      previous = k
      keyChunks.push(k)
      keyLength += k.length
      if (keyLength > 0xffffffff) throw new Error(`${name}: keys exceed 4 GiB`)
      keyOffsets.push(keyLength)
    }
    pending.push(bytes)
    pendingBytes += bytes.length
    if (pendingBytes >= FLUSH_BYTES) await flush()
    offset += bytes.length
    offsets.push(offset)
    records++
  }
  const add = (key: string | number, record: unknown) => addBytes(key, Buffer.from(JSON.stringify(record), "utf8"))

  const finish = async () => {
    await flush()
    await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())))
    const count = offsets.length - 1
    const index = encodeIndex({
      kind,
      count,
      recordOffsets: offsets.view(),
      ...(kind === RecordFileKind.Keyed ? { keyOffsets: keyOffsets.view(), keyBytes: Buffer.concat(keyChunks, keyLength) } : {})
    })
    await fs.writeFile(path.join(versionDir, files.index), index)
    return { records, outputs: [files.data, files.index] }
  }
  return { add, addBytes, finish }
}
