/**
 * The usearch binding and the raw HNSW index settings. Everything else reaches usearch through
 * here: hnsw.ts serves indexes (with exact re-scoring), the embed stage builds them.
 */
import { createRequire } from "node:module"
import type * as Usearch from "usearch"

// usearch's ESM build locates its native binary by parsing a stack trace, which loops forever
// under tsx's loader; its CommonJS build uses __dirname and works everywhere.
const usearch = createRequire(import.meta.url)("usearch") as typeof Usearch
const { MetricKind, ScalarKind } = usearch
type ScalarKind = Usearch.ScalarKind

/**
 * How the index stores each vector. b1 keeps one sign bit per coordinate of a randomly rotated
 * vector (binary-codes.ts) and compares codes by Hamming distance; the others store the cosine
 * vector itself at that precision.
 */
export type Quantization = "b1" | "i8" | "f16" | "f32"

export type RawIndex = Usearch.Index

export interface Matches {
  readonly keys: BigUint64Array
  readonly distances: Float32Array
}

const scalar: Record<Quantization, ScalarKind> = {
  b1: ScalarKind.B1,
  i8: ScalarKind.I8,
  f16: ScalarKind.F16,
  f32: ScalarKind.F32
}

export const HNSW_CONNECTIVITY = 16
export const HNSW_EXPANSION_ADD = 128
export const HNSW_EXPANSION_SEARCH = 64

/** `dims` is what the index holds: the vector's dimensions, or a b1 code's bits. */
export const createIndex = (dims: number, quantization: Quantization, connectivity = HNSW_CONNECTIVITY) =>
  new usearch.Index({
    metric: quantization === "b1" ? MetricKind.Hamming : MetricKind.Cos,
    dimensions: dims,
    connectivity,
    quantization: scalar[quantization],
    expansion_add: HNSW_EXPANSION_ADD,
    expansion_search: HNSW_EXPANSION_SEARCH,
    multi: false
  })

/** Memory-maps a saved index (milliseconds, no copy). Its answers are the raw HNSW candidates. */
export const viewRawIndex = (file: string, dims: number, quantization: Quantization, connectivity = HNSW_CONNECTIVITY) => {
  const index = createIndex(dims, quantization, connectivity)
  index.view(file)
  return index
}

/** A copy when the array is a view into a larger buffer. */
const own = (a: Float32Array) => (a.byteOffset === 0 && a.byteLength === a.buffer.byteLength ? a : a.slice())

/**
 * Exact cosine k-NN over a row-major matrix (ground truth and small candidate sets).
 * usearch's exactSearch reads typed arrays from the start of their buffer, ignoring a
 * subarray's offset, so views are copied first.
 */
export const exactSearch = (matrix: Float32Array, query: Float32Array, dims: number, k: number) =>
  usearch.exactSearch(own(matrix), own(query), dims, k, MetricKind.Cos, 0) as Matches

/**
 * Exact cosine k-NN of many queries (row-major) in one call: `k` slots per query, of which
 * `counts[q]` are filled. usearch answers a single query in another shape; both come back alike.
 */
export const exactSearchBatch = (matrix: Float32Array, queries: Float32Array, dims: number, k: number) => {
  const r = usearch.exactSearch(own(matrix), own(queries), dims, k, MetricKind.Cos, 0) as Matches & { counts?: BigUint64Array }
  const counts = r.counts ? Array.from(r.counts, Number) : [r.keys.length]
  return { keys: r.keys, distances: r.distances, counts }
}
