/**
 * The dense channel: cosine k-NN over the memory-mapped usearch index, whose candidates are
 * re-scored exactly from the stored unit vectors (core/index/hnsw.ts ServedIndex; from memory
 * here when the vectors are resident, else by positioned reads of vectors.f32), so scores are
 * exact cosines whatever the index's quantization. Single vectors (pseudo-relevance feedback, the
 * cosines reported) come from the same place, so an answer does not depend on residency; only a
 * filtered search's strategy does (an exact subset scan needs resident vectors).
 *
 * Filters must not starve the result list. Unfiltered, one HNSW search. Filtered, the search
 * widens (k × 4 each round) until enough admitted keys are found or k covers the index; when
 * the admitted subset is small enough to scan (and vectors are resident), it is searched exactly
 * instead, which is both faster and complete. `mode` reports which happened.
 */
import { ServedIndex } from "../index/hnsw.ts"
import type { Scored } from "./top-k.ts"
import { TopK } from "./top-k.ts"
import type { VectorRows } from "../index/vector-file.ts"

export interface VectorIndexLike {
  search(vector: Float32Array, k: number, threads: number): { keys: BigUint64Array; distances: Float32Array }
  size(): number
}

export interface DenseOptions {
  readonly depth: number
  readonly accepts?: (key: number) => boolean
  /** Whether a filter is active (exclusions of single keys do not count). */
  readonly filtered?: boolean
}

export interface DenseResult {
  readonly hits: Scored[]
  readonly mode: "hnsw" | "hnsw-widened" | "exact-subset"
  /** Largest k asked of the index. */
  readonly searched: number
  /** Size of the admitted subset when it was counted. */
  readonly admitted?: number
}

/** Filtered subsets up to this many vectors are scanned exactly. */
export const EXACT_SCAN_LIMIT = 50_000

export class DenseChannel {
  private readonly index: VectorIndexLike

  constructor(
    index: VectorIndexLike,
    private readonly dims: number,
    /** Keys below this have vectors in the index. */
    private readonly vectorCount: number,
    /** Row-major unit vectors by key, when resident (enables exact subset scans). */
    private readonly vectors?: Float32Array,
    /** vectors.f32 read by position when the vectors are not resident, so single vectors are still there. */
    private readonly rows?: VectorRows
  ) {
    this.index = vectors && index instanceof ServedIndex ? index.withResidentVectors(vectors) : index
  }

  /**
   * The unit vectors of `keys` that have one: from memory when resident, else read by position
   * (one read each, in parallel). Keys outside the index are left out.
   */
  async vectorsOf(keys: ReadonlyArray<number>): Promise<Map<number, Float32Array>> {
    const wanted = keys.filter((key) => Number.isInteger(key) && key >= 0 && key < this.vectorCount)
    if (this.vectors) return new Map(wanted.map((key) => [key, this.vectors!.subarray(key * this.dims, (key + 1) * this.dims)]))
    return this.rows ? this.rows.read(wanted) : new Map()
  }

  private hnsw(query: Float32Array, k: number, accepts: (key: number) => boolean, depth: number) {
    const { keys, distances } = this.index.search(query, Math.min(k, this.index.size()), 1)
    const hits: Scored[] = []
    for (let i = 0; i < keys.length && hits.length < depth; i++) {
      const key = Number(keys[i])
      if (accepts(key)) hits.push({ key, score: 1 - distances[i] })
    }
    return hits
  }

  private exact(query: Float32Array, subset: ReadonlyArray<number>, depth: number): Scored[] {
    const v = this.vectors!
    const d = this.dims
    const top = new TopK(depth)
    for (const key of subset) {
      let dot = 0
      const base = key * d
      for (let j = 0; j < d; j++) dot += v[base + j] * query[j]
      top.push(key, dot)
    }
    return top.sorted()
  }

  search(query: Float32Array, o: DenseOptions): DenseResult {
    const accepts = o.accepts ?? (() => true)
    const size = this.index.size()
    if (!o.filtered) {
      // Exclusions are few: over-fetch a little.
      const k = o.depth + 16
      return { hits: this.hnsw(query, k, accepts, o.depth), mode: "hnsw", searched: k }
    }
    let k = Math.max(o.depth * 4, 200)
    let hits = this.hnsw(query, k, accepts, o.depth)
    if (hits.length >= o.depth || k >= size) return { hits, mode: "hnsw", searched: Math.min(k, size) }
    const subset: number[] = []
    for (let key = 0; key < this.vectorCount; key++) if (accepts(key)) subset.push(key)
    if (this.vectors && subset.length <= EXACT_SCAN_LIMIT) {
      return { hits: this.exact(query, subset, o.depth), mode: "exact-subset", searched: k, admitted: subset.length }
    }
    while (hits.length < Math.min(o.depth, subset.length) && k < size) {
      k = Math.min(k * 4, size)
      hits = this.hnsw(query, k, accepts, o.depth)
    }
    return { hits, mode: "hnsw-widened", searched: k, admitted: subset.length }
  }
}
