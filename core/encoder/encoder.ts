/**
 * What the hub and the pipeline need from a text encoder, whichever kind is configured: the
 * corpus-trained subword encoder (subword-encoder.ts), the corpus-trained LSA encoder
 * (lsa-encoder.ts), the two joined (ensemble-encoder.ts) or any sentence-transformers ONNX export
 * (sentence-transformer.ts).
 * Vectors are L2-normalised, so cosine = dot product.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { EnsembleTextEncoder } from "./ensemble-encoder.ts"
import { EncoderLoadError } from "./errors.ts"
import { LsaTextEncoder } from "./lsa-encoder.ts"
import { SentenceTransformerEncoder } from "./sentence-transformer.ts"
import { SubwordTextEncoder } from "./subword-encoder.ts"
import type { PatentTokenizerSettings } from "../text/tokenize.ts"

/** Per-token vectors of one text, for late-interaction (MaxSim) scoring. */
export interface TokenVectors {
  /** What each vector stands for: a word (subword encoder), a vocabulary term (LSA: stem or bigram) or a word piece. */
  readonly tokens: ReadonlyArray<string>
  /** One L2-normalised vector per token. */
  readonly vectors: ReadonlyArray<Float32Array>
  /** Each token's weight in the pooled vector (SIF for the subword encoder, TF-IDF for LSA, 1 for transformers). */
  readonly weights: Float32Array
}

export interface PatentTextEncoder {
  readonly kind: "patent-subword" | "patent-lsa" | "patent-ensemble" | "sentence-transformer"
  /** Width of every vector returned. */
  readonly dimensions: number
  /** The patent tokeniser this encoder reads words with, where it has one (LSA): what counts a text's words. */
  readonly wordTokenizer?: PatentTokenizerSettings
  /** One pooled, L2-normalised vector per text, in order (zeros for a text with no known token). */
  encode(texts: ReadonlyArray<string>): Promise<Float32Array[]>
  encodeTokens(text: string): Promise<TokenVectors>
  encodeTokensBatch(texts: ReadonlyArray<string>): Promise<TokenVectors[]>
  close(): Promise<void>
}

export interface EncoderSessionOptions {
  /** onnxruntime intra-op threads (default: onnxruntime's choice). */
  readonly threads?: number
}

/**
 * Opens an encoder folder, telling the kinds apart by their tokenizer.json: ours carry
 * `"kind": "patent-subword"` or `"patent-lsa"`, a Hugging Face one carries a `model` section (WordPiece).
 */
export const loadTextEncoder = async (folder: string, options: EncoderSessionOptions = {}): Promise<PatentTextEncoder> => {
  let tokenizer: { kind?: unknown; model?: unknown }
  try {
    tokenizer = JSON.parse(await fs.readFile(path.join(folder, "tokenizer.json"), "utf8"))
  } catch (e) {
    throw new EncoderLoadError({ folder, reason: `tokenizer.json unreadable (${(e as Error).message})` })
  }
  if (tokenizer.kind === "patent-subword") return SubwordTextEncoder.load(folder, options)
  if (tokenizer.kind === "patent-lsa") return LsaTextEncoder.load(folder, options)
  if (tokenizer.kind === "patent-ensemble") return EnsembleTextEncoder.load(folder, loadTextEncoder, options)
  if (tokenizer.model !== undefined) return SentenceTransformerEncoder.load(folder, options)
  throw new EncoderLoadError({ folder, reason: "tokenizer.json is neither a patent-subword or patent-lsa settings file nor a Hugging Face tokenizer" })
}
