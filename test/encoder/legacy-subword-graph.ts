/**
 * The subword encoder's graph as folders written before the per-word graph hold it (b004e15 …
 * 3ca6e7f, core/encoder/subword-onnx.ts): whole texts in, padded to [batch, words, pieces], SIF
 * pooling inside the graph. Tests write such a folder and check that today's runtime encodes it as
 * that graph did.
 */
import ort from "onnxruntime-node"
import { encodeOnnxModel, floatTensor, int64Tensor, node, tensorValue } from "../../core/encoder/onnx-builder.ts"
import { legacySubwordInputNames } from "../../core/encoder/subword-format.ts"
import type { SubwordFeatures } from "../../core/encoder/subwords.ts"

export const buildLegacySubwordEncoderModel = (
  table: Float32Array,
  rows: number,
  dimensions: number,
  commonComponent: Float32Array,
  metadata: Readonly<Record<string, string>> = {}
): Uint8Array => {
  const { rows: ids, pieceWeights, wordWeights } = legacySubwordInputNames
  const [sentence, tokens] = ["sentence_embedding", "token_embeddings"]
  return encodeOnnxModel({
    name: "patent_subword_encoder",
    doc: "fastText-style skip-gram with character n-grams, trained on the patent corpus; SIF pooling",
    metadata: { ...metadata, dimensions: String(dimensions), table_rows: String(rows) },
    initializers: [
      floatTensor("row_table", [rows, dimensions], table),
      floatTensor("common_component", [1, dimensions], commonComponent),
      floatTensor("epsilon", [], new Float32Array([1e-12])),
      int64Tensor("axis_last", [1], [-1]),
      int64Tensor("axis_words", [1], [1]),
      int64Tensor("axis_pieces", [1], [2])
    ],
    inputs: [
      tensorValue(ids, "int64", ["batch", "words", "pieces"]),
      tensorValue(pieceWeights, "float", ["batch", "words", "pieces"]),
      tensorValue(wordWeights, "float", ["batch", "words"])
    ],
    outputs: [tensorValue(sentence, "float", ["batch", dimensions]), tensorValue(tokens, "float", ["batch", "words", dimensions])],
    nodes: [
      node("Gather", ["row_table", ids], ["piece_vectors"], { axis: { i: 0 } }),
      node("Unsqueeze", [pieceWeights, "axis_last"], ["piece_weight_column"]),
      node("Mul", ["piece_vectors", "piece_weight_column"], ["weighted_pieces"]),
      node("ReduceSum", ["weighted_pieces", "axis_pieces"], ["word_vectors"], { keepdims: { i: 0 } }),
      node("ReduceL2", ["word_vectors"], ["word_norm"], { axes: { ints: [-1] }, keepdims: { i: 1 } }),
      node("Max", ["word_norm", "epsilon"], ["word_norm_safe"]),
      node("Div", ["word_vectors", "word_norm_safe"], [tokens]),
      node("Mul", [tokens, "common_component"], ["tokens_by_common"]),
      node("ReduceSum", ["tokens_by_common", "axis_last"], ["common_weight"], { keepdims: { i: 1 } }),
      node("Mul", ["common_weight", "common_component"], ["common_part"]),
      node("Sub", [tokens, "common_part"], ["specific_tokens"]),
      node("Unsqueeze", [wordWeights, "axis_last"], ["word_weight_column"]),
      node("Mul", ["specific_tokens", "word_weight_column"], ["weighted_words"]),
      node("ReduceSum", ["weighted_words", "axis_words"], ["pooled"], { keepdims: { i: 0 } }),
      node("ReduceL2", ["pooled"], ["pooled_norm"], { axes: { ints: [-1] }, keepdims: { i: 1 } }),
      node("Max", ["pooled_norm", "epsilon"], ["pooled_norm_safe"]),
      node("Div", ["pooled", "pooled_norm_safe"], [sentence])
    ]
  })
}

/** Text vectors and token vectors as the earlier runtime read them from such a graph (one padded batch). */
export const runLegacySubwordGraph = async (session: ort.InferenceSession, features: ReadonlyArray<SubwordFeatures>) => {
  const words = Math.max(1, ...features.map((f) => f.words.length))
  const pieces = Math.max(1, ...features.flatMap((f) => f.rows.map((r) => r.length)))
  const rows = new BigInt64Array(features.length * words * pieces)
  const pieceWeights = new Float32Array(features.length * words * pieces)
  const wordWeights = new Float32Array(features.length * words)
  for (const [b, f] of features.entries()) {
    for (const [w, wordRows] of f.rows.entries()) {
      const at = (b * words + w) * pieces
      for (const [p, row] of wordRows.entries()) {
        rows[at + p] = BigInt(row + 1)
        pieceWeights[at + p] = 1 / wordRows.length
      }
      wordWeights[b * words + w] = f.weights[w]
    }
  }
  const out = await session.run({
    [legacySubwordInputNames.rows]: new ort.Tensor("int64", rows, [features.length, words, pieces]),
    [legacySubwordInputNames.pieceWeights]: new ort.Tensor("float32", pieceWeights, [features.length, words, pieces]),
    [legacySubwordInputNames.wordWeights]: new ort.Tensor("float32", wordWeights, [features.length, words])
  })
  const sentence = out.sentence_embedding.data as Float32Array
  const tokens = out.token_embeddings.data as Float32Array
  const d = out.sentence_embedding.dims[1]
  return features.map((f, b) => ({
    vector: sentence.slice(b * d, (b + 1) * d),
    tokens: f.words.map((_, w) => tokens.slice((b * words + w) * d, (b * words + w + 1) * d))
  }))
}
