/**
 * The MCP endpoint's handler: reads the JSON-RPC body once from the socket (as admission does for
 * REST bodies) and hands it to `McpEndpoint`, whose tool calls come back through `RestDispatch`
 * (api/dispatch/), provided per request by the outer middleware.
 */
import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import { Settings } from "../config.ts"
import { McpEndpoint, RestDispatch } from "../dispatch/RestDispatch.ts"
import { PatentApi } from "../Api.ts"
import { bufferBody, readJsonBody } from "../http/middleware/body.ts"

export const McpLive = HttpApiBuilder.group(PatentApi, "mcp", (handlers) =>
  Effect.gen(function* () {
    const { maxBodyBytes } = yield* Settings
    const mcp = yield* McpEndpoint
    return handlers.handleRaw("jsonRpc", ({ request }) =>
      Effect.gen(function* () {
        const buffered = yield* bufferBody(request, maxBodyBytes)
        const body = yield* readJsonBody(buffered, maxBodyBytes)
        const rest = yield* Effect.serviceOption(RestDispatch)
        if (Option.isNone(rest)) return yield* Effect.dieMessage("RestDispatch is provided by the outer middleware")
        return yield* mcp.handle(buffered, body).pipe(Effect.provideService(RestDispatch, rest.value), Effect.provideService(HttpServerRequest.HttpServerRequest, buffered))
      })
    )
  })
)
