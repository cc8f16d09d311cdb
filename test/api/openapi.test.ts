/** The OpenAPI 3.1 document and the /docs page are generated from the same schemas that validate requests. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { routeTable } from "../../api/http/route-table.ts"
import { call, startTestServer, type TestServer } from "./support.ts"

let server: TestServer
let doc: any

beforeAll(async () => {
  server = await startTestServer()
  doc = (await call(server.url, "GET", "/api/v1/openapi.json")).json
})
afterAll(() => server.close())

const refsIn = (value: unknown, out: Array<string> = []): Array<string> => {
  if (Array.isArray(value)) value.forEach((v) => refsIn(v, out))
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref" && typeof v === "string") out.push(v)
      else refsIn(v, out)
    }
  }
  return out
}

describe("OpenAPI document", () => {
  it("names its servers and licence and gives no two schemas one $id (valid JSON Schema 2020-12), and types numeric query parameters", () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: "/" })])
    expect(doc.info.license.name).toBeTruthy()
    const ids: Array<string> = []
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk)
      else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) k === "$id" && typeof x === "string" ? ids.push(x) : walk(x)
    }
    walk(doc)
    expect(ids.length).toBe(new Set(ids).size)
    const whitespace = doc.paths["/api/v1/patent-map/whitespace"].get.parameters
    expect(whitespace.find((p: any) => p.name === "limit").schema).toMatchObject({ type: "integer", minimum: 1, maximum: 500 })
    expect(whitespace.find((p: any) => p.name === "minOpportunity").schema).toMatchObject({ type: "number", minimum: 0, maximum: 1 })
  })

  it("is OpenAPI 3.1 with the interface version and a bearer security scheme applied everywhere", () => {
    expect(doc.openapi).toBe("3.1.0")
    expect(doc.info).toMatchObject({ title: expect.any(String), version: "0.1.0" })
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" })
    expect(doc.security).toEqual([{ bearer: [] }])
  })

  it("declares all 24 routes with their parameters, bodies and error responses", () => {
    const operations = Object.entries<any>(doc.paths).flatMap(([p, methods]) => Object.entries<any>(methods).map(([m, op]) => ({ p, m, op })))
    expect(operations).toHaveLength(24)
    expect(new Set(operations.map((o) => o.op.operationId)).size).toBe(24)
    for (const route of routeTable) {
      const p = route.template.replace(/:(\w+)/g, "{$1}")
      const op = doc.paths[p]?.[route.method.toLowerCase()]
      expect(op, `${route.method} ${p}`).toBeDefined()
      for (const name of [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
        expect(op.parameters.find((x: any) => x.name === name && x.in === "path")?.required, `${p} ${name}`).toBe(true)
      }
      if (route.method === "POST" && route.payloadSchema._tag === "Some") expect(op.requestBody.content["application/json"].schema).toBeDefined()
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["200", "401", "403", "429", "500", "503"]))
      if (route.access.metered || route.payloadSchema._tag === "Some" || route.urlParamsSchema._tag === "Some") expect(op.responses["400"]).toBeDefined()
      expect(op.security).toEqual([{ bearer: [] }])
      expect(op["x-metered"]).toBe(route.access.metered)
      expect(op["x-permission"]).toBe(route.access.permission)
      expect(op["x-cache-control"]).toBe(route.access.cacheControl)
    }
    const q = doc.paths["/api/v1/patent-map/whitespace"].get.parameters.map((x: any) => x.name)
    expect(q).toEqual(["limit", "section", "minOpportunity"])
    expect(doc.paths["/api/v1/patent-intel/cpc/{code}"].get.responses["503"].content["application/json"].schema).toBeDefined()
  })

  it("documents each family's envelope, not HttpApi's own decode error", () => {
    const text = JSON.stringify(doc)
    expect(text).not.toContain("HttpApiDecodeError")
    const resolve = (ref: string) => doc.components.schemas[ref.split("/").pop()!]
    const schemaOf = (p: string, m: string, status: string) => doc.paths[p][m].responses[status].content["application/json"].schema
    expect(Object.keys(resolve(schemaOf("/api/v1/prior-art", "post", "400").$ref).properties).sort()).toEqual(["error", "success"])
    expect(Object.keys(resolve(schemaOf("/api/v1/patent-map/locate", "post", "400").$ref).properties).sort()).toEqual(["code", "error", "timestamp"])
    expect(Object.keys(resolve(schemaOf("/api/v1/claim-validation/antecedent-basis", "post", "400").$ref).properties)).toEqual(["error"])
  })

  it("every $ref resolves", () => {
    for (const ref of refsIn(doc)) {
      expect(ref.startsWith("#/components/schemas/"), ref).toBe(true)
      expect(doc.components.schemas[ref.split("/").pop()!], ref).toBeDefined()
    }
  })

  it("the request schemas carry the field rules the server enforces", () => {
    const body = doc.components.schemas.PriorArtSearchRequest
    expect(body.properties.count.description).toBe("Number of references to return, ranked (default 50). Rule: must be an integer between 1 and 100.")
    expect(body.properties.filedBefore.description).toContain("YYYY-MM-DD")
  })
})

describe("/docs", () => {
  it("is an HTML page that loads only this service's files and, without scripts, lists every route", async () => {
    const r = await call(server.url, "GET", "/docs")
    expect(r.status).toBe(200)
    expect(r.headers.get("content-type")).toContain("text/html")
    const references = [...r.text.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1])
    expect(references.filter((u) => !u.startsWith("/") && !u.startsWith("#"))).toEqual([])
    expect(references).toEqual(expect.arrayContaining(["/docs/swagger-ui.css", "/docs/swagger-ui-bundle.js", "/docs/init.js"]))
    for (const route of routeTable) expect(r.text).toContain(route.template.replace(/:(\w+)/g, "{$1}"))
    expect(r.text).toContain("must be an integer between 1 and 100")
  })

  it("serves Swagger UI from the installed swagger-ui-dist without a key, set to try calls against this document", async () => {
    const css = await call(server.url, "GET", "/docs/swagger-ui.css")
    expect(css.status).toBe(200)
    expect(css.headers.get("content-type")).toContain("text/css")
    const bundle = await call(server.url, "GET", "/docs/swagger-ui-bundle.js")
    expect(bundle.status).toBe(200)
    expect(bundle.headers.get("content-type")).toContain("javascript")
    expect(bundle.text).toContain("SwaggerUIBundle")
    const init = await call(server.url, "GET", "/docs/init.js")
    expect(init.text).toContain('url: "/api/v1/openapi.json"')
    expect(init.text).toContain("validatorUrl: null")
    expect(init.text).toContain("tryItOutEnabled: true")
  })

  it("shows each route's sample-corpus example, as curl on the static page and as parameter and body examples for Swagger UI", async () => {
    const r = await call(server.url, "GET", "/docs")
    expect(r.text.match(/<pre>curl /g)).toHaveLength(24)
    expect(r.text).toContain("curl -sS -X POST &quot;$BASE_URL/api/v1/prior-art&quot;")
    expect(r.text).toContain("hypothetical abstract")
    const topK = doc.paths["/api/v1/patent-map/patent/{appNum}"].get.parameters.find((p: any) => p.name === "topK")
    expect(topK.example).toBe(5)
    expect(doc.paths["/api/v1/prior-art"].post.requestBody.content["application/json"].example.claims).toContain("capacitive probe")
  })
})
