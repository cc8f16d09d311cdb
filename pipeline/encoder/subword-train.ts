/**
 * Trains the default text encoder: fastText skip-gram with character n-grams (the library's
 * own trainer, its WebAssembly build from npm, in-process), over all the patent text the corpus
 * carries, one record per line. The trained input matrix becomes the ONNX graph's row table
 * (core/encoder/subword-onnx.ts); the dictionary's counts give the SIF word weights; the first
 * principal direction of the documents' pooled vectors is removed from every vector (SIF's
 * common component), so boilerplate wording does not make every two patents look alike; two-word
 * terms of art found in the training text ("heat exchanger") are joined into tokens of their own
 * before training (phrases.ts) and pooled beside their words; and a
 * linear map learned from the CPC scheme's subgroup/parent title pairs (cpc-alignment.ts) keeps
 * the directions along which related titles agree.
 *
 * Cost: skip-gram time grows with the words trained (≈ 30k words/s on one core here in
 * WebAssembly, 70k natively). Training reads at most `maxTrainingWords` words per epoch: when the
 * corpus holds more, each source is sampled at the rate that fits its weighted share (small
 * sources such as the applications' own titles and claims are kept whole; the long ones,
 * descriptions and guidance, are thinned).
 */
import { getFastTextModule } from "fasttext.wasm.js"
import type { SubwordEncoderSettings } from "../../core/encoder/subword-format.ts"
import { featurizeSubwordText, SubwordDictionary, trainingLine } from "../../core/encoder/subwords.ts"
import { applyAlignment, type AlignmentOptions, cpcAlignment, defaultAlignmentOptions, schemePairs, type SchemeEntry } from "./cpc-alignment.ts"
import { readFastTextModel } from "./fasttext-model.ts"
import { type NativeSkipgramArgs, trainNativeSkipgram } from "./native-fasttext.ts"
import { defaultPhraseOptions, detectPhrases, joinPhrases, type PhraseOptions } from "./phrases.ts"

export interface SubwordTrainingOptions {
  readonly dimensions: number
  readonly epochs: number
  readonly minCount: number
  readonly minn: number
  readonly maxn: number
  readonly bucket: number
  readonly windowSize: number
  readonly negatives: number
  readonly learningRate: number
  /** fastText's sampling threshold for frequent words. */
  readonly subsampling: number
  readonly seed: number
  /** Words read per epoch at most (the time bound). */
  readonly maxTrainingWords: number
  /** A source's share of the budget relative to the others' (default 1). */
  readonly sourceWeights: Readonly<Record<string, number>>
  /** Two-word terms joined into one token before training (phrases.ts), or false for words only. */
  readonly phrases: PhraseOptions | false
  /** SIF's a: the word weight is a / (a + p(word)). */
  readonly sifA: number
  /** Whether the common component is removed from pooled vectors. */
  readonly removeCommonComponent: boolean
  /** Documents whose pooled vectors give the common component (at most this many are read). */
  readonly commonComponentSample: number
  /** The map learned from the CPC hierarchy (cpc-alignment.ts), or false for none. */
  readonly cpcAlignment: AlignmentOptions | false
  /** Related (and as many unrelated) scheme pairs it is estimated from, at most. */
  readonly alignmentPairs: number
  /**
   * Which build of fastText trains: its WebAssembly build in-process (always there), or the
   * command-line trainer (Debian's `fasttext`, native-fasttext.ts). Both on one thread, so that one
   * corpus always trains one model (fastText's threads race on the shared matrix).
   */
  readonly trainer: "wasm" | "native"
  readonly onProgress?: (phase: "corpus" | "train" | "export", done: number, total: number) => void
}

export const defaultSubwordTrainingOptions: SubwordTrainingOptions = {
  dimensions: 100,
  epochs: 2,
  minCount: 3,
  minn: 3,
  maxn: 5,
  bucket: 100_000,
  windowSize: 5,
  negatives: 5,
  learningRate: 0.05,
  subsampling: 1e-4,
  seed: 42,
  maxTrainingWords: 1_500_000,
  // CPC titles name every field's things in few words, the closest text to a query phrase. Weight
  // 8 against 3: dense MRR on the retrieval bench's dev queries 0.137 against 0.112 (recall@100
  // 0.422 against 0.439), CPC similarity Pearson 0.499 against 0.473.
  sourceWeights: { "cpc titles": 8 },
  // Two-word terms as tokens of their own (phrases.ts), pooled beside their words: on the retrieval
  // bench's dev splits plain search recall@100 on the sample 0.521 → 0.564 (0.502 → 0.546 with
  // seed 43), synthetic 0.779 → 0.775; README, issue 18.
  phrases: defaultPhraseOptions,
  // Chosen with the ensemble weight on the retrieval bench's dev split (core/encoder/ensemble-encoder.ts):
  // plain search recall@100 / MRR at subword weight 0.4, a = 1e-5 0.496 / 0.196, 3e-5 0.506 / 0.198,
  // 1e-4 0.508 / 0.205, 3e-4 0.498 / 0.189, 1e-3 0.480 / 0.186 (rarer words weigh more as a falls).
  sifA: 1e-4,
  removeCommonComponent: true,
  commonComponentSample: 20_000,
  cpcAlignment: defaultAlignmentOptions,
  alignmentPairs: 100_000,
  trainer: "wasm"
}

/**
 * What each trainer reads. The WebAssembly build (about 30k words/s on its one thread) keeps to
 * the defaults: a budget of 1.5M words, read twice. The native trainer (about 70k words/s on one
 * thread) gets a budget of 8M words, read twice: nearly the whole of the sample's text (8.2M words:
 * every CPC title with its parent's, the descriptions, claims, MPEP and EPO Guidelines), and at a
 * million applications the same 8M words, descriptions and guidance thinned; about 3 minutes.
 * Chosen on the dev half of the similarity benchmark (bench/encoder-similarity.ts), subword part's
 * Pearson: 0.553 on the 2.7M words a miscounted budget left it before (samplingRates), 0.567 on
 * 8M × 2 epochs, 0.570 on 8M × 3 at twice the time.
 */
export const trainerOptions = (trainer: "wasm" | "native"): Partial<SubwordTrainingOptions> =>
  trainer === "native" ? { trainer, maxTrainingWords: 8_000_000, epochs: 2 } : { trainer }

/** Training text from one part of the corpus; `texts` is read twice (counting, then sampling). */
export interface TrainingSource {
  readonly name: string
  readonly texts: Iterable<string> | AsyncIterable<string>
}

export interface TrainedSubwordEncoder {
  readonly settings: SubwordEncoderSettings
  readonly dictionary: SubwordDictionary
  /** (nwords + bucket) × dimensions, row-major: the trainer's input matrix. */
  readonly inputMatrix: Float32Array
  /** Unit vector removed from every pooled vector (zeros: none). */
  readonly commonComponent: Float32Array
  /** D × D map applied to every word's vector less its common component (cpc-alignment.ts); absent: none. */
  readonly alignment?: Float32Array
  /** The trainer's own word vector (fastText getWordVector), for checking the export. */
  readonly trainerWordVector: (word: string) => Float32Array
  /** The trainer's own input-matrix rows of a word (fastText getSubwords). */
  readonly trainerWordRows: (word: string) => number[]
  readonly stats: {
    readonly sources: Readonly<Record<string, { readonly lines: number; readonly words: number; readonly kept: number }>>
    readonly trainingWords: number
    /** Two-word terms joined into one token before training (0: none). */
    readonly phrases: number
    readonly epochs: number
    readonly vocabulary: number
    /** Scheme pairs the alignment was estimated from (0: none). */
    readonly alignmentPairs: number
    readonly corpusMs: number
    readonly trainMs: number
    readonly exportMs: number
  }
}

const wordCount = (line: string) => (line ? line.split(" ").length : 0)

/** Deterministic keep/drop of a line at a rate (FNV-1a of the line against the rate). */
const keepLine = (line: string, rate: number) => {
  if (rate >= 1) return true
  let h = 2166136261
  for (let i = 0; i < line.length; i++) h = Math.imul(h ^ line.charCodeAt(i), 16777619) >>> 0
  return h / 4294967296 < rate
}

/** The rate each source is read at so the whole fits the budget. */
export const samplingRates = (words: ReadonlyArray<number>, weights: ReadonlyArray<number>, budget: number): number[] => {
  // Water-filling: every source gets its weighted share of what is left; those needing less keep all.
  const rates = words.map(() => 1)
  let left = budget
  let open = words.map((_, i) => i).filter((i) => words[i] > 0)
  while (open.length > 0) {
    const total = open.reduce((s, i) => s + weights[i], 0)
    const share = (i: number) => (left * weights[i]) / total
    const small = open.filter((i) => words[i] <= share(i))
    if (small.length === 0) {
      for (const i of open) rates[i] = Math.max(0, share(i) / words[i])
      break
    }
    // Those kept whole leave the pool; the rest share what is left in the next round.
    for (const i of small) left -= words[i]
    open = open.filter((i) => !small.includes(i))
  }
  return rates
}

/** The training options as fastText's own skip-gram arguments, one mapping for both builds; one thread always (see `trainer`). */
const skipgramArguments = (o: SubwordTrainingOptions): NativeSkipgramArgs => ({
  dim: o.dimensions,
  epoch: o.epochs,
  minCount: o.minCount,
  minn: o.minn,
  maxn: o.maxn,
  bucket: o.bucket,
  ws: o.windowSize,
  neg: o.negatives,
  lr: o.learningRate,
  t: o.subsampling,
  seed: o.seed,
  thread: 1
})

export const trainSubwordEncoder = async (
  sources: ReadonlyArray<TrainingSource>,
  documentsForCommonComponent: ReadonlyArray<string>,
  options: Partial<SubwordTrainingOptions> = {},
  /** CPC scheme entries the alignment learns from (none: no alignment). */
  scheme: ReadonlyArray<SchemeEntry> = []
): Promise<TrainedSubwordEncoder> => {
  const o = { ...defaultSubwordTrainingOptions, ...options }
  const onProgress = o.onProgress ?? (() => {})

  // Two passes, so memory holds only what is kept: count every source's words, then read each
  // again keeping lines at the rate that fits the budget.
  let started = Date.now()
  const counted: Array<{ name: string; lines: number; words: number }> = []
  for (const s of sources) {
    let lines = 0
    let words = 0
    for await (const text of s.texts) {
      const n = wordCount(trainingLine(text))
      if (n === 0) continue
      lines++
      words += n
    }
    counted.push({ name: s.name, lines, words })
    onProgress("corpus", counted.length, sources.length * 2)
  }
  const rates = samplingRates(
    counted.map((s) => s.words),
    counted.map((s) => o.sourceWeights[s.name] ?? 1),
    o.maxTrainingWords
  )
  const kept: string[] = []
  const stats: Record<string, { lines: number; words: number; kept: number }> = {}
  for (const [i, s] of sources.entries()) {
    let keptWords = 0
    for await (const text of s.texts) {
      const line = trainingLine(text)
      if (!line || !keepLine(line, rates[i])) continue
      kept.push(line)
      keptWords += wordCount(line)
    }
    stats[s.name] = { lines: counted[i].lines, words: counted[i].words, kept: keptWords }
    onProgress("corpus", sources.length + i + 1, sources.length * 2)
  }
  const phrases = o.phrases ? detectPhrases(kept, o.phrases) : new Set<string>()
  if (phrases.size > 0) for (let i = 0; i < kept.length; i++) kept[i] = joinPhrases(kept[i], phrases)
  // Sources interleaved (a fixed shuffle), so the learning rate's decay does not favour one part.
  const order = kept.map((line, i) => ({ line, key: Math.imul(i + 1, 2654435761) >>> 0 })).sort((a, b) => a.key - b.key)
  const trainingText = new TextEncoder().encode(order.map((x) => x.line).join("\n") + "\n")
  const trainingWords = kept.reduce((n, l) => n + wordCount(l), 0)
  kept.length = 0
  order.length = 0
  const corpusMs = Date.now() - started

  started = Date.now()
  const fastText = await getFastTextModule()
  const trainer = new fastText.FastText()
  const reportTraining = (progress: number) => onProgress("train", Math.round(progress * trainingWords * o.epochs), trainingWords * o.epochs)
  let lastReport = 0
  const throttled = (progress: number) => {
    const now = Date.now()
    if (now - lastReport < 1000) return
    lastReport = now
    reportTraining(progress)
  }
  const args = skipgramArguments(o)
  let bin: Uint8Array
  // The WebAssembly trainer holding the model, for its own word vectors and rows (what the export
  // is checked against). A native model is loaded into it only when they are asked for.
  let loaded = o.trainer === "wasm"
  if (o.trainer === "native") bin = await trainNativeSkipgram(trainingText, args, throttled)
  else {
    fastText.FS.writeFile("/train.txt", trainingText)
    const wasmArgs = Object.assign(new fastText.Args(), args, { input: "/train.txt", output: "/model", verbose: 0 })
    wasmArgs.model = fastText.ModelName.skipgram
    wasmArgs.loss = fastText.LossName.ns
    trainer.train(wasmArgs, throttled)
    fastText.FS.unlink("/train.txt")
    trainer.saveModel("/model.bin")
    bin = fastText.FS.readFile("/model.bin")
    fastText.FS.unlink("/model.bin")
  }
  reportTraining(1)
  const trainMs = Date.now() - started

  started = Date.now()
  const file = readFastTextModel(bin)
  const withTrainer = <A>(f: () => A): A => {
    if (!loaded) {
      fastText.FS.writeFile("/model.bin", bin)
      trainer.loadModel("/model.bin")
      fastText.FS.unlink("/model.bin")
      loaded = true
    }
    return f()
  }
  const dictionary = new SubwordDictionary(file.words, file.counts)
  // Dictionary counts are of the words kept (minCount); p(word) is over all tokens read.
  const totalTokens = file.counts.reduce((n, c) => n + c, 0)
  const settings: SubwordEncoderSettings = {
    kind: "patent-subword",
    version: 1,
    dimensions: o.dimensions,
    minn: o.minn,
    maxn: o.maxn,
    bucket: o.bucket,
    nwords: file.words.length,
    pooling: { scheme: "sif", a: o.sifA, totalTokens },
    normalization: "nfkc-lower-alnum",
    ...(o.phrases ? { phrases: "joined-bigrams" as const } : {})
  }
  const noCommon = new Float32Array(o.dimensions)
  const pooled = (o.removeCommonComponent ? documentsForCommonComponent : [])
    .slice(0, o.commonComponentSample)
    .map((t) => pooledVector({ settings, dictionary, inputMatrix: file.inputMatrix, commonComponent: noCommon }, t))
  const commonComponent = o.removeCommonComponent ? firstPrincipalDirection(pooled, o.dimensions) : noCommon
  const pairs = o.cpcAlignment ? schemePairs(scheme, o.alignmentPairs) : { related: [], unrelated: [] }
  let alignment: Float32Array | undefined
  if (o.cpcAlignment && pairs.related.length > 0) {
    const project = cachedProjector({ settings, dictionary, inputMatrix: file.inputMatrix, commonComponent })
    const vectorOf = new Map<string, Float64Array>()
    const at = (text: string) => {
      let v = vectorOf.get(text)
      if (!v) vectorOf.set(text, (v = project(text)))
      return v
    }
    alignment = cpcAlignment(
      { related: pairs.related.map(([a, b]) => [at(a), at(b)] as const), unrelated: pairs.unrelated.map(([a, b]) => [at(a), at(b)] as const) },
      o.dimensions,
      o.cpcAlignment
    )
  }
  onProgress("export", 1, 1)

  const dimension = o.dimensions
  const trainerWordVector = (word: string) =>
    withTrainer(() => {
      const at = fastText._malloc(dimension * 4)
      try {
        trainer.getWordVector({ ptr: at, size: dimension }, word)
        return new Float32Array(fastText.HEAPF32.buffer, at, dimension).slice()
      } finally {
        fastText._free(at)
      }
    })
  const trainerWordRows = (word: string) =>
    withTrainer(() => {
      const pair = trainer.getSubwords(word) as unknown as [unknown, { size(): number; get(i: number): number }]
      const ids = pair[1]
      return Array.from({ length: ids.size() }, (_, i) => ids.get(i))
    })
  return {
    settings,
    dictionary,
    inputMatrix: file.inputMatrix,
    commonComponent,
    alignment,
    trainerWordVector,
    trainerWordRows,
    stats: {
      sources: stats,
      trainingWords,
      phrases: phrases.size,
      epochs: o.epochs,
      vocabulary: file.words.length,
      alignmentPairs: alignment ? pairs.related.length : 0,
      corpusMs,
      trainMs,
      exportMs: Date.now() - started
    }
  }
}

type Projection = Pick<TrainedSubwordEncoder, "settings" | "dictionary" | "inputMatrix" | "commonComponent" | "alignment">

/** A word's unit vector (the mean of its input-matrix rows) less its common component, in float64. */
const specificWordVector = (model: Projection, rows: ReadonlyArray<number>): Float64Array => {
  const d = model.settings.dimensions
  const word = new Float64Array(d)
  for (const r of rows) for (let c = 0; c < d; c++) word[c] += model.inputMatrix[r * d + c]
  let norm = 0
  for (let c = 0; c < d; c++) norm += (word[c] / rows.length) ** 2
  norm = Math.max(Math.sqrt(norm), 1e-12)
  let along = 0
  for (let c = 0; c < d; c++) {
    word[c] = word[c] / rows.length / norm
    along += word[c] * model.commonComponent[c]
  }
  for (let c = 0; c < d; c++) word[c] -= along * model.commonComponent[c]
  return word
}

/** Σ SIF weight · specific word vector, then the alignment map when there is one (not normalised), in float64. */
const pooledVector = (model: Projection, text: string, wordVector = (_word: string, rows: ReadonlyArray<number>) => specificWordVector(model, rows)): Float64Array => {
  const d = model.settings.dimensions
  const f = featurizeSubwordText(text, model.settings, model.dictionary)
  const sum = new Float64Array(d)
  for (const [w, rows] of f.rows.entries()) {
    const word = wordVector(f.words[w], rows)
    for (let c = 0; c < d; c++) sum[c] += f.weights[w] * word[c]
  }
  // The map is linear: mapping the sum equals summing the mapped word vectors, as the graph does.
  return model.alignment ? applyAlignment(model.alignment, sum, d) : sum
}

const unit = (v: Float64Array) => {
  let norm = 0
  for (const x of v) norm += x * x
  norm = Math.max(Math.sqrt(norm), 1e-12)
  for (let i = 0; i < v.length; i++) v[i] /= norm
  return v
}

/**
 * The training side's own vector of a text: SIF-pooled unit word vectors (each the mean of its
 * input-matrix rows), common component removed, aligned, unit length. The ONNX graph must agree with it.
 */
export const projectSubwordText = (model: Projection, text: string): Float32Array => Float32Array.from(unit(pooledVector(model, text)))

/** projectSubwordText in float64 with each word's vector computed once, for many short texts. */
const cachedProjector = (model: Projection) => {
  const words = new Map<string, Float64Array>()
  const wordVector = (word: string, rows: ReadonlyArray<number>) => {
    let v = words.get(word)
    if (!v) words.set(word, (v = specificWordVector(model, rows)))
    return v
  }
  return (text: string) => unit(pooledVector(model, text, wordVector))
}

/** Top eigenvector of Σ v vᵀ by power iteration (zeros when there are no vectors). */
const firstPrincipalDirection = (vectors: ReadonlyArray<Float64Array>, d: number): Float32Array => {
  if (vectors.length === 0) return new Float32Array(d)
  let u = new Float64Array(d).fill(1 / Math.sqrt(d))
  for (let iteration = 0; iteration < 50; iteration++) {
    const next = new Float64Array(d)
    for (const v of vectors) {
      let dot = 0
      for (let c = 0; c < d; c++) dot += v[c] * u[c]
      for (let c = 0; c < d; c++) next[c] += dot * v[c]
    }
    let norm = 0
    for (const x of next) norm += x * x
    norm = Math.sqrt(norm)
    if (norm === 0) return new Float32Array(d)
    for (let c = 0; c < d; c++) next[c] /= norm
    let change = 0
    for (let c = 0; c < d; c++) change = Math.max(change, Math.abs(next[c] - u[c]))
    u = next
    if (change < 1e-9) break
  }
  return Float32Array.from(u)
}
