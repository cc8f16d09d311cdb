/**
 * Every MCP tool, through the SDK's own client against a server on the sample build with a real
 * hub: exactly the spec's 20 tools, each answering a valid call with its REST payload and an
 * invalid one with a tool error carrying the REST status and code.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type TestServer } from "../api/support.ts"
import { startHub, type HubProcess } from "../support/hub-process.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const artifactsDir = await sampleArtifacts()
let hub: HubProcess
let server: TestServer
let client: Client

const CLAIM = "A fastening device comprising a housing and a lever pivotally mounted to the housing."

/** [tool, valid arguments, invalid arguments, a field the refusal names] */
const calls: ReadonlyArray<readonly [string, Record<string, unknown>, Record<string, unknown>, string]> = [
  ["search_prior_art", { claims: "A capacitive probe for measuring the moisture of soil around plant roots", count: 3 }, { claims: "short" }, "claims"],
  ["get_patent_claims", { appNumbers: ["17356223"] }, { appNumbers: [] }, "appNumbers"],
  ["get_patent_neighborhood", { appNum: "17356223", topK: 3 }, { appNum: "12" }, "appNum"],
  ["get_patent_citations", { appNum: "17356223" }, { appNum: "17356223", year: 1800 }, "year"],
  ["locate_in_patent_space", { query: "capacitive soil moisture probe", topK: 3 }, { query: "short" }, "query"],
  ["find_whitespace", { limit: 2 }, { limit: 0 }, "limit"],
  ["check_antecedent_basis", { claims: [CLAIM, "The device of claim 1, wherein the latch engages the housing."] }, { claims: [CLAIM], minSeverity: "severe" }, "minSeverity"],
  ["map_claim_support", { claims: [{ text: CLAIM }], sections: [{ text: "In one embodiment the housing 10 holds a lever 12." }] }, { claims: [{ text: CLAIM }] }, "sections or appNum"],
  ["warm_up", {}, { wait: 500 }, "wait"],
  ["lookup_cpc_code", { code: "G06F", childLimit: 2 }, { code: "g06" }, "code"],
  ["get_patent_classification", { number: "20220414841" }, { number: "12" }, "number"],
  ["get_art_unit_profile", { artUnit: "2863" }, { artUnit: "28" }, "artUnit"],
  ["find_examiner", { artUnit: "2863", limit: 2 }, { artUnit: "2863", limit: 0 }, "limit"],
  ["get_examiner_profile", { examiner: "bryant-christian-thomas" }, { examiner: "b" }, "examiner"],
  ["get_mpep_section", { sectionId: "2173.05(e)" }, { sectionId: "2173.05(e)!" }, "sectionId"],
  ["get_epo_guideline", { sectionId: "G-VII-5.1" }, { sectionId: "G-VII, 5.1" }, "sectionId"],
  ["get_form_paragraph", { code: "7.34.01" }, { code: "7.34.01/x" }, "code"],
  ["find_form_paragraphs", { rejectionType: "103", limit: 2 }, { limit: 2 }, "rejectionType"],
  ["get_guidance_graph", { nodeId: "mpep-2173.05(e)", limit: 3 }, { nodeId: "mpep-2173.05(e)", limit: 500 }, "limit"],
  ["get_design_code", { code: "01.01" }, { code: "1.1" }, "code"]
]

beforeAll(async () => {
  hub = await startHub(artifactsDir)
  server = await startTestServer({ artifactsDir, hubUrl: hub.url })
  const key = await server.key()
  client = new Client({ name: "all-tools-test", version: "1.0.0" })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } })
  )
})
afterAll(async () => {
  await client?.close()
  await server?.close()
  await hub?.stop()
})

const payload = (result: any) => (result.structuredContent ?? JSON.parse(result.content[0].text)) as any

describe("MCP tools", () => {
  it("lists exactly the spec's 20 tools, each with a description for an agent", async () => {
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual(calls.map(([name]) => name).sort())
    for (const t of tools) expect(t.description!.length).toBeGreaterThan(20)
  })

  for (const [tool, valid, invalid, field] of calls) {
    it(`${tool}: a valid call answers, an invalid one is a tool error naming ${field}`, async () => {
      const ok = await client.callTool({ name: tool, arguments: valid })
      expect(ok.isError, JSON.stringify(ok.content).slice(0, 300)).toBeFalsy()
      expect(payload(ok)).toBeTruthy()
      const bad = await client.callTool({ name: tool, arguments: invalid })
      expect(bad.isError).toBe(true)
      const err = JSON.parse((bad.content as any)[0].text)
      expect(err.status).toBe(400)
      expect(JSON.stringify(err)).toContain(field)
    })
  }
})
