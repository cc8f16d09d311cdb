/**
 * index/vectors.f32: every application's unit vector, row-major little-endian float32 in key
 * order, no header (index.json gives dims and count). The embed stage writes it beside
 * vectors.parquet because a service opening a million vectors from Parquet spends a minute
 * turning lists into JS arrays, while this file is read in one call (about a second per GB) and
 * a single row is one positioned read.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"

export const VECTOR_FILE = "vectors.f32"

export const vectorFilePath = (versionDir: string) => path.join(versionDir, "index", VECTOR_FILE)

/** Scales each row to unit length in place (all-zero rows stay zero). */
export const normalizeRows = (matrix: Float32Array, dims: number) => {
  for (let base = 0; base < matrix.length; base += dims) {
    let norm = 0
    for (let j = 0; j < dims; j++) norm += matrix[base + j] * matrix[base + j]
    norm = Math.sqrt(norm)
    if (norm > 0) for (let j = 0; j < dims; j++) matrix[base + j] /= norm
  }
  return matrix
}

export const writeVectorFile = async (file: string, unitRows: Float32Array) => {
  const handle = await fs.open(file, "w")
  try {
    // Written in slices: one Buffer over a gigabyte is more than a single write call takes.
    const bytes = new Uint8Array(unitRows.buffer, unitRows.byteOffset, unitRows.byteLength)
    for (let at = 0; at < bytes.length; at += 1 << 26) await handle.write(bytes, at, Math.min(1 << 26, bytes.length - at))
  } finally {
    await handle.close()
  }
}

/**
 * The whole matrix, or undefined when the file is missing (versions built before it existed) or
 * its size disagrees with dims × count (a partial copy must never be read as vectors).
 */
export const readVectorFile = async (file: string, dims: number, count: number): Promise<Float32Array | undefined> => {
  const stat = await fs.stat(file).catch(() => undefined)
  if (!stat || stat.size !== dims * count * 4) return undefined
  const out = new Float32Array(dims * count)
  const bytes = new Uint8Array(out.buffer)
  const handle = await fs.open(file, "r")
  try {
    for (let at = 0; at < bytes.length; ) {
      const { bytesRead } = await handle.read(bytes, at, Math.min(1 << 26, bytes.length - at), at)
      if (bytesRead === 0) return undefined
      at += bytesRead
    }
  } finally {
    await handle.close()
  }
  return out
}

/** Single rows by key, one positioned read each (the file stays open for the life of the reader). */
export class VectorRows {
  private constructor(
    private readonly handle: fs.FileHandle,
    readonly dims: number,
    readonly count: number
  ) {}

  /** Undefined when the file is missing or its size disagrees with dims × count. */
  static async open(file: string, dims: number, count: number): Promise<VectorRows | undefined> {
    const stat = await fs.stat(file).catch(() => undefined)
    if (!stat || stat.size !== dims * count * 4) return undefined
    return new VectorRows(await fs.open(file, "r"), dims, count)
  }

  /** Unit vectors of the keys that exist (keys outside 0…count−1 are left out). */
  async read(keys: ReadonlyArray<number>): Promise<Map<number, Float32Array>> {
    const rowBytes = this.dims * 4
    const wanted = [...new Set(keys)].filter((k) => Number.isInteger(k) && k >= 0 && k < this.count)
    const rows = await Promise.all(
      wanted.map(async (key) => {
        const row = new Float32Array(this.dims)
        await this.handle.read(new Uint8Array(row.buffer), 0, rowBytes, key * rowBytes)
        return [key, row] as const
      })
    )
    return new Map(rows)
  }

  close() {
    return this.handle.close()
  }
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
