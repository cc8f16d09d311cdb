/**
 * Opening a record file (records.ts) for reads by key: the index is read into memory once, each
 * record is one positioned read of its bytes and a JSON.parse.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { decodeIndex, findKey, RecordFileKind, type RecordFileLayout, recordFileNames } from "./records.ts"

export class RecordFile<R = unknown> {
  private constructor(
    readonly name: string,
    private readonly layout: RecordFileLayout,
    private readonly handle: fs.FileHandle
  ) {}

  /** Undefined when the version has no such file (built before the serving stage). */
  static async open<R>(versionDir: string, name: string): Promise<RecordFile<R> | undefined> {
    const files = recordFileNames(name)
    const indexBytes = await fs.readFile(path.join(versionDir, files.index)).catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return undefined
      throw e
    })
    if (!indexBytes) return undefined
    const layout = decodeIndex(indexBytes)
    const handle = await fs.open(path.join(versionDir, files.data), "r")
    const size = (await handle.stat()).size
    if (layout.recordOffsets[layout.count] !== size) {
      await handle.close()
      throw new Error(`${files.data} does not match its index (${size} bytes, index says ${layout.recordOffsets[layout.count]})`)
    }
    return new RecordFile<R>(name, layout, handle)
  }

  /** Number of keys (ordinal files: positions). */
  get count() {
    return this.layout.count
  }

  /** Bytes the index holds in memory. */
  get indexBytes() {
    return this.layout.recordOffsets.byteLength + (this.layout.keyOffsets?.byteLength ?? 0) + (this.layout.keyBytes?.length ?? 0)
  }

  private positionOf(key: string | number): number {
    if (this.layout.kind === RecordFileKind.Ordinal) {
      return typeof key === "number" && Number.isInteger(key) && key >= 0 && key < this.layout.count ? key : -1
    }
    return findKey(this.layout, Buffer.from(String(key), "utf8"))
  }

  has(key: string | number): boolean {
    const at = this.positionOf(key)
    return at >= 0 && this.layout.recordOffsets[at + 1] > this.layout.recordOffsets[at]
  }

  private async readAt(at: number): Promise<R | undefined> {
    const start = this.layout.recordOffsets[at]
    const length = this.layout.recordOffsets[at + 1] - start
    if (length <= 0) return undefined
    const bytes = Buffer.allocUnsafe(length)
    const { bytesRead } = await this.handle.read(bytes, 0, length, start)
    if (bytesRead !== length) throw new Error(`${this.name}: short read at ${start}`)
    return JSON.parse(bytes.toString("utf8")) as R
  }

  /** The record of one key, or undefined. */
  async get(key: string | number): Promise<R | undefined> {
    const at = this.positionOf(key)
    return at < 0 ? undefined : this.readAt(at)
  }

  /** Records of several keys (each read once), by key; keys without a record are absent. */
  async getMany<K extends string | number>(keys: ReadonlyArray<K>): Promise<Map<K, R>> {
    const unique = [...new Set(keys)]
    const found = await Promise.all(unique.map(async (k) => [k, await this.get(k)] as const))
    return new Map(found.filter((e): e is readonly [K, Awaited<R>] => e[1] !== undefined) as Array<[K, R]>)
  }

  /** Positions that hold a record (an ordinal file may have gaps). */
  present(): number {
    let n = 0
    const o = this.layout.recordOffsets
    for (let i = 0; i < this.layout.count; i++) if (o[i + 1] > o[i]) n++
    return n
  }

  /**
   * Records of positions [from, to) with one read: they lie side by side in the data file. For
   * scans of a bounded window (the map's point sample), not for lookups.
   */
  async range(from: number, to: number): Promise<Array<[number, R]>> {
    const lo = Math.max(0, Math.min(from, this.layout.count))
    const hi = Math.max(lo, Math.min(to, this.layout.count))
    const o = this.layout.recordOffsets
    const bytes = Buffer.allocUnsafe(o[hi] - o[lo])
    if (bytes.length) await this.handle.read(bytes, 0, bytes.length, o[lo])
    const out: Array<[number, R]> = []
    for (let i = lo; i < hi; i++) {
      if (o[i + 1] <= o[i]) continue
      out.push([i, JSON.parse(bytes.toString("utf8", o[i] - o[lo], o[i + 1] - o[lo])) as R])
    }
    return out
  }

  close() {
    return this.handle.close()
  }
}
