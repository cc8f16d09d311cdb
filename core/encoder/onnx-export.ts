/**
 * The LSA encoder as an ONNX graph (opset 17, IR 8, standard ops only).
 *
 *   token_ids     int64 [batch, seq]   vocabulary ids, 0 = padding
 *   token_weights float [batch, seq]   TF-IDF weights (0 for padding)
 *   → sentence_embedding float [batch, D] = L2-normalise(Σ_seq weight · term_vectors[id])
 *   → token_embeddings   float [batch, seq, D] = term_vectors[id] / ‖term_vectors[id]‖
 *
 * term_vectors [V + 1, D] holds the SVD's right singular vectors (row 0, padding, is zero), so
 * the pooled output is the classic LSA projection x·V_k of the text's TF-IDF vector. Norms are
 * clamped below by 1e-12, so an empty or all-stop-word text (or a padding token) gives zeros.
 */
import { lsaInputNames, lsaOutputNames } from "./lsa-format.ts"
import { encodeOnnxModel, floatTensor, int64Tensor, node, tensorValue } from "./onnx-builder.ts"

export const normEpsilon = 1e-12

export const buildLsaEncoderModel = (
  termVectors: Float32Array,
  rows: number,
  dimensions: number,
  metadata: Readonly<Record<string, string>> = {}
): Uint8Array => {
  if (termVectors.length !== rows * dimensions) throw new Error("term vector table does not match rows × dimensions")
  const { ids, weights } = lsaInputNames
  const { sentence, tokens } = lsaOutputNames
  return encodeOnnxModel({
    name: "patent_lsa_encoder",
    doc: "TF-IDF → truncated SVD (LSA) text encoder trained on the patent corpus",
    metadata: { ...metadata, dimensions: String(dimensions), vocabulary_rows: String(rows) },
    initializers: [
      floatTensor("term_vectors", [rows, dimensions], termVectors),
      floatTensor("epsilon", [], new Float32Array([normEpsilon])),
      int64Tensor("axis_last", [1], [-1]),
      int64Tensor("axis_seq", [1], [1])
    ],
    inputs: [tensorValue(ids, "int64", ["batch", "seq"]), tensorValue(weights, "float", ["batch", "seq"])],
    outputs: [
      tensorValue(sentence, "float", ["batch", dimensions]),
      tensorValue(tokens, "float", ["batch", "seq", dimensions])
    ],
    nodes: [
      node("Gather", ["term_vectors", ids], ["token_vectors"], { axis: { i: 0 } }),
      node("Unsqueeze", [weights, "axis_last"], ["weights_column"]),
      node("Mul", ["token_vectors", "weights_column"], ["weighted_vectors"]),
      node("ReduceSum", ["weighted_vectors", "axis_seq"], ["pooled"], { keepdims: { i: 0 } }),
      node("ReduceL2", ["pooled"], ["pooled_norm"], { axes: { ints: [-1] }, keepdims: { i: 1 } }),
      node("Max", ["pooled_norm", "epsilon"], ["pooled_norm_safe"]),
      node("Div", ["pooled", "pooled_norm_safe"], [sentence]),
      node("ReduceL2", ["token_vectors"], ["token_norm"], { axes: { ints: [-1] }, keepdims: { i: 1 } }),
      node("Max", ["token_norm", "epsilon"], ["token_norm_safe"]),
      node("Div", ["token_vectors", "token_norm_safe"], [tokens])
    ]
  })
}
