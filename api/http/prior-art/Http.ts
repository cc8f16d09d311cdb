/** Prior-art handlers: search and claims lookup through PriorArtService, in the `{success, data}` envelope. */
import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { Effect, Layer } from "effect"
import { PriorArtService } from "../../prior-art/PriorArtService.ts"
import { PatentApi } from "../Api.ts"
import { requestIdFor } from "../middleware/request-id.ts"

/**
 * The id the gateway answers in X-Request-Id: the caller's own when it sent a usable one. The
 * gateway does not hand its generated id to handlers, so without a caller id the body carries a
 * fresh one of the same form.
 */
const requestId = Effect.map(HttpServerRequest.HttpServerRequest, (r) => requestIdFor(r.headers["x-request-id"]))

export const PriorArtLive = HttpApiBuilder.group(PatentApi, "prior-art", (handlers) =>
  Effect.gen(function* () {
    const service = yield* PriorArtService
    return handlers
      .handle("search", ({ payload }) =>
        Effect.flatMap(requestId, (id) => service.searchPriorArt(payload, id)).pipe(Effect.map((data) => ({ success: true as const, data })))
      )
      .handle("claims", ({ payload }) =>
        Effect.flatMap(requestId, (id) => service.getPatentClaims(payload, id)).pipe(Effect.map((data) => ({ success: true as const, data })))
      )
  })
).pipe(Layer.provide(PriorArtService.Default))
