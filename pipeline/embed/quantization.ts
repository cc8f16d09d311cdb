/**
 * Chooses the index's scalar quantization by measured recall: i8 (a quarter of f32's memory)
 * when its recall@10 against exact search is at least 0.97 on a sample, else f16.
 */
import { createIndex, exactSearch, type Quantization } from "../../core/index/hnsw.ts"
import type { Progress } from "../stages/progress.ts"

const SAMPLE = 20_000
const QUERIES = 200
const K = 10
const I8_MIN_RECALL = 0.97

export interface QuantizationChoice {
  readonly quantization: "i8" | "f16"
  readonly recallAt10: Readonly<Record<"i8" | "f16", number>>
  readonly sampleSize: number
  readonly reason: string
}

/** recall@k of an HNSW index with `quantization` against exact cosine search on the same vectors. */
export const measureRecall = (matrix: Float32Array, dims: number, quantization: Quantization, queries = QUERIES, k = K) => {
  const n = matrix.length / dims
  if (n <= k) return 1
  const index = createIndex(dims, quantization)
  index.add(BigUint64Array.from({ length: n }, (_, i) => BigInt(i)), matrix, 0)
  const step = Math.max(1, Math.floor(n / queries))
  let hits = 0
  let total = 0
  for (let q = 0; q < n && total < queries * k; q += step) {
    const v = matrix.subarray(q * dims, (q + 1) * dims)
    const approx = new Set(Array.from(index.search(v, k, 0).keys, Number))
    const exact = exactSearch(matrix, v, dims, k)
    for (const key of exact.keys) if (approx.has(Number(key))) hits++
    total += k
  }
  return total ? hits / total : 1
}

export const chooseQuantization = (matrix: Float32Array, dims: number, progress?: Progress): QuantizationChoice => {
  const n = Math.min(SAMPLE, matrix.length / dims)
  const sample = matrix.subarray(0, n * dims)
  const i8 = measureRecall(sample, dims, "i8")
  const f16 = measureRecall(sample, dims, "f16")
  progress?.info(`recall@10 vs exact on ${n} vectors: i8 ${i8.toFixed(3)}, f16 ${f16.toFixed(3)}`)
  const quantization = i8 >= I8_MIN_RECALL ? "i8" : "f16"
  return {
    quantization,
    recallAt10: { i8, f16 },
    sampleSize: n,
    reason: quantization === "i8" ? `i8 recall ${i8.toFixed(3)} ≥ ${I8_MIN_RECALL}` : `i8 recall ${i8.toFixed(3)} < ${I8_MIN_RECALL}, f16 kept`
  }
}
