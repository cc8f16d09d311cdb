/** onnxruntime-node session settings shared by every encoder kind. */
import type ort from "onnxruntime-node"
import type { EncoderSessionOptions } from "./encoder.ts"

export const sessionOptions = (options: EncoderSessionOptions): ort.InferenceSession.SessionOptions => ({
  graphOptimizationLevel: "all",
  ...(options.threads ? { intraOpNumThreads: options.threads } : {})
})
