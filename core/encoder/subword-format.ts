/**
 * The subword (fastText-style) encoder's on-disk format, shared by the writer (pipeline) and
 * the reader (hub) without either loading the other's dependencies.
 *
 * An encoder folder holds
 *   model.onnx      the embedding-bag graph with the trained input matrix (subword-onnx.ts)
 *   tokenizer.json  SubwordEncoderSettings (kind "patent-subword"): how text becomes rows and weights
 *   vocab.json      the trainer's dictionary (words in row order and their corpus counts)
 *   training.json   what it was trained on, how long it took
 */

export const subwordEncoderFiles = { model: "model.onnx", vocabulary: "vocab.json", settings: "tokenizer.json" } as const

/** The ONNX graph's tensors: a batch of words in, each word's vectors out (subword-onnx.ts). */
export const subwordInputNames = { rows: "word_piece_rows", pieceWeights: "word_piece_weights" } as const
export const subwordOutputNames = { tokens: "token_embeddings", specific: "specific_embeddings" } as const

/**
 * The graph of folders written before the per-word one: whole texts in, padded to
 * [batch, words, pieces], pooled inside the graph. Such folders are re-exported at load
 * (subword-encoder.ts).
 */
export const legacySubwordInputNames = { rows: "piece_rows", pieceWeights: "piece_weights", wordWeights: "word_weights" } as const

/** tokenizer.json of a subword encoder folder. */
export interface SubwordEncoderSettings {
  readonly kind: "patent-subword"
  readonly version: 1
  /** Width of every vector. */
  readonly dimensions: number
  /** Character n-gram lengths of the trainer (fastText minn/maxn), counted in code points. */
  readonly minn: number
  readonly maxn: number
  /** Hash buckets for character n-grams (fastText bucket): rows nwords … nwords + bucket − 1. */
  readonly bucket: number
  /** Words in the trainer's dictionary (rows 0 … nwords − 1). */
  readonly nwords: number
  /** Word weight in the pooled vector: SIF a / (a + p(word)), p from the training counts. */
  readonly pooling: { readonly scheme: "sif"; readonly a: number; readonly totalTokens: number }
  /** Words with no letter or digit are dropped; text is NFKC-folded and lower-cased. */
  readonly normalization: "nfkc-lower-alnum"
  /**
   * "joined-bigrams": the dictionary holds two-word terms as "first_second" tokens, and a text's
   * adjacent words that form one are pooled with it too (subwords.ts textTokens). Absent: words only.
   */
  readonly phrases?: "joined-bigrams"
  /** A phrase token's weight as a multiple of its SIF weight (subwords.ts sifWeight), 0 to 4; absent: 1. */
  readonly phraseWeight?: number
}

export const parseSubwordEncoderSettings = (json: unknown): SubwordEncoderSettings => {
  const o = json as Partial<SubwordEncoderSettings>
  if (o?.kind !== "patent-subword") throw new Error(`not a patent-subword encoder settings file (kind ${String(o?.kind)})`)
  if (o.version !== 1) throw new Error(`unsupported patent-subword settings version ${String(o.version)}`)
  if (o.normalization !== "nfkc-lower-alnum") throw new Error(`unsupported normalization ${String(o.normalization)}`)
  if (o.pooling?.scheme !== "sif") throw new Error(`unsupported pooling ${String(o.pooling?.scheme)}`)
  if (o.phrases !== undefined && o.phrases !== "joined-bigrams") throw new Error(`unsupported phrases ${String(o.phrases)}`)
  const multiple = (v: unknown, name: string) => {
    const x = Number(v)
    if (!(x >= 0 && x <= 4)) throw new Error(`tokenizer.json: ${name} must be a number from 0 to 4`)
    return x
  }
  const n = (v: unknown, name: string) => {
    const x = Number(v)
    if (!Number.isInteger(x) || x < 0) throw new Error(`tokenizer.json: ${name} must be a non-negative integer`)
    return x
  }
  return {
    kind: "patent-subword",
    version: 1,
    dimensions: n(o.dimensions, "dimensions"),
    minn: n(o.minn, "minn"),
    maxn: n(o.maxn, "maxn"),
    bucket: n(o.bucket, "bucket"),
    nwords: n(o.nwords, "nwords"),
    pooling: { scheme: "sif", a: Number(o.pooling.a), totalTokens: Number(o.pooling.totalTokens) },
    normalization: "nfkc-lower-alnum",
    ...(o.phrases === "joined-bigrams" ? { phrases: "joined-bigrams" as const, phraseWeight: multiple(o.phraseWeight ?? 1, "phraseWeight") } : {})
  }
}

/** vocab.json: word i is row i of the input matrix (row i + 1 of the graph's table). */
export interface SubwordVocabularyFile {
  readonly format: "patent-subword-vocabulary/1"
  readonly words: ReadonlyArray<string>
  readonly counts: ReadonlyArray<number>
}
