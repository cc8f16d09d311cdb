/**
 * The subword encoder as an ONNX graph (opset 17, IR 8, standard ops only): an embedding bag
 * over the trainer's input matrix, one row per word.
 *
 *   word_piece_rows    int64 [words, pieces]  table rows of each word (input-matrix row + 1; 0 = padding)
 *   word_piece_weights float [words, pieces]  1 / (rows of the word), 0 for padding
 *   → token_embeddings    float [words, D] t = unit(Σ_pieces piece_weight · table[row])   (fastText's word vector, unit length)
 *   → specific_embeddings float [words, D] (t − (t·u) u) Wᵀ
 *
 * table [rows + 1, D] is the input matrix with a zero padding row in front; u is the corpus's
 * common direction (SIF's first principal component; zero leaves t as it is); W is the map learned
 * from the CPC hierarchy (pipeline/encoder/cpc-alignment.ts), absent from graphs trained without
 * one (then the identity). Norms are clamped below by 1e-12, so padding gives zeros.
 *
 * A text's vector is unit(Σ_words SIF weight × occurrences × specific_embedding): the runtime
 * (subword-encoder.ts) pools it from the vectors of the text's distinct words, each computed once
 * however many texts of a batch hold it. Removing the common component from each unit word vector
 * before the sum equals removing it from the sum, without cancellation between large totals.
 *
 * Folders written before this graph hold one that took whole texts (piece_rows [batch, words,
 * pieces], word_weights [batch, words]) and pooled inside the graph, gathering [batch, words,
 * pieces, D]; `runnableSubwordModel` rebuilds this graph from its table and common component.
 */
import { encodeOnnxModel, floatTensor, int64Tensor, node, onnx, tensorValue } from "./onnx-builder.ts"
import { legacySubwordInputNames, subwordInputNames, subwordOutputNames } from "./subword-format.ts"

export const normEpsilon = 1e-12

/** Written into the model's metadata: which graph this is. */
export const subwordGraphFormat = "patent-subword-words/2"

type Tensor = ReturnType<typeof floatTensor>

/** W row-major (out[r] = Σ_c W[r·D + c] · in[c]) as the [D, D] right operand of a row-vector MatMul: Wᵀ. */
const alignmentOperand = (w: Float32Array, d: number) => {
  const t = new Float32Array(d * d)
  for (let r = 0; r < d; r++) for (let c = 0; c < d; c++) t[c * d + r] = w[r * d + c]
  return floatTensor("alignment_t", [d, d], t)
}

const wordGraph = (
  table: Tensor,
  rows: number,
  dimensions: number,
  commonComponent: Float32Array,
  metadata: Readonly<Record<string, string>>,
  alignment: Float32Array | undefined
) => {
  if (commonComponent.length !== dimensions) throw new Error("common component does not match dimensions")
  if (alignment && alignment.length !== dimensions * dimensions) throw new Error("alignment map does not match dimensions")
  const { rows: ids, pieceWeights } = subwordInputNames
  const { tokens, specific } = subwordOutputNames
  return encodeOnnxModel({
    name: "patent_subword_encoder",
    doc: "fastText-style skip-gram with character n-grams, trained on the patent corpus: unit word vectors, and the same less the common component (SIF pooling is the runtime's weighted sum)",
    metadata: { ...metadata, format: subwordGraphFormat, dimensions: String(dimensions), table_rows: String(rows), ...(alignment ? { alignment: "cpc" } : {}) },
    initializers: [
      table,
      ...(alignment ? [alignmentOperand(alignment, dimensions)] : []),
      floatTensor("common_component", [1, dimensions], commonComponent),
      floatTensor("epsilon", [], new Float32Array([normEpsilon])),
      int64Tensor("axis_last", [1], [-1]),
      int64Tensor("axis_pieces", [1], [1])
    ],
    inputs: [tensorValue(ids, "int64", ["words", "pieces"]), tensorValue(pieceWeights, "float", ["words", "pieces"])],
    outputs: [tensorValue(tokens, "float", ["words", dimensions]), tensorValue(specific, "float", ["words", dimensions])],
    nodes: [
      node("Gather", ["row_table", ids], ["piece_vectors"], { axis: { i: 0 } }),
      // [words, 1, pieces] × [words, pieces, D]: the weighted sum over pieces without a weighted copy of the gathered rows.
      node("Unsqueeze", [pieceWeights, "axis_pieces"], ["piece_weight_row"]),
      node("MatMul", ["piece_weight_row", "piece_vectors"], ["word_vector_rows"]),
      node("Squeeze", ["word_vector_rows", "axis_pieces"], ["word_vectors"]),
      node("ReduceL2", ["word_vectors"], ["word_norm"], { axes: { ints: [-1] }, keepdims: { i: 1 } }),
      node("Max", ["word_norm", "epsilon"], ["word_norm_safe"]),
      node("Div", ["word_vectors", "word_norm_safe"], [tokens]),
      node("Mul", [tokens, "common_component"], ["tokens_by_common"]),
      node("ReduceSum", ["tokens_by_common", "axis_last"], ["common_weight"], { keepdims: { i: 1 } }),
      node("Mul", ["common_weight", "common_component"], ["common_part"]),
      ...(alignment
        ? [node("Sub", [tokens, "common_part"], ["specific_unaligned"]), node("MatMul", ["specific_unaligned", "alignment_t"], [specific])]
        : [node("Sub", [tokens, "common_part"], [specific])])
    ]
  })
}

export const buildSubwordEncoderModel = (
  table: Float32Array,
  rows: number,
  dimensions: number,
  commonComponent: Float32Array,
  metadata: Readonly<Record<string, string>> = {},
  alignment?: Float32Array
): Uint8Array => {
  if (table.length !== rows * dimensions) throw new Error("row table does not match rows × dimensions")
  return wordGraph(floatTensor("row_table", [rows, dimensions], table), rows, dimensions, commonComponent, metadata, alignment)
}

/**
 * The model.onnx bytes the runtime opens: a folder's own, or for a folder written before the
 * per-word graph (its graph takes texts: piece_rows, piece_weights, word_weights) this graph
 * rebuilt from it. Decoding leaves the row table's bytes where they are, so telling the two apart
 * costs little.
 */
export const runnableSubwordModel = (bytes: Uint8Array): Uint8Array => {
  const model = onnx.ModelProto.decode(bytes)
  const inputs = new Set((model.graph?.input ?? []).map((i) => i.name))
  return Object.values(legacySubwordInputNames).every((n) => inputs.has(n)) ? wordGraphOfLegacyGraph(model) : bytes
}

/**
 * This graph, rebuilt from a decoded model of the earlier whole-text graph: the same row table
 * (its bytes taken over as they are), common component and metadata.
 */
const wordGraphOfLegacyGraph = (model: ReturnType<typeof onnx.ModelProto.decode>): Uint8Array => {
  const initializer = (name: string) => model.graph?.initializer?.find((t) => t.name === name)
  const table = initializer("row_table")
  const common = initializer("common_component")
  const isFloat = (t: typeof table): t is Tensor => t?.dataType === onnx.TensorProto.DataType.FLOAT && (t.rawData?.byteLength ?? 0) > 0
  if (!isFloat(table) || !isFloat(common) || table.dims?.length !== 2) throw new Error("not a subword encoder graph: no float row_table [rows, D] and common_component")
  const [rows, dimensions] = table.dims.map(Number)
  if (table.rawData.byteLength !== rows * dimensions * 4) throw new Error("row_table holds the wrong number of bytes")
  // A copy: the raw bytes of a decoded tensor need not be 4-byte aligned.
  const commonComponent = new Float32Array(Uint8Array.from(common.rawData).buffer)
  const metadata = Object.fromEntries((model.metadataProps ?? []).map((p) => [p.key ?? "", p.value ?? ""]))
  return wordGraph(table, rows, dimensions, commonComponent, metadata, undefined)
}
