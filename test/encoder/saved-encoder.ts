/** A trained subword model written as an encoder folder in a scratch directory and loaded back, as the hub would load it. */
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { loadTextEncoder, type PatentTextEncoder } from "../../core/encoder/encoder.ts"
import { saveSubwordEncoder } from "../../pipeline/encoder/save.ts"
import type { TrainedSubwordEncoder } from "../../pipeline/encoder/subword-train.ts"

export const savedSubwordEncoder = async (model: TrainedSubwordEncoder, prefix: string): Promise<{ encoder: PatentTextEncoder; dispose: () => Promise<void> }> => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix))
  await saveSubwordEncoder(dir, model)
  const encoder = await loadTextEncoder(path.join(dir, "encoder"))
  return {
    encoder,
    dispose: async () => {
      await encoder.close()
      await fs.rm(dir, { recursive: true, force: true })
    }
  }
}
