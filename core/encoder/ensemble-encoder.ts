/**
 * Two corpus-trained encoders joined (ENCODER=ensemble): each text's vector is the concatenation
 * of the parts' unit vectors, each scaled by the square root of its weight, so that
 *
 *   cos(ensemble(a), ensemble(b)) = Σ weight_i · cos(part_i(a), part_i(b))   (weights sum to 1)
 *
 * LSA brings the corpus's own term co-occurrences (strong on retrieval of long texts); the
 * subword model knows every word and its pieces (no query word is out of vocabulary, strong on
 * short phrases). A part that knows nothing of a text contributes zeros, and the result is
 * normalised again, so such a text is represented by the other part alone.
 *
 * Each part is an ONNX encoder folder of its own (encoder/lsa, encoder/subword); token vectors for
 * late-interaction reranking come from the part marked `tokens`.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import type { EncoderSessionOptions, PatentTextEncoder, TokenVectors } from "./encoder.ts"
import { EncoderLoadError } from "./errors.ts"

export const ENSEMBLE_PARTS = { lsa: "lsa", subword: "subword" } as const

/**
 * The subword model's share of the cosine, chosen on the development splits of the held-out
 * citations only (`bench/retrieval.ts --tune-ensemble 0.4,0.5,0.6,0.7`, exact search over the
 * re-joined vectors): the weight with the best plain-search recall@100 and MRR averaged over the
 * sample (137 dev queries) and the 100k synthetic corpus (156), with the subword part trained by
 * the native fastText (pipeline/encoder/subword-train.ts trainerOptions). Recall@100 / MRR, sample
 * and synthetic: 0.4 0.554 / 0.227 and 0.781 / 0.341; 0.5 0.566 / 0.250 and 0.768 / 0.344; 0.6
 * 0.584 / 0.255 and 0.774 / 0.341; 0.7 0.587 / 0.247 and 0.769 / 0.323. Phrase similarity
 * (bench/encoder-similarity.ts) rises with the weight too. It was 0.4 with the in-process trainer's
 * smaller model.
 */
export const DEFAULT_SUBWORD_WEIGHT = 0.6

export interface EnsembleSettings {
  readonly kind: "patent-ensemble"
  readonly parts: ReadonlyArray<{ readonly folder: string; readonly weight: number; readonly tokens: boolean }>
}

const FOLDER = /^[a-z][a-z0-9-]{0,40}$/

/**
 * One text's ensemble vector from its parts' vectors: each part at unit length times its scale
 * (√ of its weight share), concatenated, then normalised again (a part with a zero vector drops out).
 */
export const joinVectors = (parts: ReadonlyArray<Float32Array>, scales: ReadonlyArray<number>): Float32Array => {
  const out = new Float32Array(parts.reduce((n, v) => n + v.length, 0))
  let at = 0
  let norm = 0
  for (const [j, v] of parts.entries()) {
    let n = 0
    for (let k = 0; k < v.length; k++) n += v[k] * v[k]
    const s = n > 0 ? scales[j] / Math.sqrt(n) : 0
    for (let k = 0; k < v.length; k++) {
      out[at + k] = v[k] * s
      norm += out[at + k] * out[at + k]
    }
    at += v.length
  }
  if (norm > 0) {
    const r = 1 / Math.sqrt(norm)
    for (let k = 0; k < out.length; k++) out[k] *= r
  }
  return out
}

export class EnsembleTextEncoder implements PatentTextEncoder {
  readonly kind = "patent-ensemble"
  readonly dimensions: number

  private constructor(
    private readonly parts: ReadonlyArray<{ readonly encoder: PatentTextEncoder; readonly scale: number }>,
    private readonly tokenPart: PatentTextEncoder
  ) {
    this.dimensions = parts.reduce((n, p) => n + p.encoder.dimensions, 0)
  }

  static async load(
    folder: string,
    loadPart: (folder: string, options: EncoderSessionOptions) => Promise<PatentTextEncoder>,
    options: EncoderSessionOptions = {}
  ): Promise<EnsembleTextEncoder> {
    const settings = JSON.parse(await fs.readFile(path.join(folder, "tokenizer.json"), "utf8")) as EnsembleSettings
    const valid =
      Array.isArray(settings.parts) &&
      settings.parts.length >= 2 &&
      settings.parts.every((p) => FOLDER.test(p.folder) && Number.isFinite(p.weight) && p.weight >= 0) &&
      settings.parts.some((p) => p.weight > 0)
    if (!valid) throw new EncoderLoadError({ folder, reason: "tokenizer.json: an ensemble needs two or more parts, each a plain folder name with a weight of 0 or more" })
    const total = settings.parts.reduce((n, p) => n + p.weight, 0)
    const loaded: Array<{ encoder: PatentTextEncoder; scale: number }> = []
    try {
      for (const p of settings.parts) loaded.push({ encoder: await loadPart(path.join(folder, p.folder), options), scale: Math.sqrt(p.weight / total) })
    } catch (e) {
      await Promise.allSettled(loaded.map((p) => p.encoder.close()))
      throw e
    }
    const tokens = loaded[Math.max(0, settings.parts.findIndex((p) => p.tokens))].encoder
    return new EnsembleTextEncoder(loaded, tokens)
  }

  async encode(texts: ReadonlyArray<string>): Promise<Float32Array[]> {
    const byPart = await Promise.all(this.parts.map((p) => p.encoder.encode(texts)))
    const scales = this.parts.map((p) => p.scale)
    return texts.map((_, i) => joinVectors(byPart.map((vectors) => vectors[i]), scales))
  }

  encodeTokens(text: string): Promise<TokenVectors> {
    return this.tokenPart.encodeTokens(text)
  }

  encodeTokensBatch(texts: ReadonlyArray<string>): Promise<TokenVectors[]> {
    return this.tokenPart.encodeTokensBatch(texts)
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.parts.map((p) => p.encoder.close()))
  }
}
