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
 * A part may also be marked `fullAtWords`: a text with fewer words than that (as the part's own
 * tokeniser counts them) gives it only that fraction of its weight, and the rest goes to the other
 * parts. LSA's vectors are sums of co-occurrence directions, reliable for a document and noisy for
 * a phrase of two or three words, where the subword model is the better judge (see
 * LSA_FULL_AT_WORDS). An application's abstract and claim are long, so what this changes is short
 * queries, title-only records (most of the bundled sample) and phrase-to-phrase similarity on the
 * hub's /encode.
 *
 * Each part is an ONNX encoder folder of its own (encoder/lsa, encoder/subword); token vectors for
 * late-interaction reranking come from the part marked `tokens`.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import type { EncoderSessionOptions, PatentTextEncoder, TokenVectors } from "./encoder.ts"
import { EncoderLoadError } from "./errors.ts"
import { countPatentWords, type PatentTokenizerSettings } from "../text/tokenize.ts"

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

/**
 * The words (content stems) from which the LSA part has its whole weight; a shorter text gives it
 * words / 8 of it. Chosen on the development halves of both benchmarks, trying 0 (off), 4, 8 and
 * 16 at subword weight 0.6 (2026-11-29):
 * - phrase similarity (bench/encoder-similarity.ts, held-out CPC titles), Pearson on dev: off
 *   0.567, 4: 0.576, 8: 0.579, 16: 0.578;
 * - held-out citations (bench/retrieval.ts --tune-ensemble 0.6 --tune-words 0,4,8,16), plain
 *   search recall@100 / MRR on dev: sample (titles) off 0.570 / 0.250, 4: 0.569 / 0.246,
 *   8: 0.579 / 0.243, 16: 0.563 / 0.231; the tuning objective (recall@100 over BM25's plus a
 *   quarter of MRR over BM25's) is best at 8. The 100k synthetic corpus is unchanged up to 8
 *   (its records are abstract + claim, its short queries at least 8 words).
 */
export const LSA_FULL_AT_WORDS = 8

export interface EnsemblePart {
  readonly folder: string
  readonly weight: number
  readonly tokens: boolean
  /** A text with fewer words than this gives the part words / fullAtWords of its weight (absent: always all of it). */
  readonly fullAtWords?: number
}

export interface EnsembleSettings {
  readonly kind: "patent-ensemble"
  readonly parts: ReadonlyArray<EnsemblePart>
}

/**
 * Each part's scale (√ of its share) for a text, from the words each part counts in it: a part
 * marked `fullAtWords` keeps min(1, words / fullAtWords) of its weight, and what it gives up goes
 * to the unmarked parts in proportion to their weights. With no marked part this is √(weight / total).
 */
export const ensembleScales = (parts: ReadonlyArray<Pick<EnsemblePart, "weight" | "fullAtWords">>, words: ReadonlyArray<number>): number[] => {
  const total = parts.reduce((n, p) => n + p.weight, 0)
  const kept = parts.map((p, i) => (p.fullAtWords ? p.weight * Math.min(1, words[i] / p.fullAtWords) : p.weight))
  const freed = total - kept.reduce((n, w) => n + w, 0)
  const open = parts.reduce((n, p) => n + (p.fullAtWords ? 0 : p.weight), 0)
  return parts.map((p, i) => Math.sqrt((kept[i] + (p.fullAtWords || open === 0 ? 0 : (freed * p.weight) / open)) / total))
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
    private readonly parts: ReadonlyArray<{
      readonly encoder: PatentTextEncoder
      readonly weight: number
      readonly fullAtWords?: number
      /** The part's own tokeniser, to count a text's words where the part is marked fullAtWords. */
      readonly tokenizer?: PatentTokenizerSettings
    }>,
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
      settings.parts.every(
        (p) =>
          FOLDER.test(p.folder) &&
          Number.isFinite(p.weight) &&
          p.weight >= 0 &&
          (p.fullAtWords === undefined || (Number.isInteger(p.fullAtWords) && p.fullAtWords >= 1 && p.fullAtWords <= 1000))
      ) &&
      settings.parts.some((p) => p.weight > 0 && p.fullAtWords === undefined)
    if (!valid)
      throw new EncoderLoadError({
        folder,
        reason:
          "tokenizer.json: an ensemble needs two or more parts, each a plain folder name with a weight of 0 or more and an optional fullAtWords (a whole number from 1 to 1000), and a part of positive weight without fullAtWords"
      })
    const loaded: Array<{ encoder: PatentTextEncoder; weight: number; fullAtWords?: number; tokenizer?: PatentTokenizerSettings }> = []
    try {
      for (const p of settings.parts) {
        const encoder = await loadPart(path.join(folder, p.folder), options)
        loaded.push({ encoder, weight: p.weight, fullAtWords: p.fullAtWords, tokenizer: encoder.wordTokenizer })
        if (p.fullAtWords !== undefined && !encoder.wordTokenizer)
          throw new EncoderLoadError({ folder, reason: `tokenizer.json: part ${p.folder} has fullAtWords, but a ${encoder.kind} encoder has no patent tokeniser to count words with` })
      }
    } catch (e) {
      await Promise.allSettled(loaded.map((p) => p.encoder.close()))
      throw e
    }
    const tokens = loaded[Math.max(0, settings.parts.findIndex((p) => p.tokens))].encoder
    return new EnsembleTextEncoder(loaded, tokens)
  }

  /** Each part's scale for one text (ensembleScales), counting words only for the marked parts. */
  private scalesOf(text: string): number[] {
    return ensembleScales(
      this.parts,
      this.parts.map((p) => (p.fullAtWords === undefined ? 0 : countPatentWords(text, p.fullAtWords, p.tokenizer)))
    )
  }

  async encode(texts: ReadonlyArray<string>): Promise<Float32Array[]> {
    const byPart = await Promise.all(this.parts.map((p) => p.encoder.encode(texts)))
    return texts.map((text, i) => joinVectors(byPart.map((vectors) => vectors[i]), this.scalesOf(text)))
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
