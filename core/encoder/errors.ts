/** Why an encoder folder could not be used (missing file, unsupported tokenizer, bad model). */
import { Data } from "effect"

export class EncoderLoadError extends Data.TaggedError("EncoderLoadError")<{
  readonly folder: string
  readonly reason: string
}> {
  override get message() {
    return `cannot load the encoder in ${this.folder}: ${this.reason}`
  }
}
