/**
 * /mcp: MCP over streamable HTTP (stateless, JSON responses) with the SDK's own server and
 * transport, provided as the `McpEndpoint` service. The request is already authenticated; each
 * tool call runs its REST route through `RestDispatch` (api/dispatch/), so it is permission-checked
 * and metered exactly like REST. A REST error comes back as an MCP tool error carrying the status
 * and the REST body.
 */
import { type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js"
import { Effect, Layer, Runtime } from "effect"
import { type InternalCall, McpEndpoint, RestDispatch, type RestAnswer } from "../dispatch/RestDispatch.ts"
import { malformedToolCall } from "./arguments.ts"
import { toolRegistry } from "./tools.ts"

const SERVER_INFO = { name: "patent-intelligence", version: "0.1.0" }

const makeServer = (dispatch: (call: InternalCall) => Promise<RestAnswer>) => {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: toolRegistry.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema as any }))
  }))
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = toolRegistry.find((t) => t.name === request.params.name)
    if (!tool) {
      return { isError: true, content: [{ type: "text" as const, text: JSON.stringify({ status: 404, error: `unknown tool ${request.params.name}` }) }] }
    }
    const { status, body } = await dispatch(tool.toCall((request.params.arguments ?? {}) as Record<string, unknown>))
    if (status >= 400) {
      return { isError: true, content: [{ type: "text" as const, text: JSON.stringify({ status, ...(body as object) }) }] }
    }
    return {
      content: [{ type: "text" as const, text: JSON.stringify(body) }],
      ...(body && typeof body === "object" && !Array.isArray(body) ? { structuredContent: body as Record<string, unknown> } : {})
    }
  })
  return server
}

export const McpEndpointLive = Layer.succeed(
  McpEndpoint,
  McpEndpoint.of({
    handle: (request, parsedBody) =>
      Effect.gen(function* () {
        const refused = malformedToolCall(parsedBody)
        if (refused !== undefined) return HttpServerResponse.unsafeJson(refused, { status: 200 })
        const rest = yield* RestDispatch
        // Tool calls run as the client of this request (its key and address).
        const run = Runtime.runPromise(yield* Effect.runtime<HttpServerRequest.HttpServerRequest>())
        return yield* Effect.promise(() => answer(request, parsedBody, (call) => run(rest.call(call))))
      })
  })
)

const answer = async (request: HttpServerRequest.HttpServerRequest, parsedBody: unknown, dispatch: (call: InternalCall) => Promise<RestAnswer>) => {
  const server = makeServer(dispatch)
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  await server.connect(transport)
  try {
    const headers = new Headers()
    for (const [k, v] of Object.entries(request.headers)) if (typeof v === "string") headers.set(k, v)
    const web = new Request("http://127.0.0.1/mcp", { method: request.method, headers })
    const response = await transport.handleRequest(web, parsedBody === undefined ? {} : { parsedBody })
    // Read the body before closing the server: in JSON mode it is complete once handleRequest resolves.
    const text = await response.text()
    return HttpServerResponse.text(text, {
      status: response.status,
      headers: Object.fromEntries([...response.headers.entries()].filter(([k]) => k !== "content-type" && k !== "content-length")),
      contentType: response.headers.get("content-type") ?? "application/json"
    })
  } finally {
    await server.close()
  }
}
