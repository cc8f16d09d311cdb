/**
 * Stored documents: what a search result shows (title, abstract, first claim), readable by key
 * with one positioned read each, as a search engine keeps stored fields beside its index.
 *
 * Why not the Parquet tables: a result page names 50 applications scattered over the corpus,
 * and Parquet decompresses whole column chunks to reach them. Measured on 1,000,000
 * applications (default row groups), 50 titles and abstracts by app_num took about 500 ms;
 * with 2,048-row groups about 80 ms; from this file about a millisecond.
 *
 *   documents/stored.bin           UTF-8 JSON arrays [title, abstract, first_claim], concatenated
 *   documents/stored.delta.bin     (optional) documents added or changed since stored.bin was written
 *   documents/stored_docs.parquet  app_num, offset, length (bytes into stored.bin; an offset at or
 *                                  past stored.bin's size is into stored.delta.bin, less that size)
 *
 * A nightly build links stored.bin from the version it replaces and writes only the delta (every
 * change since the base was written), rather than copying a gigabyte of unchanged documents.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import type { Rows } from "./corpus.ts"

export const STORED_DIR = "documents"
export const STORED_FILE = "stored.bin"
export const STORED_TABLE = "stored_docs"
export const STORED_DELTA_FILE = "stored.delta.bin"

export interface StoredDocument {
  readonly title: string | null
  readonly abstract: string | null
  readonly firstClaim: string | null
}

export const encodeStoredDocument = (d: StoredDocument): Buffer => Buffer.from(JSON.stringify([d.title, d.abstract, d.firstClaim]), "utf8")

const decode = (bytes: Uint8Array): StoredDocument => {
  const [title, abstract, firstClaim] = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8")) as [string | null, string | null, string | null]
  return { title, abstract, firstClaim }
}

export class StoredDocuments {
  private constructor(
    private readonly handle: fs.FileHandle,
    /** stored.delta.bin, whose offsets start at `baseSize`. */
    private readonly delta: fs.FileHandle | undefined,
    private readonly baseSize: number,
    /** Byte offset by corpus key (−1: not stored). */
    private readonly offsets: Float64Array,
    private readonly lengths: Uint32Array
  ) {}

  /** Undefined for versions built before the documents stage (callers fall back to the tables). */
  static async open(versionDir: string, rows: Rows, keyOf: ReadonlyMap<string, number>, size: number): Promise<StoredDocuments | undefined> {
    const file = path.join(versionDir, STORED_DIR, STORED_FILE)
    const stat = await fs.stat(file).catch(() => undefined)
    if (!stat) return undefined
    const deltaFile = path.join(versionDir, STORED_DIR, STORED_DELTA_FILE)
    const deltaSize = (await fs.stat(deltaFile).catch(() => undefined))?.size
    const offsets = new Float64Array(size).fill(-1)
    const lengths = new Uint32Array(size)
    for (const r of await rows(`SELECT app_num, "offset", length FROM ${STORED_TABLE}`)) {
      const key = keyOf.get(String(r.app_num))
      const offset = Number(r.offset)
      const length = Number(r.length)
      // A row pointing outside the file is ignored rather than read as garbage.
      const inBase = offset + length <= stat.size
      const inDelta = deltaSize !== undefined && offset >= stat.size && offset + length <= stat.size + deltaSize
      if (key === undefined || offset < 0 || !(inBase || inDelta)) continue
      offsets[key] = offset
      lengths[key] = length
    }
    const handle = await fs.open(file, "r")
    const delta = deltaSize === undefined ? undefined : await fs.open(deltaFile, "r")
    return new StoredDocuments(handle, delta, stat.size, offsets, lengths)
  }

  /** The stored documents of the keys that have one. */
  async read(keys: ReadonlyArray<number>): Promise<Map<number, StoredDocument>> {
    const wanted = [...new Set(keys)].filter((k) => k >= 0 && k < this.offsets.length && this.offsets[k] >= 0)
    const docs = await Promise.all(
      wanted.map(async (key) => {
        const bytes = new Uint8Array(this.lengths[key])
        const offset = this.offsets[key]
        if (offset >= this.baseSize && this.delta) await this.delta.read(bytes, 0, bytes.length, offset - this.baseSize)
        else await this.handle.read(bytes, 0, bytes.length, offset)
        return [key, decode(bytes)] as const
      })
    )
    return new Map(docs)
  }

  /** Bytes stored for a key (0 when none): a short record is a title alone. */
  bytesOf(key: number): number {
    return key >= 0 && key < this.lengths.length ? this.lengths[key] : 0
  }

  async close() {
    await this.handle.close()
    await this.delta?.close()
  }
}
