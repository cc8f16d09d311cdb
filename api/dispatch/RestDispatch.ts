/**
 * The seam between the REST surface and the MCP mount, in neither of them: the MCP mount asks
 * for `RestDispatch` to run a tool's REST route, the HTTP layer provides it (running the call
 * through the same middleware and HttpApi app as a request from the network), and the HTTP layer
 * reaches the mount only through `McpEndpoint`. api/http and api/mcp import this module, never
 * each other's code (the MCP tool list reads the REST declaration, a one-way dependency).
 */
import type { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Context, type Effect } from "effect"

/** Where the MCP endpoint is mounted (its route in mcp/Api.ts; the outer middleware labels it). */
export const MCP_PATH = "/mcp"

/** A REST call made on behalf of an MCP tool call. */
export interface InternalCall {
  readonly method: "GET" | "POST"
  readonly path: string
  readonly query: Record<string, string>
  readonly body?: unknown
}

/** The REST answer: its status and its parsed JSON body (null when empty). */
export interface RestAnswer {
  readonly status: number
  readonly body: unknown
}

/**
 * Runs a REST call as the client of the current request (its Authorization header and remote
 * address), so the call is authenticated, permission-checked and metered exactly like REST.
 */
export class RestDispatch extends Context.Tag("api/RestDispatch")<
  RestDispatch,
  { readonly call: (call: InternalCall) => Effect.Effect<RestAnswer, never, HttpServerRequest.HttpServerRequest> }
>() {}

/** The MCP endpoint: answers one JSON-RPC POST (its body already read and parsed). */
export class McpEndpoint extends Context.Tag("api/McpEndpoint")<
  McpEndpoint,
  {
    readonly handle: (
      request: HttpServerRequest.HttpServerRequest,
      parsedBody: unknown
    ) => Effect.Effect<HttpServerResponse.HttpServerResponse, never, RestDispatch | HttpServerRequest.HttpServerRequest>
  }
>() {}
