/** Prior-art handlers: search and claims lookup through PriorArtService, in the `{success, data}` envelope. */
import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { Effect, Layer } from "effect"
import { PriorArtService } from "./PriorArtService.ts"
import { PatentApi } from "../Api.ts"
import { requestIdFor } from "../http/middleware/request-id.ts"

/**
 * The id the response carries in X-Request-Id: the outer middleware (api/http/middleware/edge.ts)
 * sets it on the request the handlers see, the caller's own when it sent a usable one.
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
