/**
 * Caches on disk under STATE_DIR, one folder per artifact version, with a small in-memory LRU in
 * front:
 *
 *   STATE_DIR/prior-art-cache/<artifact version>/vectors/<sha256>.json   query text → vector
 *   STATE_DIR/prior-art-cache/<artifact version>/results/<sha256>.json   normalized request → answer
 *   STATE_DIR/ocr/<artifact version>/<application number>.json           a filing's OCR text
 *
 * The artifact version is a folder (and, for prior art, part of every key), so a new version
 * never serves an old answer and old versions' folders can simply be deleted. Entries are written
 * to a temp file and renamed, so a reader never sees half an entry; an unreadable entry is a miss.
 */
import { createHash, randomUUID } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { LRUCache } from "lru-cache"

export const cacheKey = (parts: unknown) => createHash("sha256").update(JSON.stringify(parts)).digest("hex")

export class DiskCache<V extends object> {
  private readonly memory: LRUCache<string, V>
  constructor(
    private readonly dir: string,
    memoryEntries: number
  ) {
    this.memory = new LRUCache({ max: memoryEntries })
  }

  async get(key: string): Promise<V | undefined> {
    const hit = this.memory.get(key)
    if (hit) return hit
    try {
      const value = JSON.parse(await fs.readFile(path.join(this.dir, `${key}.json`), "utf8")) as V
      this.memory.set(key, value)
      return value
    } catch {
      return undefined
    }
  }

  async set(key: string, value: V): Promise<void> {
    this.memory.set(key, value)
    await fs.mkdir(this.dir, { recursive: true })
    const tmp = path.join(this.dir, `.${key}.${randomUUID()}.tmp`)
    await fs.writeFile(tmp, JSON.stringify(value))
    await fs.rename(tmp, path.join(this.dir, `${key}.json`))
  }
}

/** The folder of one cache area for one artifact version. */
export const versionCacheDir = (stateDir: string, area: "prior-art-cache" | "ocr", version: string, ...sub: string[]) =>
  path.join(stateDir, area, version.replace(/[^A-Za-z0-9._-]/g, "_"), ...sub)
