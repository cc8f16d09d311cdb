/**
 * The OpenAPI document checked as JSON Schema 2020-12 (Ajv) and against the answers it describes:
 * every route is called on the sample build with a real hub (its documented example, plus calls
 * that bring out the optional parts: hyde, includeClaims, raw claims, included examiner sections,
 * suppressed candidates, a locate by application, an unrecognised rejection type), and each answer
 * must validate against its declared 200 schema with every struct closed, so a field the service
 * returns but the document does not declare fails here. Only the parts the spec leaves open
 * (`additionalProperties` given as a schema: "further fields may follow", SPEC 2.11) stay open.
 */
import { Ajv2020 } from "ajv/dist/2020.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { routeExamples } from "../../api/docs/examples.ts"
import { routeTable } from "../../api/http/route-table.ts"
import { startPriorArt, type PriorArtFixture } from "../prior-art/support.ts"
import { call, type TestServer } from "./support.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

type Json = Record<string, any>

const artifactsDir = await sampleArtifacts()
let fixture: PriorArtFixture
let server: TestServer
let key: string
let doc: Json

beforeAll(async () => {
  fixture = await startPriorArt(artifactsDir)
  ;({ server, key } = fixture)
  doc = (await call(server.url, "GET", "/api/v1/openapi.json")).json
})
afterAll(async () => {
  await fixture?.close()
})

const CLAIM = "A fastening device comprising a housing and a lever pivotally mounted to the housing."

/** Calls beyond the documented examples, for fields that only some requests bring out. */
const EXTRA_CALLS: ReadonlyArray<{ readonly route: string; readonly path: string; readonly body?: unknown }> = [
  {
    route: "POST /api/v1/prior-art",
    path: "/api/v1/prior-art",
    body: { claims: "A capacitive probe for measuring the moisture of soil around plant roots, comprising a pair of electrodes.", count: 3, includeClaims: true, hyde: true, filedBefore: "2023", cpc3: ["G01N"] }
  },
  { route: "POST /api/v1/prior-art/claims", path: "/api/v1/prior-art/claims", body: { appNumbers: ["17356223", "99999999"], format: "raw" } },
  { route: "POST /api/v1/patent-map/locate", path: "/api/v1/patent-map/locate", body: { appNum: "17356223", topK: 3 } },
  { route: "GET /api/v1/claim-validation/antecedent-basis/:appNum", path: "/api/v1/claim-validation/antecedent-basis/10391892?includeSuppressed=1" },
  {
    route: "POST /api/v1/claim-validation/antecedent-basis",
    path: "/api/v1/claim-validation/antecedent-basis",
    body: { claims: [CLAIM, "The fastening device of claim 1, wherein the latch engages the housing."], includeSuppressed: true }
  },
  {
    route: "POST /api/v1/claim-validation/support",
    path: "/api/v1/claim-validation/support",
    body: { claims: [{ text: CLAIM }], appNum: "10391892", includeParents: true }
  },
  { route: "GET /api/v1/patent-intel/examiner/:examiner", path: "/api/v1/patent-intel/examiner/bryant-christian-thomas" },
  {
    route: "GET /api/v1/patent-intel/examiner/:examiner",
    path: "/api/v1/patent-intel/examiner/bryant-christian-thomas?include=behavioral_patterns,applications_with_interviews,applications_with_rcex,by_sequence_length,document_code_breakdown"
  },
  { route: "GET /api/v1/patent-intel/classification/:number", path: "/api/v1/patent-intel/classification/17356223" },
  { route: "GET /api/v1/guidance/form-paragraphs", path: "/api/v1/guidance/form-paragraphs?rejectionType=bogus" },
  { route: "GET /api/v1/guidance/form-paragraphs", path: "/api/v1/guidance/form-paragraphs?mpepSection=2173.05(e)" },
  { route: "GET /api/v1/guidance/graph/:nodeId", path: "/api/v1/guidance/graph/epo-G-VII-5.1" },
  { route: "POST /api/v1/warmup", path: "/api/v1/warmup?rerank=1" }
]

const exampleCall = (route: string) => {
  const example = routeExamples[route] ?? {}
  const template = route.split(" ")[1]
  const path = template.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(example.params![name]))
  const query = new URLSearchParams(example.query ?? {})
  return { route, path: `${path}${query.size ? `?${query}` : ""}`, body: example.body }
}

/** The document with every struct closed: `additionalProperties: true` (declared structs) becomes false. */
const closed = (node: unknown): any => {
  if (Array.isArray(node)) return node.map(closed)
  if (node === null || typeof node !== "object") return node
  const out: Json = {}
  for (const [k, v] of Object.entries(node as Json)) out[k] = k === "additionalProperties" && v === true ? false : closed(v)
  return out
}

const pointer = (...parts: ReadonlyArray<string>) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")

/** Every schema object the document holds, with where it is. */
const schemasIn = (d: Json): Array<[string, Json]> => {
  const out: Array<[string, Json]> = Object.entries<Json>(d.components?.schemas ?? {}).map(([n, s]) => [`components/schemas/${n}`, s])
  for (const [path, item] of Object.entries<Json>(d.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      for (const p of op.parameters ?? []) out.push([`${method} ${path} parameter ${p.name}`, p.schema])
      const body = op.requestBody?.content?.["application/json"]?.schema
      if (body) out.push([`${method} ${path} body`, body])
      for (const [status, r] of Object.entries<Json>(op.responses ?? {})) {
        const s = r.content?.["application/json"]?.schema
        if (s) out.push([`${method} ${path} ${status}`, s])
      }
    }
  }
  return out
}

const newAjv = () => {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false, strictTuples: false, validateSchema: true })
  // OpenAPI 3.1's own keywords inside its schemas (the 3.1 dialect adds them to 2020-12).
  ajv.addVocabulary(["example", "discriminator", "xml", "externalDocs"])
  // The document's own top-level fields, so the whole document can be added and pointed into.
  ajv.addVocabulary(["openapi", "info", "servers", "paths", "components", "security", "tags"])
  return ajv
}

describe("the OpenAPI document as OpenAPI 3.1 and JSON Schema 2020-12", () => {
  it("has the structure OpenAPI 3.1 requires", () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/)
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String), license: { name: expect.any(String) } })
    for (const s of doc.servers) expect(typeof s.url).toBe("string")
    const operationIds = new Set<string>()
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      expect(path.startsWith("/"), path).toBe(true)
      for (const [method, op] of Object.entries<Json>(item)) {
        expect(["get", "put", "post", "delete", "options", "head", "patch", "trace"], path).toContain(method)
        expect(operationIds.has(op.operationId), op.operationId).toBe(false)
        operationIds.add(op.operationId)
        expect(Object.keys(op.responses).length, op.operationId).toBeGreaterThan(0)
        for (const [status, r] of Object.entries<Json>(op.responses)) {
          expect(status, op.operationId).toMatch(/^([1-5]\d\d|[1-5]XX|default)$/)
          expect(typeof r.description, `${op.operationId} ${status}`).toBe("string")
        }
        for (const p of op.parameters ?? []) {
          expect(["query", "header", "path", "cookie"], `${op.operationId} ${p.name}`).toContain(p.in)
          if (p.in === "path") expect(p.required, `${op.operationId} ${p.name}`).toBe(true)
          expect(p.schema, `${op.operationId} ${p.name}`).toBeTruthy()
        }
        for (const requirement of op.security ?? []) for (const scheme of Object.keys(requirement)) expect(doc.components.securitySchemes).toHaveProperty(scheme)
      }
    }
  })

  it("every schema in it is valid JSON Schema 2020-12 (Ajv, strict) and every reference resolves", () => {
    const ajv = newAjv()
    ajv.addSchema(doc, "openapi.json")
    const broken: Array<string> = []
    for (const [where, schema] of schemasIn(doc)) {
      if (!ajv.validateSchema(schema)) broken.push(`${where}: ${ajv.errorsText(ajv.errors)}`)
    }
    for (const [name] of Object.entries<Json>(doc.components.schemas)) {
      try {
        ajv.compile({ $ref: `openapi.json#/${pointer("components", "schemas", name)}` })
      } catch (e) {
        broken.push(`components/schemas/${name}: ${(e as Error).message}`)
      }
    }
    expect(broken).toEqual([])
  })

  it("every parameter and body field says what it does, not only its rule", () => {
    const bare: Array<string> = []
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const [method, op] of Object.entries<Json>(item)) {
        for (const p of op.parameters ?? []) if (!p.description || /^must\b/.test(p.description)) bare.push(`${method} ${path} ${p.name}`)
        const ref = op.requestBody?.content?.["application/json"]?.schema?.$ref
        const body = ref ? doc.components.schemas[ref.split("/").pop()] : undefined
        for (const [name, f] of Object.entries<Json>(body?.properties ?? {})) {
          if (!f.description || /^must\b/.test(f.description)) bare.push(`${method} ${path} body ${name}`)
        }
      }
    }
    expect(bare).toEqual([])
    expect(doc.components.schemas.PriorArtSearchRequest.allOf).toEqual([{ anyOf: [{ required: ["claims"] }, { required: ["abstract"] }] }])
  })
})

describe("every answer of every route, against its declared 200 schema with every struct closed", () => {
  it("validates, on the sample build, for all 24 routes", async () => {
    const ajv = newAjv()
    ajv.addSchema(closed(doc), "openapi.json")
    const calls = [...routeTable.map((r) => exampleCall(`${r.method} ${r.template}`)), ...EXTRA_CALLS]
    const covered = new Set<string>()
    const answers = new Map<string, Json>()
    const failures: Array<string> = []
    for (const c of calls) {
      const [method, template] = c.route.split(" ")
      const path = template.replace(/:(\w+)/g, "{$1}")
      const r = await call(server.url, method, c.path, { key, body: c.body })
      if (r.status !== 200) {
        failures.push(`${method} ${c.path}: ${r.status} ${r.text.slice(0, 200)}`)
        continue
      }
      const validate = ajv.compile({
        $ref: `openapi.json#/${pointer("paths", path, method.toLowerCase(), "responses", "200", "content", "application/json", "schema")}`
      })
      if (!validate(r.json)) {
        const errors = (validate.errors ?? []).slice(0, 8).map((e) => `${e.instancePath || "/"} ${e.message}${e.params && "additionalProperty" in e.params ? `: ${e.params.additionalProperty}` : ""}`)
        failures.push(`${method} ${c.path}: ${errors.join("; ")}`)
      }
      if (!covered.has(c.route)) answers.set(c.route, r.json)
      covered.add(c.route)
    }
    expect(failures).toEqual([])
    expect(covered.size).toBe(24)
    // The documented graph example shows a node with edges, not an empty graph.
    const graph = answers.get("GET /api/v1/guidance/graph/:nodeId")!
    expect(graph.outgoing.length + graph.incoming.length).toBeGreaterThan(0)
  })
})
