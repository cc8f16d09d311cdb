/** onnxruntime-node session settings shared by every encoder kind. */
import type ort from "onnxruntime-node"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import type { EncoderSessionOptions } from "./encoder.ts"
import { EncoderLoadError } from "./errors.ts"

export const sessionOptions = (options: EncoderSessionOptions): ort.InferenceSession.SessionOptions => ({
  graphOptimizationLevel: "all",
  ...(options.threads ? { intraOpNumThreads: options.threads } : {})
})

/** One JSON file of an exported encoder folder; an unreadable one names the file. */
export const readEncoderJson = async (folder: string, name: string): Promise<unknown> => {
  try {
    return JSON.parse(await fs.readFile(path.join(folder, name), "utf8")) as unknown
  } catch (e) {
    throw new EncoderLoadError({ folder, reason: `${name} unreadable (${(e as Error).message})` })
  }
}
