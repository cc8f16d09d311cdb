/** /mcp with the SDK's own client: the tools are the REST routes, authenticated and metered exactly like REST. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, startStubHub, startTestServer, type StubHub, type TestServer } from "./support.ts"

let server: TestServer
let hub: StubHub

beforeAll(async () => {
  hub = await startStubHub()
  server = await startTestServer({ hubUrl: hub.url })
})
afterAll(async () => {
  await server.close()
  await hub.close()
})

const connect = async (key: string) => {
  const client = new Client({ name: "api-test", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }))
  return client
}

const TOOLS = [
  "search_prior_art", "get_patent_claims", "get_patent_neighborhood", "get_patent_citations", "locate_in_patent_space",
  "find_whitespace", "check_antecedent_basis", "map_claim_support", "warm_up", "lookup_cpc_code", "get_patent_classification",
  "get_art_unit_profile", "find_examiner", "get_examiner_profile", "get_mpep_section", "get_epo_guideline", "get_form_paragraph",
  "find_form_paragraphs", "get_guidance_graph", "get_design_code"
]

const payload = (result: any) => JSON.parse(result.content[0].text)

describe("MCP", () => {
  it("lists the spec's tools with input schemas derived from the REST schemas", async () => {
    const client = await connect(await server.key())
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort())
    const cpc = tools.find((t) => t.name === "lookup_cpc_code")!
    expect(cpc.inputSchema.required).toEqual(["code"])
    expect((cpc.inputSchema.properties as any).childLimit).toMatchObject({ minimum: 0, maximum: 500 })
    const search = tools.find((t) => t.name === "search_prior_art")!
    expect((search.inputSchema.properties as any).count).toMatchObject({ maximum: 100 })
    await client.close()
  })

  it("calling a tool runs its REST route: same answer, same validation errors", async () => {
    const key = await server.key()
    const client = await connect(key)
    hub.state.ready = true
    const warmed = await client.callTool({ name: "warm_up", arguments: { rerank: true } })
    expect(warmed.isError).toBeFalsy()
    expect(payload(warmed)).toEqual((await call(server.url, "POST", "/api/v1/warmup?rerank=1", { key })).json)
    expect(hub.calls).toContain("POST /warmup?rerank=1")
    const invalid = await client.callTool({ name: "lookup_cpc_code", arguments: { code: "h04", childLimit: 5 } })
    expect(invalid.isError).toBe(true)
    expect(payload(invalid)).toMatchObject({ status: 400, code: "VALIDATION_ERROR", error: expect.stringContaining("code: must be a CPC symbol") })
    const unavailable = await client.callTool({ name: "get_guidance_graph", arguments: { nodeId: "mpep-2143" } })
    expect(payload(unavailable)).toMatchObject({ status: 503, code: "CORPUS_UNAVAILABLE" })
    const check = await client.callTool({ name: "check_antecedent_basis", arguments: { claims: ["A widget comprising a lever."], minSeverity: "nope" } })
    expect(payload(check)).toEqual({ status: 400, error: "minSeverity: must be one of high, medium, low" })
    const filed = await client.callTool({ name: "check_antecedent_basis", arguments: { appNum: "15695467" } })
    expect(payload(filed).status).toBe(502)
    await client.close()
  })

  it("tool calls are permission-checked and metered like REST", async () => {
    const key = await server.key({ daily: 2, permissions: ["get_design_code"] })
    const client = await connect(key)
    const denied = await client.callTool({ name: "lookup_cpc_code", arguments: { code: "H04L" } })
    expect(payload(denied)).toMatchObject({ status: 403, code: "INSUFFICIENT_PERMISSIONS", permission: "lookup_cpc_code" })
    for (let i = 0; i < 2; i++) expect(payload(await client.callTool({ name: "get_design_code", arguments: { code: "01" } })).status).toBe(503)
    expect(payload(await client.callTool({ name: "get_design_code", arguments: { code: "01" } }))).toMatchObject({ status: 429, code: "USAGE_LIMIT_EXCEEDED" })
    expect((await call(server.url, "GET", "/api/v1/guidance/design-code/01", { key })).status).toBe(429)
    await client.close()
  })

  it("refuses an unauthenticated client with the part-5 answer", async () => {
    const r = await call(server.url, "POST", "/mcp", { body: { jsonrpc: "2.0", id: 1, method: "tools/list" }, headers: { accept: "application/json, text/event-stream" } })
    expect(r.status).toBe(401)
    expect(r.json.code).toBe("MISSING_API_KEY")
    await expect(connect("ak_live_" + "Q".repeat(32))).rejects.toThrow()
  })
})
