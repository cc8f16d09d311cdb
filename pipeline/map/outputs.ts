/** What the map stage writes (see stage.ts and frame.ts), as handles for later stages. */
import { output } from "../stages/outputs.ts"

export const mapOutputs = {
  coordinates: output("map", "map/coordinates.parquet"),
  frame: output("map", "map/frame.json"),
  frameVectors: output("map", "map/frame.f32")
} as const
