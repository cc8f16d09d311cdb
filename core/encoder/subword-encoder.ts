/**
 * Run-time wrapper of the corpus-trained subword encoder: an encoder folder (model.onnx,
 * vocab.json, tokenizer.json as written by the pipeline's encoder stage) opened in
 * onnxruntime-node. Texts are featurized in TypeScript (subwords.ts: the trainer's own word
 * split and n-gram hashing) and padded into batches (row 0, weight 0), which the graph turns
 * into zero contributions.
 */
import ort from "onnxruntime-node"
import { shapedBatches } from "./batching.ts"
import * as path from "node:path"
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
import { featurizeSubwordText, SubwordDictionary, type SubwordFeatures } from "./subwords.ts"

/** Batches are cut so texts × words × pieces stays under this many gathered rows. */
const maxBatchSlots = 1 << 16
const maxBatchTexts = 256

export const parseSubwordVocabulary = (json: unknown): SubwordDictionary => {
  const f = json as Partial<SubwordVocabularyFile>
  if (f?.format !== "patent-subword-vocabulary/1") throw new Error(`not a patent-subword vocabulary (format ${String(f?.format)})`)
  if (!Array.isArray(f.words) || !Array.isArray(f.counts)) throw new Error("vocabulary lacks words or counts")
  return new SubwordDictionary(f.words, f.counts)
}

export class SubwordTextEncoder implements PatentTextEncoder {
  readonly kind = "patent-subword"

  private constructor(
    private readonly session: ort.InferenceSession,
    readonly settings: SubwordEncoderSettings,
    readonly dictionary: SubwordDictionary
  ) {}

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
      session = await ort.InferenceSession.create(path.join(folder, subwordEncoderFiles.model), sessionOptions(options))
    } catch (e) {
      throw new EncoderLoadError({ folder, reason: `model.onnx: ${(e as Error).message}` })
    }
    const missing = Object.values(subwordInputNames).filter((n) => !session.inputNames.includes(n))
    if (missing.length > 0) throw new EncoderLoadError({ folder, reason: `model.onnx lacks inputs ${missing.join(", ")}` })
    return new SubwordTextEncoder(session, settings, dictionary)
  }

  featurize(text: string): SubwordFeatures {
    return featurizeSubwordText(text, this.settings, this.dictionary)
  }

  async encode(texts: ReadonlyArray<string>): Promise<Float32Array[]> {
    const out = new Array<Float32Array>(texts.length)
    const d = this.dimensions
    const axes = (f: SubwordFeatures) => {
      const s = shapeOf(f)
      return [s.words, s.pieces]
    }
    for (const batch of shapedBatches(texts.map((t) => this.featurize(t)), axes, maxBatchTexts, maxBatchSlots)) {
      const data = (await this.run(batch.rows, subwordOutputNames.sentence, batch.shape)).data as Float32Array
      batch.indices.forEach((at, b) => (out[at] = data.slice(b * d, (b + 1) * d)))
    }
    return out
  }

  async encodeTokens(text: string): Promise<TokenVectors> {
    return (await this.encodeTokensBatch([text]))[0]
  }

  async encodeTokensBatch(texts: ReadonlyArray<string>): Promise<TokenVectors[]> {
    const out: TokenVectors[] = []
    const d = this.dimensions
    for (const batch of batches(texts.map((t) => this.featurize(t)))) {
      const r = await this.run(batch, subwordOutputNames.tokens)
      const data = r.data as Float32Array
      const words = r.dims[1]
      for (const [b, f] of batch.entries()) {
        const vectors = f.words.map((_, w) => data.slice((b * words + w) * d, (b * words + w + 1) * d))
        out.push({ tokens: f.words, vectors, weights: f.weights })
      }
    }
    return out
  }

  close(): Promise<void> {
    return this.session.release()
  }

  /** `padTo`: the [words, pieces] to pad to (at least the batch's longest; a text with no word becomes one padding word). */
  private async run(batch: ReadonlyArray<SubwordFeatures>, output: string, padTo: ReadonlyArray<number> = [1, 1]): Promise<ort.Tensor> {
    const words = Math.max(padTo[0] ?? 1, 1, ...batch.map((f) => f.words.length))
    const pieces = Math.max(padTo[1] ?? 1, 1, ...batch.map((f) => Math.max(0, ...f.rows.map((r) => r.length))))
    const rows = new BigInt64Array(batch.length * words * pieces)
    const pieceWeights = new Float32Array(batch.length * words * pieces)
    const wordWeights = new Float32Array(batch.length * words)
    for (const [b, f] of batch.entries()) {
      for (const [w, wordRows] of f.rows.entries()) {
        const at = (b * words + w) * pieces
        const share = 1 / wordRows.length
        for (const [p, row] of wordRows.entries()) {
          rows[at + p] = BigInt(row + 1)
          pieceWeights[at + p] = share
        }
        wordWeights[b * words + w] = f.weights[w]
      }
    }
    const result = await this.session.run(
      {
        [subwordInputNames.rows]: new ort.Tensor("int64", rows, [batch.length, words, pieces]),
        [subwordInputNames.pieceWeights]: new ort.Tensor("float32", pieceWeights, [batch.length, words, pieces]),
        [subwordInputNames.wordWeights]: new ort.Tensor("float32", wordWeights, [batch.length, words])
      },
      [output]
    )
    return result[output]
  }
}

const shapeOf = (f: SubwordFeatures) => ({
  words: Math.max(1, f.words.length),
  pieces: Math.max(1, ...f.rows.map((r) => r.length))
})

function* batches(features: ReadonlyArray<SubwordFeatures>): Generator<SubwordFeatures[]> {
  let batch: SubwordFeatures[] = []
  let words = 1
  let pieces = 1
  for (const f of features) {
    const s = shapeOf(f)
    const nextWords = Math.max(words, s.words)
    const nextPieces = Math.max(pieces, s.pieces)
    if (batch.length > 0 && (batch.length >= maxBatchTexts || (batch.length + 1) * nextWords * nextPieces > maxBatchSlots)) {
      yield batch
      batch = []
      words = s.words
      pieces = s.pieces
    } else {
      words = nextWords
      pieces = nextPieces
    }
    batch.push(f)
  }
  if (batch.length > 0) yield batch
}
