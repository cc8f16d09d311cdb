/**
 * Body checks that run before routing so every failure gets its family's envelope: a size limit
 * (declared or observed), an empty body, a content type other than JSON, malformed JSON.
 * The text read here is cached by the request, so HttpApi's own decoding reuses it.
 */
import { HttpIncomingMessage, type HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import { InvalidRequest } from "../../domain/errors.ts"
import { PayloadTooLarge, UnsupportedMediaType } from "../envelopes.ts"

export const readJsonBody = (request: HttpServerRequest.HttpServerRequest, maxBytes: number) =>
  Effect.gen(function* () {
    const tooLarge = new PayloadTooLarge({ message: `body: must be at most ${maxBytes} bytes` })
    const declared = Number(request.headers["content-length"] ?? "0")
    if (declared > maxBytes) return yield* Effect.fail(tooLarge)
    const text = yield* request.text.pipe(
      HttpIncomingMessage.withMaxBodySize(Option.some(maxBytes)),
      Effect.mapError((e) =>
        String((e as { cause?: unknown }).cause ?? e).includes("maxBytes") ? tooLarge : new InvalidRequest({ message: "body: could not be read" })
      )
    )
    if (text.trim() === "") return yield* Effect.fail(new InvalidRequest({ message: "body: a JSON object is required" }))
    if (!/application\/json/i.test(request.headers["content-type"] ?? "")) {
      return yield* Effect.fail(new UnsupportedMediaType({ message: "Content-Type: must be application/json" }))
    }
    return yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: (e) => new InvalidRequest({ message: `body: is not valid JSON (${e instanceof Error ? e.message : "parse error"})` })
    })
  })
