/**
 * Exact re-scoring of HNSW candidates from the stored unit vectors (index/vectors.f32), the one
 * place both the prior-art dense channel and the patent map's neighbours get their cosines from.
 * A compact index (b1 codes) only ranks candidates roughly, so it is asked for more than k and
 * the stored vectors decide the final order and scores.
 */
import * as fs from "node:fs"
import type { Quantization } from "./usearch.ts"

/** The stored unit vectors a search re-scores against. */
export interface StoredVectors {
  readonly dims: number
  /** Cosine of `query` (any length) with each key's unit vector; NaN for a key not stored. */
  cosines(query: Float32Array, keys: ReadonlyArray<number>): Float64Array
  /** Per key, the dot product with `query` and the stored row's squared norm (NaN for a key not stored). */
  products(query: Float32Array, keys: ReadonlyArray<number>): RowProducts
}

export interface RowProducts {
  readonly dots: Float64Array
  readonly norms2: Float64Array
}

/** Σ v², summed in index order (the order every cosine here uses, so the same inputs give the same bits). */
const squaredNorm = (v: ArrayLike<number>) => {
  let s = 0
  for (let j = 0; j < v.length; j++) s += v[j] * v[j]
  return s
}

/** dot / |query|: the rows are stored as unit vectors. */
export const cosinesOf = (query: Float32Array, { dots }: RowProducts) => {
  const q = Math.sqrt(squaredNorm(query)) || 1
  return dots.map((dot) => dot / q)
}

/**
 * The symmetric cosine dot / √(|query|²·|row|²), which does not rely on the stored rows being of
 * unit length (f32 rounding leaves them within ~1e-7 of it): the score the patent map reports,
 * bit for bit what a dot/norm loop over the query and the row gives. 0 for a zero vector.
 */
export const symmetricCosines = (query: Float32Array, { dots, norms2 }: RowProducts) => {
  const na = squaredNorm(query)
  return dots.map((dot, i) => (na && norms2[i] ? dot / Math.sqrt(na * norms2[i]) : Number.isNaN(norms2[i]) ? NaN : 0))
}

const withCosines = (products: StoredVectors["products"]): Pick<StoredVectors, "cosines" | "products"> => ({
  products,
  cosines: (query, keys) => cosinesOf(query, products(query, keys))
})

/** Vectors already in memory (the prior-art service keeps them resident when they fit its budget). */
export const residentVectors = (matrix: Float32Array, dims: number): StoredVectors => ({
  dims,
  ...withCosines((query, keys) => {
    const dots = new Float64Array(keys.length).fill(NaN)
    const norms2 = new Float64Array(keys.length).fill(NaN)
    const count = matrix.length / dims
    keys.forEach((key, i) => {
      if (!(key >= 0 && key < count)) return
      let dot = 0, nb = 0
      const base = key * dims
      for (let j = 0; j < dims; j++) {
        dot += matrix[base + j] * query[j]
        nb += matrix[base + j] * matrix[base + j]
      }
      dots[i] = dot
      norms2[i] = nb
    })
    return { dots, norms2 }
  })
})

/**
 * Positioned reads of vectors.f32, one row per candidate. The file is opened per search rather
 * than held: a served version can be swapped while the process lives, and an open+close costs
 * microseconds against the candidates' reads. Undefined when the file is missing or its size
 * disagrees with dims × count (versions built before it; a partial copy).
 */
export const fileVectors = (file: string, dims: number, count: number): StoredVectors | undefined => {
  const size = (() => {
    try {
      return fs.statSync(file).size
    } catch {
      return -1
    }
  })()
  if (size !== dims * count * 4) return undefined
  const rowBytes = dims * 4
  return {
    dims,
    ...withCosines((query, keys) => {
      const dots = new Float64Array(keys.length).fill(NaN)
      const norms2 = new Float64Array(keys.length).fill(NaN)
      const row = new Float32Array(dims)
      const bytes = new Uint8Array(row.buffer)
      const fd = fs.openSync(file, "r")
      try {
        keys.forEach((key, i) => {
          if (!(key >= 0 && key < count)) return
          if (fs.readSync(fd, bytes, 0, rowBytes, key * rowBytes) !== rowBytes) return
          let dot = 0, nb = 0
          for (let j = 0; j < dims; j++) {
            dot += row[j] * query[j]
            nb += row[j] * row[j]
          }
          dots[i] = dot
          norms2[i] = nb
        })
      } finally {
        fs.closeSync(fd)
      }
      return { dots, norms2 }
    })
  }
}

/**
 * How many HNSW candidates a search for k re-scores. b1 codes rank coarsely (a Hamming distance
 * has only `bits` values), so they are over-fetched. bench/vectors.ts at 1M synthetic clustered
 * vectors: recall@10 0.82 from 128 candidates, 0.96-0.975 from 256 (two builds); the prior-art pool (k = 116,
 * 464 candidates) finds 0.995 of the exact top 100. On the sample's real vectors 40 candidates
 * already give 0.99. The float indexes rank well by themselves: their candidates are the k asked,
 * re-scored only to make the scores exact.
 */
export const OVERFETCH: Record<Quantization, { readonly factor: number; readonly min: number }> = {
  b1: { factor: 4, min: 256 },
  i8: { factor: 2, min: 0 },
  f16: { factor: 1, min: 0 },
  f32: { factor: 1, min: 0 }
}

export const candidatesFor = (quantization: Quantization, k: number, size: number) =>
  Math.min(size, Math.max(k * OVERFETCH[quantization].factor, OVERFETCH[quantization].min, k))
