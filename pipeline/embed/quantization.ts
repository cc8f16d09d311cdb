/**
 * Chooses the index's quantization by measured end-to-end recall: HNSW candidates re-scored
 * exactly from the stored vectors, as every reader serves them (core/index/hnsw.ts). The most
 * compact form whose recall@10 against exact search reaches 0.95 on a sample wins: b1 codes
 * (about 210 bytes per application at 256 dims), then i8 (about 400), then f16 (about 660).
 *
 * Cost: the choice builds candidate indexes on a sample of at most SAMPLE vectors, a fixed cost
 * whatever the corpus size; the index over everything is then built once, in the chosen form, and
 * its own recall measured (indexWithRecall). Ground truth for Q queries is one native exact-search
 * pass per slice of the rows (O(N·Q), seconds at a million vectors), not a copy of the matrix per query.
 */
import { exactSearchBatch, type Quantization, type ServedIndex } from "../../core/index/hnsw.ts"
import type { Progress } from "../stages/progress.ts"
import { buildIndex } from "./build-index.ts"

const SAMPLE = 20_000
const QUERIES = 200
/** The recall measured is recall@K. */
export const K = 10
export const MIN_RECALL = 0.95
const ORDER = ["b1", "i8", "f16"] as const
const COMPACT = ["b1", "i8"] as const
/** Rows per exact-search slice: a slice is copied for usearch (64 MiB at 256 dims). */
const EXACT_SLICE = 1 << 16

type Form = (typeof ORDER)[number]

export interface QuantizationChoice {
  readonly quantization: Form
  /** End-to-end recall@10 of each form measured (the search stops at the first that passes). */
  readonly recallAt10: Readonly<Partial<Record<Form, number>>>
  readonly sampleSize: number
  readonly reason: string
}

/** The query rows: every (n / queries)-th row, copied into one row-major block. */
const queryRows = (unitRows: Float32Array, dims: number, queries: number) => {
  const n = unitRows.length / dims
  const step = Math.max(1, Math.floor(n / queries))
  const picked: number[] = []
  for (let q = 0; q < n && picked.length < queries; q += step) picked.push(q)
  const block = new Float32Array(picked.length * dims)
  picked.forEach((q, i) => block.set(unitRows.subarray(q * dims, (q + 1) * dims), i * dims))
  return { count: picked.length, block }
}

/**
 * Exact cosine top k of each query over all rows, a slice of rows at a time (each slice's answer
 * merged into the running top k, ties to the smaller key): distances are what usearch's exact
 * search gives, keys are row numbers.
 */
export const exactTopK = (unitRows: Float32Array, dims: number, queries: Float32Array, k: number) => {
  const n = unitRows.length / dims
  const q = queries.length / dims
  const keys = new Float64Array(q * k).fill(-1)
  const distances = new Float64Array(q * k).fill(Infinity)
  for (let from = 0; from < n; from += EXACT_SLICE) {
    const to = Math.min(n, from + EXACT_SLICE)
    const part = exactSearchBatch(unitRows.slice(from * dims, to * dims), queries, dims, Math.min(k, to - from))
    const per = Math.min(k, to - from)
    for (let i = 0; i < q; i++) {
      for (let j = 0; j < part.counts[i]; j++) {
        const d = part.distances[i * per + j]
        const key = from + Number(part.keys[i * per + j])
        // Insert into query i's sorted top k.
        let at = k - 1
        if (d > distances[i * k + at] || (d === distances[i * k + at] && key > keys[i * k + at])) continue
        while (at > 0 && (distances[i * k + at - 1] > d || (distances[i * k + at - 1] === d && keys[i * k + at - 1] > key))) {
          distances[i * k + at] = distances[i * k + at - 1]
          keys[i * k + at] = keys[i * k + at - 1]
          at--
        }
        distances[i * k + at] = d
        keys[i * k + at] = key
      }
    }
  }
  return { keys, distances }
}

/**
 * Exact answers to a fixed set of query vectors: for each, the `depth` nearest keys by cosine
 * distance (ascending, ties to the smaller key), row-major. Keys are rows of the vectors they were
 * computed over, or graph labels once a night keeps them (recall-probe.ts).
 */
export interface ExactAnswers {
  readonly count: number
  readonly depth: number
  readonly queries: Float32Array
  readonly keys: Float64Array
  readonly distances: Float64Array
}

/** Exact top `depth` of every (n / queries)-th row over all rows. */
export const exactAnswers = (unitRows: Float32Array, dims: number, queries = QUERIES, depth = K): ExactAnswers => {
  const picked = queryRows(unitRows, dims, queries)
  const exact = exactTopK(unitRows, dims, picked.block, depth)
  return { count: picked.count, depth, queries: picked.block, ...exact }
}

/**
 * recall@k of a served index against exact answers. Identical texts make the exact top k
 * ambiguous, so a result counts as a hit when it is in the exact top k or scores at least the
 * exact k-th best. `keyOf` turns a row the index returns into the answers' key (identity: rows).
 */
export const recallAgainst = (index: ServedIndex, exact: ExactAnswers, dims: number, k = K, keyOf: (row: number) => number = (r) => r) => {
  let hits = 0
  let asked = 0
  for (let q = 0; q < exact.count; q++) {
    const at = q * exact.depth
    const known = exact.keys.subarray(at, at + k).filter((key) => key >= 0)
    if (known.length === 0) continue
    const inExact = new Set(Array.from(known))
    const kth = exact.distances[at + known.length - 1]
    const found = index.search(exact.queries.subarray(q * dims, (q + 1) * dims), known.length, 1)
    for (let i = 0; i < found.keys.length; i++) if (inExact.has(keyOf(Number(found.keys[i]))) || found.distances[i] <= kth + 1e-6) hits++
    asked += known.length
  }
  return asked ? hits / asked : 1
}

/** recall@k of a served index against exact cosine search over the same unit vectors, with queries spread over the rows. */
export const measureServedRecall = (index: ServedIndex, unitRows: Float32Array, dims: number, queries = QUERIES, k = K) => {
  const n = unitRows.length / dims
  if (n <= k) return 1
  return recallAgainst(index, exactAnswers(unitRows, dims, queries, k), dims, k)
}

/** End-to-end recall@10 of `quantization` on these unit vectors (an index is built to measure it). */
export const measureRecall = (unitRows: Float32Array, dims: number, quantization: Quantization, queries = QUERIES, k = K) =>
  measureServedRecall(buildIndex(unitRows, dims, quantization).served, unitRows, dims, queries, k)

/** The choice, and the chosen form's index over the sample (the index over everything when the sample is everything). */
const chooseOnSample = (unitRows: Float32Array, dims: number, progress?: Progress) => {
  const n = Math.min(SAMPLE, unitRows.length / dims)
  const sample = unitRows.subarray(0, n * dims)
  const recallAt10: Partial<Record<Form, number>> = {}
  const measured = (quantization: Form) => {
    const built = buildIndex(sample, dims, quantization)
    const recall = (recallAt10[quantization] = measureServedRecall(built.served, sample, dims))
    progress?.info(`recall@10 vs exact on ${n} vectors, ${quantization} re-scored: ${recall.toFixed(3)}`)
    return { recall, built }
  }
  const choice = (quantization: Form, reason: string): QuantizationChoice => ({ quantization, recallAt10, sampleSize: n, reason })
  for (const compact of COMPACT) {
    const { recall, built } = measured(compact)
    if (recall >= MIN_RECALL) return { choice: choice(compact, `${compact} recall ${recall.toFixed(3)} ≥ ${MIN_RECALL} (most compact form that reaches it)`), built }
  }
  const { recall, built } = measured("f16")
  return { choice: choice("f16", `no compact form reached ${MIN_RECALL}: f16 (${recall.toFixed(3)})`), built }
}

export const chooseQuantization = (unitRows: Float32Array, dims: number, progress?: Progress): QuantizationChoice =>
  chooseOnSample(unitRows, dims, progress).choice

/**
 * How deep the exact answers kept beside a graph go (index/recall-probe.json): past k, so that a
 * night whose removals reach into a query's top k still knows the next ones (recall-probe.ts).
 */
export const PROBE_DEPTH = 2 * K

export interface IndexWithRecall {
  readonly built: ReturnType<typeof buildIndex>
  readonly choice: QuantizationChoice
  /** End-to-end recall@10 of the index over every vector (the sample's figure when the sample is everything). */
  readonly indexRecallAt10: number
  /** The exact answers the recall over every vector was measured against, keyed by row (= the fresh graph's label). */
  readonly probe: ExactAnswers
}

/**
 * The index over all `unitRows`: quantization chosen on the sample, the index built once over
 * everything (the sample's own index when the sample is everything), and its recall measured.
 * Should the full index fall below MIN_RECALL where the sample did not, the next wider form is
 * built and measured in its place.
 */
export const indexWithRecall = (unitRows: Float32Array, dims: number, progress?: Progress): IndexWithRecall => {
  const n = unitRows.length / dims
  const sampled = chooseOnSample(unitRows, dims, progress)
  const { choice } = sampled
  // One exact pass over every row, kept for the nights that extend this graph.
  const probe = exactAnswers(unitRows, dims, QUERIES, PROBE_DEPTH)
  if (choice.sampleSize === n) return { built: sampled.built, choice, indexRecallAt10: choice.recallAt10[choice.quantization]!, probe }
  let form: Form = choice.quantization
  for (;;) {
    const built = buildIndex(unitRows, dims, form)
    const recall = recallAgainst(built.served, probe, dims)
    progress?.info(`recall@10 vs exact of the index over all ${n} vectors, ${form} re-scored: ${recall.toFixed(3)}`)
    const wider = ORDER[ORDER.indexOf(form) + 1]
    if (recall >= MIN_RECALL || !wider) {
      const kept = form === choice.quantization ? choice : { ...choice, quantization: form, reason: `${choice.reason}; over all ${n} vectors ${choice.quantization} fell below ${MIN_RECALL}: ${form} (${recall.toFixed(3)})` }
      return { built, choice: kept, indexRecallAt10: recall, probe }
    }
    form = wider
  }
}
