/**
 * Run-time wrapper of the corpus-trained LSA encoder: an encoder folder (model.onnx,
 * vocab.json, tokenizer.json as written by the pipeline's encoder stage) opened in
 * onnxruntime-node. Texts are featurized in TypeScript with the same code the training used
 * and padded into batches (id 0, weight 0), which the graph turns into zero contributions.
 */
import ort from "onnxruntime-node"
import * as path from "node:path"
import type { EncoderSessionOptions, PatentTextEncoder, TokenVectors } from "./encoder.ts"
import { EncoderLoadError } from "./errors.ts"
import { type EncoderFeatures, featurizePatentText, type LsaEncoderSettings, parseLsaEncoderSettings } from "./featurize.ts"
import { lsaEncoderFiles, lsaInputNames, lsaOutputNames } from "./lsa-format.ts"
import { readEncoderJson, sessionOptions } from "./session.ts"
import { shapedBatches } from "./batching.ts"
import { LsaVocabulary, paddingTermId } from "./vocabulary.ts"

/** Batches are cut so batch × longest text stays under this many token slots. */
const maxBatchSlots = 1 << 16
const maxBatchTexts = 256

export class LsaTextEncoder implements PatentTextEncoder {
  readonly kind = "patent-lsa"

  private constructor(
    private readonly session: ort.InferenceSession,
    readonly settings: LsaEncoderSettings,
    readonly vocabulary: LsaVocabulary
  ) {}

  get dimensions() {
    return this.settings.dimensions
  }

  get wordTokenizer() {
    return this.settings.tokenizer
  }

  static async load(folder: string, options: EncoderSessionOptions = {}): Promise<LsaTextEncoder> {
    const read = (name: string) => readEncoderJson(folder, name)
    let settings: LsaEncoderSettings
    let vocabulary: LsaVocabulary
    try {
      settings = parseLsaEncoderSettings(await read(lsaEncoderFiles.settings))
      vocabulary = LsaVocabulary.fromJSON(await read(lsaEncoderFiles.vocabulary))
    } catch (e) {
      if (e instanceof EncoderLoadError) throw e
      throw new EncoderLoadError({ folder, reason: (e as Error).message })
    }
    let session: ort.InferenceSession
    try {
      session = await ort.InferenceSession.create(path.join(folder, lsaEncoderFiles.model), sessionOptions(options))
    } catch (e) {
      throw new EncoderLoadError({ folder, reason: `model.onnx: ${(e as Error).message}` })
    }
    const missing = [lsaInputNames.ids, lsaInputNames.weights].filter((n) => !session.inputNames.includes(n))
    if (missing.length > 0) throw new EncoderLoadError({ folder, reason: `model.onnx lacks inputs ${missing.join(", ")}` })
    return new LsaTextEncoder(session, settings, vocabulary)
  }

  featurize(text: string): EncoderFeatures {
    return featurizePatentText(text, this.settings, this.vocabulary)
  }

  async encode(texts: ReadonlyArray<string>): Promise<Float32Array[]> {
    const out = new Array<Float32Array>(texts.length)
    const d = this.dimensions
    for (const batch of shapedBatches(texts.map((t) => this.featurize(t)), (f) => [f.ids.length], maxBatchTexts, maxBatchSlots)) {
      const data = (await this.run(batch.rows, lsaOutputNames.sentence, batch.shape[0])).data as Float32Array
      batch.indices.forEach((at, b) => (out[at] = data.slice(b * d, (b + 1) * d)))
    }
    return out
  }

  async encodeTokens(text: string): Promise<TokenVectors> {
    return (await this.encodeTokensBatch([text]))[0]
  }

  async encodeTokensBatch(texts: ReadonlyArray<string>): Promise<TokenVectors[]> {
    const out: TokenVectors[] = []
    for (const batch of batches(texts.map((t) => this.featurize(t)))) {
      const r = await this.run(batch, lsaOutputNames.tokens)
      const data = r.data as Float32Array
      const [, seq, d] = r.dims
      batch.forEach((f, b) => {
        const vectors = Array.from(f.ids, (_, i) => data.slice((b * seq + i) * d, (b * seq + i + 1) * d))
        out.push({ tokens: f.terms, vectors, weights: f.weights })
      })
    }
    return out
  }

  close(): Promise<void> {
    return this.session.release()
  }

  /** `padTo`: the sequence length to pad to (at least the longest text's; a text with no known term becomes padding only). */
  private async run(batch: ReadonlyArray<EncoderFeatures>, output: string, padTo = 1): Promise<ort.Tensor> {
    const seq = Math.max(padTo, 1, ...batch.map((f) => f.ids.length))
    const ids = new BigInt64Array(batch.length * seq).fill(BigInt(paddingTermId))
    const weights = new Float32Array(batch.length * seq)
    batch.forEach((f, b) => {
      for (let i = 0; i < f.ids.length; i++) ids[b * seq + i] = BigInt(f.ids[i])
      weights.set(f.weights, b * seq)
    })
    const result = await this.session.run(
      {
        [lsaInputNames.ids]: new ort.Tensor("int64", ids, [batch.length, seq]),
        [lsaInputNames.weights]: new ort.Tensor("float32", weights, [batch.length, seq])
      },
      [output]
    )
    return result[output]
  }
}

function* batches(features: ReadonlyArray<EncoderFeatures>): Generator<EncoderFeatures[]> {
  let batch: EncoderFeatures[] = []
  let longest = 1
  for (const f of features) {
    const next = Math.max(longest, f.ids.length)
    if (batch.length > 0 && (batch.length >= maxBatchTexts || (batch.length + 1) * next > maxBatchSlots)) {
      yield batch
      batch = []
      longest = Math.max(1, f.ids.length)
    } else longest = next
    batch.push(f)
  }
  if (batch.length > 0) yield batch
}
