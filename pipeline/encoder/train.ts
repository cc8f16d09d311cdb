/**
 * Trains the default text encoder on the corpus: TF-IDF over a corpus vocabulary (stems and
 * frequent stem bigrams), reduced to a fixed width by truncated SVD (LSA).
 *
 * Two passes over the texts: the first counts document frequencies and fixes the vocabulary;
 * the second featurizes every text with the hub's own featurizer and stores the L2-normalised
 * TF-IDF rows as a sparse matrix. The randomized SVD then needs terms × (rank + oversampling)
 * dense memory plus that sparse matrix, whatever the number of documents.
 *
 * Fixed width: the rank is min(dimensions, documents, terms) (and lower when the matrix is
 * rank-deficient, e.g. duplicate abstracts), but every vector keeps `dimensions` entries, the
 * missing components being zero, so the vector index always has one width however small the
 * corpus. Cosine similarities are unaffected by the zero padding.
 */
import {
  defaultLsaEncoderSettings,
  type EncoderFeatures,
  featurizePatentText,
  type LsaEncoderSettings
} from "../../core/encoder/featurize.ts"
import { LsaVocabulary } from "../../core/encoder/vocabulary.ts"
import { type PatentTokenizerSettings, termsOf, tokenizePatentText } from "../../core/text/tokenize.ts"
import { type CsrMatrix, randomizedTruncatedSvd } from "./randomized-svd.ts"

/** Texts to train on. A function or an array can be read twice; a one-shot iterator cannot. */
export type PatentTexts =
  | ReadonlyArray<string>
  | (() => Iterable<string> | AsyncIterable<string>)

export interface LsaTrainingOptions {
  readonly dimensions: number
  /** Terms in fewer documents are dropped (typos, one-off part names). */
  readonly minDocumentFrequency: number
  /** Bigrams need at least this many documents (and at least minDocumentFrequency). */
  readonly minBigramDocumentFrequency: number
  /** Terms in more than this share of the documents carry no topic and are dropped. */
  readonly maxDocumentFrequencyRatio: number
  /** Unigrams plus bigrams kept, most frequent first. */
  readonly maxVocabulary: number
  /** At most this share of the vocabulary is bigrams. */
  readonly maxBigramShare: number
  readonly bigrams: boolean
  readonly tokenizer: PatentTokenizerSettings
  readonly oversampling: number
  readonly powerIterations: number
  readonly seed: number
  /**
   * Counting keeps at most this many distinct terms in memory: past it, the rarest are pruned
   * (counts of terms pruned early and seen again later are then underestimated).
   */
  readonly maxCountedTerms: number
  readonly onProgress?: (phase: "count" | "matrix" | "svd", documents: number) => void
}

export const defaultLsaTrainingOptions: LsaTrainingOptions = {
  dimensions: 256,
  minDocumentFrequency: 2,
  minBigramDocumentFrequency: 3,
  maxDocumentFrequencyRatio: 0.5,
  maxVocabulary: 50_000,
  maxBigramShare: 0.25,
  bigrams: true,
  tokenizer: defaultLsaEncoderSettings.tokenizer,
  oversampling: 10,
  // The LSA spectrum is flat in its tail: with 2 iterations the 256th singular value of the
  // 5,852 sample abstracts and titles came out 7% low (3: 4%, 8: exact), the leading ones exact; each iteration
  // costs one more pass over the sparse matrix, the dominant cost on a large corpus.
  powerIterations: 2,
  seed: 42,
  maxCountedTerms: 2_000_000
}

export interface TrainedLsaEncoder {
  readonly settings: LsaEncoderSettings
  readonly vocabulary: LsaVocabulary
  /** (vocabulary rows) × dimensions, row-major float32; row 0 (padding) is zero. */
  readonly termVectors: Float32Array
  readonly singularValues: Float64Array
  readonly stats: {
    readonly documents: number
    readonly emptyDocuments: number
    readonly unigrams: number
    readonly bigrams: number
    readonly nonZeros: number
    readonly countMs: number
    readonly matrixMs: number
    readonly svdMs: number
  }
}

const textsOf = (texts: PatentTexts): Iterable<string> | AsyncIterable<string> =>
  typeof texts === "function" ? texts() : texts

/**
 * Document frequencies with a memory cap: when full, the rarest terms so far are forgotten
 * (count 1 first, then 2 …) until half the cap is free. A term that becomes frequent only late
 * in the stream is undercounted; one frequent throughout always survives.
 */
class DocumentFrequencies {
  readonly counts = new Map<string, number>()
  constructor(private readonly cap: number) {}
  add(term: string) {
    this.counts.set(term, (this.counts.get(term) ?? 0) + 1)
  }
  pruneIfFull() {
    if (this.counts.size <= this.cap) return
    for (let floor = 1; this.counts.size > this.cap / 2; floor++) {
      for (const [term, n] of this.counts) if (n <= floor) this.counts.delete(term)
    }
  }
}

const chooseVocabulary = (df: ReadonlyMap<string, number>, documents: number, o: LsaTrainingOptions) => {
  const maxDf = Math.max(o.minDocumentFrequency, Math.floor(o.maxDocumentFrequencyRatio * documents))
  const minBigramDf = Math.max(o.minDocumentFrequency, o.minBigramDocumentFrequency)
  const candidates: Array<[string, number]> = []
  for (const [term, n] of df) {
    const bigram = term.includes(" ")
    if (n >= (bigram ? minBigramDf : o.minDocumentFrequency) && n <= maxDf) candidates.push([term, n])
  }
  candidates.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  const maxBigrams = Math.floor(o.maxVocabulary * o.maxBigramShare)
  const chosen: Array<[string, number]> = []
  let bigrams = 0
  for (const c of candidates) {
    if (chosen.length >= o.maxVocabulary) break
    if (c[0].includes(" ")) {
      if (bigrams >= maxBigrams) continue
      bigrams++
    }
    chosen.push(c)
  }
  return { terms: chosen.map((c) => c[0]), df: chosen.map((c) => c[1]), bigrams }
}

/** Growable sparse rows. */
class CsrBuilder {
  private rowPtr: number[] = [0]
  private colIdx = new Int32Array(1 << 16)
  private values = new Float32Array(1 << 16)
  private nnz = 0
  append(ids: Int32Array, weights: ArrayLike<number>) {
    let norm = 0
    for (let i = 0; i < weights.length; i++) norm += weights[i] * weights[i]
    norm = Math.sqrt(norm)
    if (this.nnz + ids.length > this.colIdx.length) {
      const size = Math.max(this.colIdx.length * 2, this.nnz + ids.length)
      const c = new Int32Array(size)
      c.set(this.colIdx.subarray(0, this.nnz))
      const v = new Float32Array(size)
      v.set(this.values.subarray(0, this.nnz))
      this.colIdx = c
      this.values = v
    }
    for (let i = 0; i < ids.length; i++) {
      // Column = term id − 1: the padding id has no column.
      this.colIdx[this.nnz] = ids[i] - 1
      this.values[this.nnz++] = weights[i] / norm
    }
    this.rowPtr.push(this.nnz)
  }
  get nonZeros() {
    return this.nnz
  }
  build(cols: number): CsrMatrix {
    return {
      rows: this.rowPtr.length - 1,
      cols,
      rowPtr: Float64Array.from(this.rowPtr),
      colIdx: this.colIdx.subarray(0, this.nnz),
      values: this.values.subarray(0, this.nnz)
    }
  }
}

export const trainLsaEncoder = async (
  texts: PatentTexts,
  options: Partial<LsaTrainingOptions> = {}
): Promise<TrainedLsaEncoder> => {
  const o = { ...defaultLsaTrainingOptions, ...options }
  const onProgress = o.onProgress ?? (() => {})

  let started = Date.now()
  const df = new DocumentFrequencies(o.maxCountedTerms)
  let documents = 0
  for await (const text of textsOf(texts)) {
    for (const term of new Set(termsOf(tokenizePatentText(text, o.tokenizer), o.bigrams))) df.add(term)
    df.pruneIfFull()
    if (++documents % 1000 === 0) onProgress("count", documents)
  }
  onProgress("count", documents)
  const chosen = chooseVocabulary(df.counts, documents, o)
  df.counts.clear()
  const vocabulary = new LsaVocabulary(chosen.terms, chosen.df, documents)
  const countMs = Date.now() - started

  started = Date.now()
  const featureSettings = { tokenizer: o.tokenizer, bigrams: o.bigrams }
  const rows = new CsrBuilder()
  let emptyDocuments = 0
  let seen = 0
  for await (const text of textsOf(texts)) {
    const f = featurizePatentText(text, featureSettings, vocabulary)
    if (f.ids.length === 0) emptyDocuments++
    rows.append(f.ids, f.weights)
    if (++seen % 1000 === 0) onProgress("matrix", seen)
  }
  if (seen !== documents) {
    throw new Error(`the texts changed between passes (${documents} then ${seen}): pass an array or a function`)
  }
  onProgress("matrix", seen)
  const matrix = rows.build(vocabulary.terms.length)
  const matrixMs = Date.now() - started

  started = Date.now()
  const svd = randomizedTruncatedSvd(matrix, o.dimensions, o)
  onProgress("svd", documents)
  const termVectors = new Float32Array(vocabulary.rows * o.dimensions)
  for (let t = 0; t < vocabulary.terms.length; t++) {
    for (let c = 0; c < svd.rank; c++) termVectors[(t + 1) * o.dimensions + c] = svd.rightVectors[t * svd.columns + c]
  }
  const svdMs = Date.now() - started

  return {
    settings: { ...defaultLsaEncoderSettings, ...featureSettings, dimensions: o.dimensions, rank: svd.rank },
    vocabulary,
    termVectors,
    singularValues: svd.singularValues,
    stats: {
      documents,
      emptyDocuments,
      unigrams: chosen.terms.length - chosen.bigrams,
      bigrams: chosen.bigrams,
      nonZeros: rows.nonZeros,
      countMs,
      matrixMs,
      svdMs
    }
  }
}

/**
 * The training side's own projection of featurized text: L2-normalised Σ weight · term vector,
 * accumulated in float64 over the float32 table (the ONNX graph must agree with it).
 */
export const projectFeatures = (model: TrainedLsaEncoder, features: EncoderFeatures): Float32Array => {
  const d = model.settings.dimensions
  const sum = new Float64Array(d)
  for (let i = 0; i < features.ids.length; i++) {
    const w = features.weights[i]
    const row = features.ids[i] * d
    for (let c = 0; c < d; c++) sum[c] += w * model.termVectors[row + c]
  }
  let norm = 0
  for (let c = 0; c < d; c++) norm += sum[c] * sum[c]
  norm = Math.max(Math.sqrt(norm), 1e-12)
  return Float32Array.from(sum, (v) => v / norm)
}

export const projectPatentText = (model: TrainedLsaEncoder, text: string): Float32Array =>
  projectFeatures(model, featurizePatentText(text, model.settings, model.vocabulary))
