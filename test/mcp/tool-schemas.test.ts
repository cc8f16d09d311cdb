/**
 * The MCP tool list as an agent reads it, through the SDK's own client: every input field of every
 * tool says what it does (not only how it is validated), the either/or requirements are stated,
 * and every input schema is a flat object that the hosts in use accept (no root combinators, no
 * references).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startStubHub, startTestServer, type StubHub, type TestServer } from "../api/support.ts"

type Json = Record<string, any>

let server: TestServer
let hub: StubHub
let tools: ReadonlyArray<{ name: string; description?: string; inputSchema: Json }>

beforeAll(async () => {
  hub = await startStubHub()
  server = await startTestServer({ hubUrl: hub.url })
  const client = new Client({ name: "tool-schemas-test", version: "1.0.0" })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${await server.key()}` } }
    })
  )
  tools = (await client.listTools()).tools as typeof tools
  await client.close()
})
afterAll(async () => {
  await server?.close()
  await hub?.close()
})

/** Every property of an input schema, nested ones (array items, union members) included, by dotted path. */
const propertiesOf = (schema: Json, prefix = ""): Array<[string, Json]> => {
  const out: Array<[string, Json]> = []
  for (const [name, p] of Object.entries<Json>(schema.properties ?? {})) {
    out.push([`${prefix}${name}`, p])
    for (const member of [p, p.items, ...(p.items?.anyOf ?? []), ...(p.anyOf ?? [])]) {
      if (member && member !== p && member.properties) out.push(...propertiesOf(member, `${prefix}${name}[].`))
    }
  }
  return out
}

/** The part of a description before its validation rule ("… Rule: must be …"). */
const purposeOf = (description: string) => description.split(" Rule: ")[0]

const VALIDATION_ONLY = /^(must|a string|an integer|a number|expected)\b/i

const field = (tool: string, name: string) => tools.find((t) => t.name === tool)!.inputSchema.properties[name]

describe("MCP tool input schemas", () => {
  it("every input property of every tool says what it does, beyond its validation rule", () => {
    expect(tools).toHaveLength(20)
    const bare: Array<string> = []
    let count = 0
    for (const tool of tools) {
      for (const [path, property] of propertiesOf(tool.inputSchema)) {
        count++
        const description = String(property.description ?? "")
        const purpose = purposeOf(description)
        if (purpose.length < 20 || VALIDATION_ONLY.test(purpose)) {
          bare.push(`${tool.name}.${path}: ${JSON.stringify(description)}`)
        }
      }
    }
    expect(bare).toEqual([])
    // 57 top-level fields, plus the members of claim and section objects.
    expect(count).toBeGreaterThanOrEqual(57)
  })

  it("keeps each field's validation rule after its purpose", () => {
    expect(field("search_prior_art", "count").description).toMatch(/\(default 50\)\. Rule: must be an integer between 1 and 100\.$/)
    expect(field("find_whitespace", "minOpportunity").description).toContain("Rule: must be a number between 0 and 1")
  })

  it("explains the options an agent cannot guess from their names (SPEC 4.1)", () => {
    expect(field("search_prior_art", "hyde").description).toMatch(/hypothetical abstract.*metadata\.hyde/)
    expect(field("search_prior_art", "hybrid").description).toMatch(/lexical.*matched_legs/)
    expect(field("search_prior_art", "cpc3").description).toMatch(/35%.*excluded, not ranked lower/)
    expect(field("search_prior_art", "filedBefore").description).toContain("YYYY-MM-DD")
    expect(field("search_prior_art", "forceReprocess").description).toContain("spend")
    expect(field("warm_up", "rerank").description).toContain("reranker")
    expect(field("get_examiner_profile", "include").description).toContain("rejection_analysis")
  })

  it("states the either/or requirements in the tool and in each alternative field", () => {
    const cases: ReadonlyArray<readonly [string, string, string]> = [
      ["search_prior_art", "claims", "abstract"],
      ["locate_in_patent_space", "query", "appNum"],
      ["map_claim_support", "sections", "appNum"],
      ["find_form_paragraphs", "rejectionType", "mpepSection"]
    ]
    for (const [tool, a, b] of cases) {
      const entry = tools.find((t) => t.name === tool)!
      expect(entry.description, tool).toContain(`Requires at least one of \`${a}\` or \`${b}\``)
      for (const name of [a, b]) expect(field(tool, name).description, `${tool}.${name}`).toContain(`One of ${a} or ${b} is required`)
      expect(entry.inputSchema.required ?? [], tool).not.toContain(a)
    }
  })

  it("publishes flat object schemas: no root anyOf/oneOf/allOf, no $ref or $defs, no generated titles", () => {
    for (const tool of tools) {
      const s = tool.inputSchema
      expect(s.type, tool.name).toBe("object")
      for (const k of ["anyOf", "oneOf", "allOf", "not", "if", "$defs"]) expect(s, `${tool.name} ${k}`).not.toHaveProperty(k)
      const text = JSON.stringify(s)
      expect(text, tool.name).not.toContain('"$ref"')
      expect(text, tool.name).not.toMatch(/"title":"(int|[a-zA-Z]+\(.*?\))"/)
    }
    expect(field("search_prior_art", "count")).toMatchObject({ type: "integer", minimum: 1, maximum: 100 })
  })
})
