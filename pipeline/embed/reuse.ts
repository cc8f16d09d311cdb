/**
 * Vectors an earlier version computed with the same encoder, reused for applications whose indexed
 * text is unchanged: under a pinned encoder (pipeline/encoder/pin.ts) a nightly build encodes only
 * new and changed applications. A reused unit vector is the very row the earlier build wrote, so
 * the result equals encoding everything again (test/pipeline/incremental-build.test.ts).
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { createHash } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { sha256OfFile } from "../../core/artifacts/files.ts"
import { vectorFilePath } from "../../core/index/vector-file.ts"
import { filesUnder } from "../encoder/pin.ts"
import { encoderFolder } from "../encoder/save.ts"
import { sqlString } from "../stages/tables.ts"

/** 64 bits of the text's SHA-256: what decides whether a stored vector still applies. */
export const textHash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16)

export interface EarlierVectors {
  readonly parquet: string
  /** Application → its key and text hash there. */
  readonly byApp: ReadonlyMap<string, { readonly key: number; readonly hash: string }>
  readonly rows: SequentialRows
}

/** Same files, same bytes: the encoder that made `versionDir`'s vectors is the one in `workDir`. */
export const sameEncoder = async (versionDir: string, workDir: string) => {
  const mine = await filesUnder(path.join(workDir, encoderFolder)).catch(() => [])
  const theirs = await filesUnder(path.join(versionDir, encoderFolder)).catch(() => [])
  if (mine.length === 0 || mine.join("\n") !== theirs.join("\n")) return false
  for (const f of mine) {
    const [a, b] = [path.join(workDir, encoderFolder, f), path.join(versionDir, encoderFolder, f)]
    const [sa, sb] = await Promise.all([fs.stat(a), fs.stat(b)])
    if (sa.ino === sb.ino && sa.dev === sb.dev) continue // the pinned model, hard-linked
    if (sa.size !== sb.size || (await sha256OfFile(a)) !== (await sha256OfFile(b))) return false
  }
  return true
}

/** The earlier version's vectors when they were made by this build's encoder and say which text they encode; undefined otherwise. */
export const earlierVectors = async (conn: DuckDBConnection, versionDir: string | undefined, workDir: string, dims: number): Promise<EarlierVectors | undefined> => {
  if (!versionDir) return undefined
  const parquet = path.join(versionDir, "index", "vectors.parquet")
  const info = await fs
    .readFile(path.join(versionDir, "index", "index.json"), "utf8")
    .then((t) => JSON.parse(t) as { dims: number; count: number })
    .catch(() => undefined)
  if (!info || info.dims !== dims || !(await sameEncoder(versionDir, workDir))) return undefined
  const columns = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlString(parquet)})`).catch(() => undefined))?.getRowsJS() as
    | [string][]
    | undefined
  if (!columns?.some(([name]) => name === "text_hash")) return undefined
  const rows = await SequentialRows.open(vectorFilePath(versionDir), dims, info.count)
  if (!rows) return undefined
  const byApp = new Map<string, { key: number; hash: string }>()
  const result = await conn.stream(`SELECT key, app_num, text_hash FROM read_parquet(${sqlString(parquet)})`)
  for await (const chunk of result.yieldRowsJs()) for (const [key, app, hash] of chunk as [number, string, string][]) byApp.set(app, { key, hash })
  return { parquet, byApp, rows }
}

/**
 * Rows of a vectors.f32 file read in increasing key order through a window: a build walks the
 * applications in the order the earlier build wrote them, so every byte is read once, and memory
 * stays one window however large the earlier version.
 */
export class SequentialRows {
  private window = new Float32Array(0)
  private first = 0
  private constructor(
    private readonly handle: fs.FileHandle,
    private readonly dims: number,
    private readonly count: number,
    private readonly windowRows: number
  ) {}

  static async open(file: string, dims: number, count: number): Promise<SequentialRows | undefined> {
    const stat = await fs.stat(file).catch(() => undefined)
    if (!stat || stat.size !== dims * count * 4) return undefined
    return new SequentialRows(await fs.open(file, "r"), dims, count, Math.max(1, Math.floor((16 << 20) / (dims * 4))))
  }

  /** The unit vector of `key` (a view valid until the next call). */
  async row(key: number): Promise<Float32Array> {
    const rows = this.window.length / this.dims
    if (key < this.first || key >= this.first + rows) {
      const n = Math.min(this.windowRows, this.count - key)
      const window = new Float32Array(n * this.dims)
      const bytes = new Uint8Array(window.buffer)
      for (let at = 0; at < bytes.length; ) {
        const { bytesRead } = await this.handle.read(bytes, at, bytes.length - at, key * this.dims * 4 + at)
        if (bytesRead === 0) throw new Error(`vectors.f32 ended before key ${key}`)
        at += bytesRead
      }
      this.window = window
      this.first = key
    }
    return this.window.subarray((key - this.first) * this.dims, (key - this.first + 1) * this.dims)
  }

  close() {
    return this.handle.close()
  }
}
