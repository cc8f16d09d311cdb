/**
 * The subword encoder as an ONNX graph (opset 17, IR 8, standard ops only): an embedding bag
 * over the trainer's input matrix, then SIF pooling.
 *
 *   piece_rows    int64 [batch, words, pieces]  table rows of each word (input-matrix row + 1; 0 = padding)
 *   piece_weights float [batch, words, pieces]  1 / (rows of the word), 0 for padding
 *   word_weights  float [batch, words]          SIF weight × occurrences, 0 for padding
 *   → token_embeddings   float [batch, words, D] = unit(Σ_pieces piece_weight · table[row])   (fastText's word vector, unit length)
 *   → sentence_embedding float [batch, D]        = unit(Σ_words word_weight · (t − (t·u) u)), t = token_embedding
 *
 * table [rows + 1, D] is the input matrix with a zero padding row in front; u is the corpus's
 * common direction (SIF's first principal component; zero leaves s as it is). Norms are clamped
 * below by 1e-12, so padding and empty texts give zeros.
 */
import { encodeOnnxModel, floatTensor, int64Tensor, node, tensorValue } from "./onnx-builder.ts"
import { subwordInputNames, subwordOutputNames } from "./subword-format.ts"

export const normEpsilon = 1e-12

export const buildSubwordEncoderModel = (
  table: Float32Array,
  rows: number,
  dimensions: number,
  commonComponent: Float32Array,
  metadata: Readonly<Record<string, string>> = {}
): Uint8Array => {
  if (table.length !== rows * dimensions) throw new Error("row table does not match rows × dimensions")
  if (commonComponent.length !== dimensions) throw new Error("common component does not match dimensions")
  const { rows: ids, pieceWeights, wordWeights } = subwordInputNames
  const { sentence, tokens } = subwordOutputNames
  return encodeOnnxModel({
    name: "patent_subword_encoder",
    doc: "fastText-style skip-gram with character n-grams, trained on the patent corpus; SIF pooling",
    metadata: { ...metadata, dimensions: String(dimensions), table_rows: String(rows) },
    initializers: [
      floatTensor("row_table", [rows, dimensions], table),
      floatTensor("common_component", [1, dimensions], commonComponent),
      floatTensor("epsilon", [], new Float32Array([normEpsilon])),
      int64Tensor("axis_last", [1], [-1]),
      int64Tensor("axis_words", [1], [1]),
      int64Tensor("axis_pieces", [1], [2])
    ],
    inputs: [
      tensorValue(ids, "int64", ["batch", "words", "pieces"]),
      tensorValue(pieceWeights, "float", ["batch", "words", "pieces"]),
      tensorValue(wordWeights, "float", ["batch", "words"])
    ],
    outputs: [
      tensorValue(sentence, "float", ["batch", dimensions]),
      tensorValue(tokens, "float", ["batch", "words", dimensions])
    ],
    nodes: [
      node("Gather", ["row_table", ids], ["piece_vectors"], { axis: { i: 0 } }),
      node("Unsqueeze", [pieceWeights, "axis_last"], ["piece_weight_column"]),
      node("Mul", ["piece_vectors", "piece_weight_column"], ["weighted_pieces"]),
      node("ReduceSum", ["weighted_pieces", "axis_pieces"], ["word_vectors"], { keepdims: { i: 0 } }),
      node("ReduceL2", ["word_vectors"], ["word_norm"], { axes: { ints: [-1] }, keepdims: { i: 1 } }),
      node("Max", ["word_norm", "epsilon"], ["word_norm_safe"]),
      node("Div", ["word_vectors", "word_norm_safe"], [tokens]),
      // The common component leaves each unit word vector before the sum (the same as removing it
      // from the sum, but with no cancellation between large float32 totals).
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
