/**
 * Run-time wrapper of the corpus-trained subword encoder: an encoder folder (model.onnx,
 * vocab.json, tokenizer.json as written by the pipeline's encoder stage) opened in
 * onnxruntime-node. Texts are split into words in TypeScript (subwords.ts: the trainer's own word
 * split and n-gram hashing).
 *
 * A word's vector does not depend on the text it is in, so each distinct word is computed once:
 * the graph (subword-onnx.ts) turns a batch of words into their unit vectors and the same less
 * the common component, an LRU keeps them across calls, and each text is pooled here (SIF weight ×
 * occurrences, summed in float64, then unit length). 256 documents of ~370 words hold ~5,000
 * distinct words between them; the earlier graph took the texts whole, padded to the longest text
 * and the longest word, and gathered [texts, words, pieces, D] floats (about 1 GB a batch).
 *
 * A text still gets the same vector from every batch and every cache state: a word is computed in
 * a batch of words of its padded piece count and never alone (batching.ts), which gives it the
 * same bits whatever the other words are, and a text is pooled in its own word order.
 */
import { LRUCache } from "lru-cache"
import * as fs from "node:fs/promises"
import ort from "onnxruntime-node"
import * as path from "node:path"
import { shapedBatches } from "./batching.ts"
import type { EncoderSessionOptions, PatentTextEncoder, TokenVectors } from "./encoder.ts"
import { EncoderLoadError } from "./errors.ts"
import { readEncoderJson, sessionOptions } from "./session.ts"
import {
  parseSubwordEncoderSettings,
  type SubwordEncoderSettings,
  subwordEncoderFiles,
  subwordInputNames,
  subwordOutputNames,
  type SubwordVocabularyFile
} from "./subword-format.ts"
import { normEpsilon, runnableSubwordModel } from "./subword-onnx.ts"
import { featurizeSubwordText, sifWeight, SubwordDictionary, type SubwordFeatures, wordOccurrences, wordRows } from "./subwords.ts"

/** A run of the graph gathers at most this many [words × pieces] rows. */
const maxRunSlots = 1 << 16
const maxRunWords = 4096
/** Bytes of word vectors the cache keeps (each word: two float32 vectors; 40,000 words at 100 dimensions). */
const wordCacheBytes = 32 << 20

export const parseSubwordVocabulary = (json: unknown): SubwordDictionary => {
  const f = json as Partial<SubwordVocabularyFile>
  if (f?.format !== "patent-subword-vocabulary/1") throw new Error(`not a patent-subword vocabulary (format ${String(f?.format)})`)
  if (!Array.isArray(f.words) || !Array.isArray(f.counts)) throw new Error("vocabulary lacks words or counts")
  return new SubwordDictionary(f.words, f.counts)
}

/** What the graph gives one word, and its SIF weight. */
interface WordVectors {
  /** Unit word vector: the word's token vector for late-interaction scoring. */
  readonly token: Float32Array
  /** The same less its common component: what a text's vector sums. */
  readonly specific: Float32Array
  /** Weight of one occurrence in a text's vector. */
  readonly sif: number
}

export class SubwordTextEncoder implements PatentTextEncoder {
  readonly kind = "patent-subword"
  private readonly wordVectorCache: LRUCache<string, WordVectors>

  private constructor(
    private readonly session: ort.InferenceSession,
    readonly settings: SubwordEncoderSettings,
    readonly dictionary: SubwordDictionary
  ) {
    this.wordVectorCache = new LRUCache({ max: Math.max(1024, Math.floor(wordCacheBytes / (8 * Math.max(1, settings.dimensions)))) })
  }

  get dimensions() {
    return this.settings.dimensions
  }

  static async load(folder: string, options: EncoderSessionOptions = {}): Promise<SubwordTextEncoder> {
    const read = (name: string) => readEncoderJson(folder, name)
    let settings: SubwordEncoderSettings
    let dictionary: SubwordDictionary
    try {
      settings = parseSubwordEncoderSettings(await read(subwordEncoderFiles.settings))
      dictionary = parseSubwordVocabulary(await read(subwordEncoderFiles.vocabulary))
    } catch (e) {
      if (e instanceof EncoderLoadError) throw e
      throw new EncoderLoadError({ folder, reason: (e as Error).message })
    }
    if (dictionary.words.length !== settings.nwords) {
      throw new EncoderLoadError({ folder, reason: `vocab.json has ${dictionary.words.length} words, tokenizer.json says ${settings.nwords}` })
    }
    let session: ort.InferenceSession
    try {
      // A folder written before the per-word graph (its graph takes whole texts and pools them) is
      // re-exported here, in memory, rather than served through a second code path: the per-word
      // graph is rebuilt from the same row table and common component, so old and new folders run
      // the same code and give the same vectors. The folder itself stays as written: a pinned
      // encoder is recognised by its files' bytes (pipeline/embed/reuse.ts), and versions share it.
      // Measured on a 48 MB model: reading and checking the bytes adds ~30 ms to a load, rebuilding ~60 ms.
      const model = runnableSubwordModel(await fs.readFile(path.join(folder, subwordEncoderFiles.model)))
      session = await ort.InferenceSession.create(model, sessionOptions(options))
    } catch (e) {
      throw new EncoderLoadError({ folder, reason: `model.onnx: ${(e as Error).message}` })
    }
    const missing = [
      ...Object.values(subwordInputNames).filter((n) => !session.inputNames.includes(n)),
      ...Object.values(subwordOutputNames).filter((n) => !session.outputNames.includes(n))
    ]
    if (missing.length > 0) {
      await session.release()
      throw new EncoderLoadError({ folder, reason: `model.onnx lacks ${missing.join(", ")}` })
    }
    return new SubwordTextEncoder(session, settings, dictionary)
  }

  featurize(text: string): SubwordFeatures {
    return featurizeSubwordText(text, this.settings, this.dictionary)
  }

  async encode(texts: ReadonlyArray<string>): Promise<Float32Array[]> {
    const counted = texts.map((t) => wordOccurrences(t, this.settings, this.dictionary))
    const vectors = await this.wordVectors(counted)
    return counted.map((occurrences) => this.pool(occurrences, vectors))
  }

  async encodeTokens(text: string): Promise<TokenVectors> {
    return (await this.encodeTokensBatch([text]))[0]
  }

  async encodeTokensBatch(texts: ReadonlyArray<string>): Promise<TokenVectors[]> {
    const counted = texts.map((t) => wordOccurrences(t, this.settings, this.dictionary))
    const vectors = await this.wordVectors(counted)
    return counted.map((occurrences) => {
      const tokens: string[] = []
      const tokenVectors: Float32Array[] = []
      const weights: number[] = []
      for (const [word, tf] of occurrences) {
        const v = vectors.get(word)
        if (!v) continue
        tokens.push(word)
        tokenVectors.push(v.token.slice())
        weights.push(tf * v.sif)
      }
      return { tokens, vectors: tokenVectors, weights: Float32Array.from(weights) }
    })
  }

  close(): Promise<void> {
    this.wordVectorCache.clear()
    return this.session.release()
  }

  /** unit(Σ weight · specific vector) over the text's words in order; zeros for a text with no word. */
  private pool(occurrences: ReadonlyMap<string, number>, vectors: ReadonlyMap<string, WordVectors>): Float32Array {
    const d = this.dimensions
    const specific: Float32Array[] = []
    const weights: number[] = []
    for (const [word, tf] of occurrences) {
      const v = vectors.get(word)
      if (!v) continue
      specific.push(v.specific)
      // The weight as featurize() gives it (float32), so token weights and pooling agree.
      weights.push(Math.fround(tf * v.sif))
    }
    // Four words per pass over the sum: half the time of one at a time.
    const sum = new Float64Array(d)
    let w = 0
    for (; w + 4 <= specific.length; w += 4) {
      const [a, b, e, f] = [specific[w], specific[w + 1], specific[w + 2], specific[w + 3]]
      const [wa, wb, we, wf] = [weights[w], weights[w + 1], weights[w + 2], weights[w + 3]]
      for (let c = 0; c < d; c++) sum[c] += wa * a[c] + wb * b[c] + we * e[c] + wf * f[c]
    }
    for (; w < specific.length; w++) {
      const [a, wa] = [specific[w], weights[w]]
      for (let c = 0; c < d; c++) sum[c] += wa * a[c]
    }
    let norm = 0
    for (let c = 0; c < d; c++) norm += sum[c] * sum[c]
    const scale = 1 / Math.max(Math.sqrt(norm), normEpsilon)
    const out = new Float32Array(d)
    for (let c = 0; c < d; c++) out[c] = sum[c] * scale
    return out
  }

  /** The vectors of every word of `texts`: from the cache, or computed in batches of words. A word with no row has none. */
  private async wordVectors(texts: ReadonlyArray<ReadonlyMap<string, number>>): Promise<Map<string, WordVectors>> {
    const found = new Map<string, WordVectors>()
    const missing: Array<{ readonly word: string; readonly rows: ReadonlyArray<number> }> = []
    const seen = new Set<string>()
    for (const occurrences of texts) {
      for (const word of occurrences.keys()) {
        if (seen.has(word)) continue
        seen.add(word)
        const cached = this.wordVectorCache.get(word)
        if (cached) found.set(word, cached)
        else {
          const rows = wordRows(word, this.settings, this.dictionary)
          if (rows.length > 0) missing.push({ word, rows })
        }
      }
    }
    const d = this.dimensions
    for (const batch of shapedBatches(missing, (m) => [m.rows.length], maxRunWords, maxRunSlots)) {
      const { tokens, specific } = await this.run(batch.rows, batch.shape[0])
      for (const [b, at] of batch.indices.entries()) {
        const { word } = missing[at]
        const both = new Float32Array(2 * d)
        both.set(tokens.subarray(b * d, (b + 1) * d))
        both.set(specific.subarray(b * d, (b + 1) * d), d)
        const v: WordVectors = { token: both.subarray(0, d), specific: both.subarray(d), sif: sifWeight(word, this.settings, this.dictionary) }
        this.wordVectorCache.set(word, v)
        found.set(word, v)
      }
    }
    return found
  }

  /** The graph on a batch of words, each padded to `pieces` rows (row 0, weight 0). */
  private async run(words: ReadonlyArray<{ readonly rows: ReadonlyArray<number> }>, pieces: number) {
    const rows = new BigInt64Array(words.length * pieces)
    // Written as the low halves of the little-endian int64s (rows are non-negative), with no BigInt per row.
    const rowsLow = new Int32Array(rows.buffer)
    const pieceWeights = new Float32Array(words.length * pieces)
    for (let w = 0; w < words.length; w++) {
      const wordRows = words[w].rows
      const share = 1 / wordRows.length
      for (let p = 0; p < wordRows.length; p++) {
        rowsLow[2 * (w * pieces + p)] = wordRows[p] + 1
        pieceWeights[w * pieces + p] = share
      }
    }
    const result = await this.session.run({
      [subwordInputNames.rows]: new ort.Tensor("int64", rows, [words.length, pieces]),
      [subwordInputNames.pieceWeights]: new ort.Tensor("float32", pieceWeights, [words.length, pieces])
    })
    return {
      tokens: result[subwordOutputNames.tokens].data as Float32Array,
      specific: result[subwordOutputNames.specific].data as Float32Array
    }
  }
}
