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
 * An earlier version's vectors.f32 read in runs of rows straight into a build's matrix: a night
 * keeps almost every row, so the take-over is a few long reads rather than a read per row.
 */
export class VectorFileReader {
  private constructor(
    private readonly handle: fs.FileHandle,
    private readonly dims: number,
    private readonly count: number
  ) {}

  /** Undefined when the file is missing or its size disagrees with dims × count. */
  static async open(file: string, dims: number, count: number): Promise<VectorFileReader | undefined> {
    const stat = await fs.stat(file).catch(() => undefined)
    if (!stat || stat.size !== dims * count * 4) return undefined
    return new VectorFileReader(await fs.open(file, "r"), dims, count)
  }

  /** Rows `first` … `first + count − 1` read straight into `into` from row `at` on: the file's rows, not a copy. */
  async copyRows(first: number, count: number, into: Float32Array, at: number): Promise<void> {
    if (first < 0 || count < 0 || first + count > this.count) throw new RangeError(`rows ${first}…${first + count - 1} outside the file's ${this.count}`)
    const bytes = new Uint8Array(into.buffer, into.byteOffset + at * this.dims * 4, count * this.dims * 4)
    // In slices: one read call takes at most 2 GB.
    for (let done = 0; done < bytes.length; ) {
      const { bytesRead } = await this.handle.read(bytes, done, Math.min(bytes.length - done, 1 << 30), first * this.dims * 4 + done)
      if (bytesRead === 0) throw new Error(`vectors.f32 ended before row ${first + count - 1}`)
      done += bytesRead
    }
  }

  close() {
    return this.handle.close()
  }
}
