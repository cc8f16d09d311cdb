/**
 * JSON-RPC checks the MCP SDK would otherwise answer as an internal error (-32603) with its raw
 * validation dump: `tools/call` whose `arguments` is present but not an object is invalid params
 * (-32602) and says so in a sentence.
 */
type JsonRpcMessage = { readonly jsonrpc?: unknown; readonly id?: unknown; readonly method?: unknown; readonly params?: unknown }

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)

const invalidParams = (id: unknown, message: string) => ({
  jsonrpc: "2.0" as const,
  id: typeof id === "string" || typeof id === "number" ? id : null,
  error: { code: -32602, message }
})

/** The error answer for a message whose tool-call parameters are malformed, if any. */
const checkMessage = (message: unknown) => {
  if (!isObject(message)) return undefined
  const m = message as JsonRpcMessage
  if (m.method !== "tools/call") return undefined
  if (!isObject(m.params)) return invalidParams(m.id, "params: must be an object with name and arguments")
  if (typeof m.params.name !== "string") return invalidParams(m.id, "params.name: must be a tool name (string)")
  if ("arguments" in m.params && m.params.arguments !== undefined && !isObject(m.params.arguments)) {
    return invalidParams(m.id, "params.arguments: must be an object of the tool's input fields (omit it for none)")
  }
  return undefined
}

/**
 * The JSON-RPC answer to send instead of dispatching, for a single malformed tool call. Batches
 * (dropped from the protocol in 2025-06) go to the SDK as they are.
 */
export const malformedToolCall = (body: unknown): unknown => (Array.isArray(body) ? undefined : checkMessage(body))
