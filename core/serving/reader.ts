/**
 * Opening a record file (records.ts) for reads by key: the index is read into memory once, each
 * record is one positioned read of its bytes and a JSON.parse. A keyed file's delta, when the
 * version has one, is opened with it and answers first.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { countWithDelta, decodeIndex, deltaFileNames, findKey, RecordFileKind, type RecordFileLayout, recordFileNames } from "./records.ts"

/** One record file's index in memory and its data file open. */
interface Part {
  readonly layout: RecordFileLayout
  readonly handle: fs.FileHandle
}

const openPart = async (versionDir: string, files: { readonly data: string; readonly index: string }): Promise<Part | undefined> => {
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
  return { layout, handle }
}

export class RecordFile<R = unknown> {
  private constructor(
    readonly name: string,
    private readonly base: Part,
    /** Keyed files: the records changed since the base was written (records.ts), which answer first. */
    private readonly delta: Part | undefined,
    /** Keys held, the delta's additions and removals counted. */
    readonly count: number
  ) {}

  /** Undefined when the version has no such file (built before the serving stage). */
  static async open<R>(versionDir: string, name: string): Promise<RecordFile<R> | undefined> {
    const base = await openPart(versionDir, recordFileNames(name))
    if (!base) return undefined
    const delta = base.layout.kind === RecordFileKind.Keyed ? await openPart(versionDir, deltaFileNames(name)).catch(async (e) => {
      await base.handle.close()
      throw e
    }) : undefined
    return new RecordFile<R>(name, base, delta, delta ? countWithDelta(base.layout, delta.layout) : base.layout.count)
  }

  /** Bytes the index holds in memory. */
  get indexBytes() {
    const of = (l: RecordFileLayout) => l.recordOffsets.byteLength + (l.keyOffsets?.byteLength ?? 0) + (l.keyBytes?.length ?? 0)
    return of(this.base.layout) + (this.delta ? of(this.delta.layout) : 0)
  }

  /** Where the record of `key` lies: the delta's position when the delta holds the key, else the base's; undefined when neither does. */
  private locate(key: string | number): { readonly part: Part; readonly at: number } | undefined {
    const { layout } = this.base
    if (layout.kind === RecordFileKind.Ordinal) {
      return typeof key === "number" && Number.isInteger(key) && key >= 0 && key < layout.count ? { part: this.base, at: key } : undefined
    }
    const bytes = Buffer.from(String(key), "utf8")
    if (this.delta) {
      const at = findKey(this.delta.layout, bytes)
      if (at >= 0) return { part: this.delta, at }
    }
    const at = findKey(layout, bytes)
    return at >= 0 ? { part: this.base, at } : undefined
  }

  has(key: string | number): boolean {
    const found = this.locate(key)
    return found !== undefined && found.part.layout.recordOffsets[found.at + 1] > found.part.layout.recordOffsets[found.at]
  }

  private async readAt({ part, at }: { readonly part: Part; readonly at: number }): Promise<R | undefined> {
    const start = part.layout.recordOffsets[at]
    const length = part.layout.recordOffsets[at + 1] - start
    if (length <= 0) return undefined
    const bytes = Buffer.allocUnsafe(length)
    const { bytesRead } = await part.handle.read(bytes, 0, length, start)
    if (bytesRead !== length) throw new Error(`${this.name}: short read at ${start}`)
    return JSON.parse(bytes.toString("utf8")) as R
  }

  /** The record of one key, or undefined. */
  async get(key: string | number): Promise<R | undefined> {
    const found = this.locate(key)
    return found === undefined ? undefined : this.readAt(found)
  }

  /** Records of several keys (each read once), by key; keys without a record are absent. */
  async getMany<K extends string | number>(keys: ReadonlyArray<K>): Promise<Map<K, R>> {
    const unique = [...new Set(keys)]
    const found = await Promise.all(unique.map(async (k) => [k, await this.get(k)] as const))
    return new Map(found.filter((e): e is readonly [K, Awaited<R>] => e[1] !== undefined) as Array<[K, R]>)
  }

  /** Positions that hold a record (ordinal files, which may have gaps). */
  present(): number {
    let n = 0
    const o = this.base.layout.recordOffsets
    for (let i = 0; i < this.base.layout.count; i++) if (o[i + 1] > o[i]) n++
    return n
  }

  /**
   * Records of positions [from, to) with one read: they lie side by side in the data file. For
   * scans of a bounded window (the map's point sample), not for lookups.
   */
  async range(from: number, to: number): Promise<Array<[number, R]>> {
    const { layout, handle } = this.base
    if (layout.kind !== RecordFileKind.Ordinal) throw new Error(`${this.name}: range() reads ordinal files only`)
    const lo = Math.max(0, Math.min(from, layout.count))
    const hi = Math.max(lo, Math.min(to, layout.count))
    const o = layout.recordOffsets
    const bytes = Buffer.allocUnsafe(o[hi] - o[lo])
    if (bytes.length) await handle.read(bytes, 0, bytes.length, o[lo])
    const out: Array<[number, R]> = []
    for (let i = lo; i < hi; i++) {
      if (o[i + 1] <= o[i]) continue
      out.push([i, JSON.parse(bytes.toString("utf8", o[i] - o[lo], o[i + 1] - o[lo])) as R])
    }
    return out
  }

  async close() {
    await this.base.handle.close()
    await this.delta?.handle.close()
  }
}
