/** What the embed stage writes (see stage.ts), as handles for later stages. */
import { VECTOR_FILE } from "../../core/index/vector-file.ts"
import { output } from "../stages/outputs.ts"

export const embedOutputs = {
  vectors: output("embed", "index/vectors.parquet"),
  index: output("embed", "index/hnsw.usearch"),
  vectorFile: output("embed", `index/${VECTOR_FILE}`),
  info: output("embed", "index/index.json")
} as const
