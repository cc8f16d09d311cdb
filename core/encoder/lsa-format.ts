/**
 * Names fixed by the LSA encoder's on-disk format, shared by the writer (pipeline) and the
 * reader (hub) without either loading the other's dependencies.
 */

/** Files inside an LSA encoder folder. */
export const lsaEncoderFiles = { model: "model.onnx", vocabulary: "vocab.json", settings: "tokenizer.json" } as const

/** The ONNX graph's tensors. */
export const lsaInputNames = { ids: "token_ids", weights: "token_weights" } as const
export const lsaOutputNames = { sentence: "sentence_embedding", tokens: "token_embeddings" } as const
