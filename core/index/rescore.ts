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
}

const norm = (v: Float32Array) => {
  let s = 0
  for (let j = 0; j < v.length; j++) s += v[j] * v[j]
  return Math.sqrt(s) || 1
}

/** Vectors already in memory (the prior-art service keeps them resident when they fit its budget). */
export const residentVectors = (matrix: Float32Array, dims: number): StoredVectors => ({
  dims,
  cosines: (query, keys) => {
    const out = new Float64Array(keys.length)
    const q = norm(query)
    const count = matrix.length / dims
    keys.forEach((key, i) => {
      if (!(key >= 0 && key < count)) return void (out[i] = NaN)
      let dot = 0
      const base = key * dims
      for (let j = 0; j < dims; j++) dot += matrix[base + j] * query[j]
      out[i] = dot / q
    })
    return out
  }
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
    cosines: (query, keys) => {
      const out = new Float64Array(keys.length).fill(NaN)
      const row = new Float32Array(dims)
      const bytes = new Uint8Array(row.buffer)
      const q = norm(query)
      const fd = fs.openSync(file, "r")
      try {
        keys.forEach((key, i) => {
          if (!(key >= 0 && key < count)) return
          if (fs.readSync(fd, bytes, 0, rowBytes, key * rowBytes) !== rowBytes) return
          let dot = 0
          for (let j = 0; j < dims; j++) dot += row[j] * query[j]
          out[i] = dot / q
        })
      } finally {
        fs.closeSync(fd)
      }
      return out
    }
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
