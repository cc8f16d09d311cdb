/**
 * Chooses the index's quantization by measured end-to-end recall: HNSW candidates re-scored
 * exactly from the stored vectors, as every reader serves them (core/index/hnsw.ts). The most
 * compact form whose recall@10 against exact search reaches 0.95 on a sample wins: b1 codes
 * (about 210 bytes per application at 256 dims), then i8 (about 400), then f16 (about 660).
 */
import { exactSearch, type Quantization, type ServedIndex } from "../../core/index/hnsw.ts"
import type { Progress } from "../stages/progress.ts"
import { buildIndex } from "./build-index.ts"

const SAMPLE = 20_000
const QUERIES = 200
const K = 10
export const MIN_RECALL = 0.95
const ORDER = ["b1", "i8", "f16"] as const
const COMPACT = ["b1", "i8"] as const

export interface QuantizationChoice {
  readonly quantization: (typeof ORDER)[number]
  /** End-to-end recall@10 of each form measured (the search stops at the first that passes). */
  readonly recallAt10: Readonly<Partial<Record<(typeof ORDER)[number], number>>>
  readonly sampleSize: number
  readonly reason: string
}

/**
 * recall@k of a served index against exact cosine search over the same unit vectors, with
 * queries spread over the sample. Identical texts make the exact top k ambiguous, so a result
 * counts as a hit when it is in the exact top k or scores at least the exact k-th best.
 */
export const measureServedRecall = (index: ServedIndex, unitRows: Float32Array, dims: number, queries = QUERIES, k = K) => {
  const n = unitRows.length / dims
  if (n <= k) return 1
  const step = Math.max(1, Math.floor(n / queries))
  let hits = 0
  let total = 0
  for (let q = 0; q < n && total < queries * k; q += step) {
    const v = unitRows.slice(q * dims, (q + 1) * dims)
    const exact = exactSearch(unitRows, v, dims, k)
    const inExact = new Set(Array.from(exact.keys, Number))
    const kth = exact.distances[k - 1]
    const found = index.search(v, k, 1)
    for (let i = 0; i < found.keys.length; i++) if (inExact.has(Number(found.keys[i])) || found.distances[i] <= kth + 1e-6) hits++
    total += k
  }
  return total ? hits / total : 1
}

/** End-to-end recall@10 of `quantization` on these unit vectors (an index is built to measure it). */
export const measureRecall = (unitRows: Float32Array, dims: number, quantization: Quantization, queries = QUERIES, k = K) =>
  measureServedRecall(buildIndex(unitRows, dims, quantization).served, unitRows, dims, queries, k)

export const chooseQuantization = (unitRows: Float32Array, dims: number, progress?: Progress): QuantizationChoice => {
  const n = Math.min(SAMPLE, unitRows.length / dims)
  const sample = unitRows.subarray(0, n * dims)
  const recallAt10: Partial<Record<(typeof ORDER)[number], number>> = {}
  const measured = (quantization: (typeof ORDER)[number]) => {
    const recall = (recallAt10[quantization] = measureRecall(sample, dims, quantization))
    progress?.info(`recall@10 vs exact on ${n} vectors, ${quantization} re-scored: ${recall.toFixed(3)}`)
    return recall
  }
  const choice = (quantization: (typeof ORDER)[number], reason: string) => ({ quantization, recallAt10, sampleSize: n, reason })
  for (const compact of COMPACT) {
    const recall = measured(compact)
    if (recall >= MIN_RECALL) return choice(compact, `${compact} recall ${recall.toFixed(3)} ≥ ${MIN_RECALL} (most compact form that reaches it)`)
  }
  return choice("f16", `no compact form reached ${MIN_RECALL}: f16 (${measured("f16").toFixed(3)})`)
}
