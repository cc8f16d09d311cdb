/**
 * The vector index as served: the memory-mapped usearch HNSW index asked for candidates, which
 * are then re-scored exactly from the stored unit vectors (rescore.ts). Every reader (prior-art
 * dense channel, patent-map neighbours, atlas) opens it with `viewIndex` and gets exact cosine
 * distances, whichever quantization the embed stage chose:
 *   b1   one bit per rotated coordinate (binary-codes.ts), Hamming HNSW, over-fetched;
 *   i8, f16, f32   the vector itself (versions built before b1 are f16 or i8).
 * index.json beside the index file records the quantization, connectivity and the codes' rotation.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { type BinaryCodes, binaryCoder } from "./binary-codes.ts"
import { readLabels, type RowsOfLabels, rowsOfLabels } from "./labels.ts"
import { candidatesFor, cosinesOf, fileVectors, residentVectors, type StoredVectors, symmetricCosines } from "./rescore.ts"
import { HNSW_CONNECTIVITY, type Matches, type Quantization, type RawIndex, viewRawIndex } from "./usearch.ts"
import { VECTOR_FILE } from "./vector-file.ts"

export * from "./usearch.ts"

/** What index/index.json says about the index (fields beyond these are the embed stage's measurements). */
export interface IndexInfo {
  readonly dims: number
  readonly count?: number
  readonly quantization: Quantization
  /** Absent in versions built before it was recorded: they used HNSW_CONNECTIVITY. */
  readonly connectivity?: number
  /** The rotation behind b1 codes. */
  readonly codes?: BinaryCodes
}

/** Several queries' answers, shaped like usearch's BatchMatches. */
export interface BatchMatches {
  readonly keys: BigUint64Array
  readonly distances: Float32Array
  readonly counts: BigUint64Array
  readonly k: number
  get(i: number): Matches
}

export class ServedIndex {
  private readonly rotate?: (rows: Float32Array) => Float32Array
  private readonly codeWidth: number

  constructor(
    private readonly raw: RawIndex,
    readonly info: IndexInfo,
    /** Undefined only for versions built before vectors.f32: the raw candidates are then answered as they are. */
    private readonly stored: StoredVectors | undefined,
    /** The rows of the graph's labels when they are not the rows themselves (an extended graph: labels.ts). */
    private readonly labels?: RowsOfLabels
  ) {
    const coder = info.codes ? binaryCoder(info.codes) : undefined
    this.rotate = coder?.rotate
    this.codeWidth = coder?.bits ?? info.dims
  }

  size() {
    return this.raw.size()
  }

  get quantization() {
    return this.info.quantization
  }

  /** The same index re-scored from vectors already in memory (no file reads). */
  withResidentVectors(matrix: Float32Array) {
    return new ServedIndex(this.raw, this.info, residentVectors(matrix, this.info.dims), this.labels)
  }

  /** The graph's candidates as labels come back from it, keyed by row. */
  private rowsOf(found: Matches): Matches {
    if (!this.labels) return found
    const keep = Array.from(found.keys, (label) => this.labels!.rowOf(Number(label)))
    const live = keep.flatMap((row, i) => (row >= 0 ? [i] : []))
    return { keys: BigUint64Array.from(live, (i) => BigInt(keep[i]!)), distances: Float32Array.from(live, (i) => found.distances[i]!) }
  }

  /** The graph's candidates for a (coded) query, keyed by row. */
  private candidates(coded: Float32Array, count: number, threads: number): Matches {
    return this.rowsOf(this.raw.search(coded, count, threads))
  }

  /**
   * The graph's candidates for several (coded) queries in one call, which usearch spreads over
   * `threads` (0: all cores); each query's candidates are those a search of it alone finds.
   */
  private candidatesOfMany(coded: Float32Array, n: number, count: number, threads: number): Matches[] {
    const found = this.raw.search(coded, count, threads) as unknown as Matches & { counts: BigUint64Array }
    return Array.from({ length: n }, (_, q) => {
      const filled = Number(found.counts[q])
      return this.rowsOf({ keys: found.keys.slice(q * count, q * count + filled), distances: found.distances.slice(q * count, q * count + filled) })
    })
  }

  /** The k nearest keys to one query by exact cosine (distance = 1 − cosine), best first. */
  private one(query: Float32Array, k: number, threads: number): Matches {
    const size = this.size()
    if (!size) return { keys: new BigUint64Array(0), distances: new Float32Array(0) }
    const coded = this.rotate ? this.rotate(query) : query.slice()
    return this.ranked(query, this.candidates(coded, candidatesFor(this.info.quantization, k, size), threads), k)
  }

  /** Candidates to the k best, by exact cosine from the stored rows where there are any. */
  private ranked(query: Float32Array, found: Matches, k: number): Matches {
    if (!this.stored) return this.rotate ? this.hammingAsCosine(found, k) : { keys: found.keys.slice(0, k), distances: found.distances.slice(0, k) }
    const { top, cosines } = this.rescored(query, found, k)
    return { keys: BigUint64Array.from(top, (i) => found.keys[i]), distances: Float32Array.from(top, (i) => 1 - cosines[i]) }
  }

  /** Candidates in exact order (ties keep the smaller key, so answers are deterministic), with what the stored rows gave. */
  private rescored(query: Float32Array, found: Matches, k: number) {
    const keys = Array.from(found.keys, Number)
    const products = this.stored!.products(query, keys)
    const cosines = cosinesOf(query, products)
    const order = keys.map((_, i) => i).filter((i) => !Number.isNaN(cosines[i]))
    order.sort((a, b) => cosines[b] - cosines[a] || keys[a] - keys[b])
    return { keys, products, cosines, top: order.slice(0, k) }
  }

  /**
   * The k nearest keys as `search` finds them, each with its symmetric cosine in double precision
   * (symmetricCosines: the score a caller would compute from the stored row itself), so callers
   * need not read the rows again. Undefined for versions without stored vectors.
   */
  nearestScored(query: Float32Array, k: number): { readonly keys: ReadonlyArray<number>; readonly scores: ReadonlyArray<number> } | undefined {
    if (!this.stored) return undefined
    const size = this.size()
    if (!size) return { keys: [], scores: [] }
    const coded = this.rotate ? this.rotate(query) : query.slice()
    const found = this.candidates(coded, candidatesFor(this.info.quantization, k, size), 0)
    const { keys, products, top } = this.rescored(query, found, k)
    const symmetric = symmetricCosines(query, products)
    return { keys: top.map((i) => keys[i]), scores: top.map((i) => symmetric[i]) }
  }

  /** Without stored vectors a code's Hamming distance h still estimates the angle: cos(π·h/bits). */
  private hammingAsCosine(found: Matches, k: number): Matches {
    return { keys: found.keys.slice(0, k), distances: Float32Array.from(found.distances.slice(0, k), (h) => 1 - Math.cos((Math.PI * h) / this.codeWidth)) }
  }

  /** usearch's call shape: one query answers Matches, a row-major batch answers BatchMatches. */
  search(vectors: Float32Array, k: number, threads = 0): Matches | BatchMatches {
    const dims = this.info.dims
    if (vectors.length % dims !== 0) throw new Error(`query length ${vectors.length} is not a multiple of ${dims} dimensions`)
    const n = vectors.length / dims
    if (n === 1) return this.one(vectors, k, threads)
    const keys = new BigUint64Array(n * k)
    const distances = new Float32Array(n * k)
    const counts = new BigUint64Array(n)
    const size = this.size()
    const count = candidatesFor(this.info.quantization, k, size)
    const queries = Array.from({ length: n }, (_, q) => vectors.subarray(q * dims, (q + 1) * dims))
    const coded = this.rotate ? this.rotate(vectors) : vectors.slice()
    const found = size && n ? this.candidatesOfMany(coded, n, count, threads) : []
    for (let q = 0; q < n && size; q++) {
      const m = this.ranked(queries[q], found[q], k)
      keys.set(m.keys, q * k)
      distances.set(m.distances, q * k)
      counts[q] = BigInt(m.keys.length)
    }
    return {
      keys,
      distances,
      counts,
      k,
      get: (i: number) => ({ keys: keys.slice(i * k, i * k + Number(counts[i])), distances: distances.slice(i * k, i * k + Number(counts[i])) })
    }
  }
}

export const readIndexInfo = (indexDir: string): IndexInfo | undefined => {
  try {
    return JSON.parse(fs.readFileSync(path.join(indexDir, "index.json"), "utf8")) as IndexInfo
  } catch {
    return undefined
  }
}

/**
 * Memory-maps a saved index (milliseconds, no copy) for serving: candidates re-scored exactly
 * from vectors.f32 beside it. `dims` and `quantization` are what the caller read from index.json;
 * the rest (codes, connectivity) is read from there too.
 */
export const viewIndex = (file: string, dims: number, quantization: Quantization) => {
  const dir = path.dirname(file)
  const recorded = readIndexInfo(dir)
  const info: IndexInfo = { ...recorded, dims, quantization }
  if (quantization === "b1" && !info.codes) throw new Error(`${path.join(dir, "index.json")} records no binary codes for a b1 index`)
  const width = info.codes ? binaryCoder(info.codes).bits : dims
  const raw = viewRawIndex(file, width, quantization, info.connectivity ?? HNSW_CONNECTIVITY)
  // The rows of vectors.f32 (an extended graph's labels are not rows; versions without a count are not extended).
  const count = info.count ?? raw.size()
  const labels = readLabels(dir, count)
  return new ServedIndex(raw, info, fileVectors(path.join(dir, VECTOR_FILE), dims, count), labels && rowsOfLabels(labels))
}
