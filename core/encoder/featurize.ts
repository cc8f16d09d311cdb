/**
 * Text → the exact inputs of the LSA encoder's ONNX graph: the ids of the vocabulary terms the
 * text contains (unigrams and bigrams, each once, in order of first occurrence) and their
 * TF-IDF weights, (1 + ln tf) · idf. The pipeline builds its training matrix rows with this same
 * function, so the hub cannot drift from what the model was trained on.
 */
import {
  defaultPatentTokenizerSettings,
  parsePatentTokenizerSettings,
  type PatentTokenizerSettings,
  termsOf,
  tokenizePatentText
} from "../text/tokenize.ts"
import type { LsaVocabulary } from "./vocabulary.ts"

/** tokenizer.json of an LSA encoder folder: everything needed to featurize text for it. */
export interface LsaEncoderSettings {
  readonly kind: "patent-lsa"
  readonly version: 1
  readonly tokenizer: PatentTokenizerSettings
  /** Whether adjacent stems also count as bigram terms (only those in the vocabulary are used). */
  readonly bigrams: boolean
  readonly termFrequency: "log"
  readonly idf: "smooth"
  /** Width of every vector the encoder returns. */
  readonly dimensions: number
  /** Number of non-zero SVD components; dimensions beyond it are always 0. */
  readonly rank: number
}

export const defaultLsaEncoderSettings: LsaEncoderSettings = {
  kind: "patent-lsa",
  version: 1,
  tokenizer: defaultPatentTokenizerSettings,
  bigrams: true,
  termFrequency: "log",
  idf: "smooth",
  dimensions: 256,
  rank: 256
}

export const parseLsaEncoderSettings = (json: unknown): LsaEncoderSettings => {
  const o = json as Partial<LsaEncoderSettings>
  if (o?.kind !== "patent-lsa") throw new Error(`not a patent-lsa encoder settings file (kind ${String(o?.kind)})`)
  if (o.version !== 1) throw new Error(`unsupported patent-lsa settings version ${String(o.version)}`)
  if (o.termFrequency !== "log" || o.idf !== "smooth") throw new Error("unsupported term weighting")
  return {
    kind: "patent-lsa",
    version: 1,
    tokenizer: parsePatentTokenizerSettings(o.tokenizer),
    bigrams: o.bigrams !== false,
    termFrequency: "log",
    idf: "smooth",
    dimensions: Number(o.dimensions),
    rank: Number(o.rank)
  }
}

export interface EncoderFeatures {
  /** Vocabulary ids (never 0), each once. */
  readonly ids: Int32Array
  /** (1 + ln tf) · idf, as float32: the value the ONNX graph receives. */
  readonly weights: Float32Array
  /** The term behind each id (for late-interaction explanations). */
  readonly terms: ReadonlyArray<string>
}

export const featurizePatentText = (
  text: string,
  settings: Pick<LsaEncoderSettings, "tokenizer" | "bigrams">,
  vocabulary: LsaVocabulary
): EncoderFeatures => {
  const counts = new Map<number, number>()
  for (const term of termsOf(tokenizePatentText(text, settings.tokenizer), settings.bigrams)) {
    const id = vocabulary.idOf(term)
    if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1)
  }
  const ids = new Int32Array(counts.size)
  const weights = new Float32Array(counts.size)
  const terms: string[] = []
  let i = 0
  for (const [id, tf] of counts) {
    ids[i] = id
    weights[i++] = (1 + Math.log(tf)) * vocabulary.idf[id]
    terms.push(vocabulary.termOf(id)!)
  }
  return { ids, weights, terms }
}
