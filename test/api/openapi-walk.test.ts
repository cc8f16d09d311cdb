/**
 * Walks the served OpenAPI document and calls every operation with the example it documents
 * (taken from the sample corpus), against the sample build and a real hub: each answers 2xx with
 * a status the document lists, the required fields of its documented success schema, and the
 * Cache-Control the operation declares.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startHub, type HubProcess } from "../support/hub-process.ts"
import { call, startTestServer, type TestServer } from "./support.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const artifactsDir = await sampleArtifacts()
let hub: HubProcess
let server: TestServer
let key: string
let doc: any

beforeAll(async () => {
  hub = await startHub(artifactsDir)
  server = await startTestServer({ artifactsDir, hubUrl: hub.url })
  key = await server.key()
  doc = (await call(server.url, "GET", "/api/v1/openapi.json")).json
})
afterAll(async () => {
  await server?.close()
  await hub?.stop()
})

const resolve = (schema: any): any => (schema?.$ref ? resolve(doc.components.schemas[schema.$ref.split("/").pop()]) : schema)

describe("the OpenAPI document, walked", () => {
  it("documents an example for every parameter and body of every operation", () => {
    let operations = 0
    for (const [, item] of Object.entries<any>(doc.paths)) {
      for (const [, op] of Object.entries<any>(item)) {
        operations++
        for (const p of op.parameters ?? []) if (p.required) expect(p.example, `${op.operationId} ${p.name}`).toBeDefined()
        if (op.requestBody) expect(op.requestBody.content["application/json"].example, op.operationId).toBeDefined()
      }
    }
    expect(operations).toBe(24)
  })

  it("every operation answers its documented example as documented", async () => {
    const failures: string[] = []
    for (const [template, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        let path = template
        const query = new URLSearchParams()
        for (const p of op.parameters ?? []) {
          if (p.example === undefined) continue
          if (p.in === "path") path = path.replace(`{${p.name}}`, encodeURIComponent(p.example))
          else query.set(p.name, p.example)
        }
        const body = op.requestBody?.content["application/json"].example
        const r = await call(server.url, method.toUpperCase(), `${path}${query.size ? `?${query}` : ""}`, { key, body })
        const where = `${method.toUpperCase()} ${template}`
        if (!op.responses[String(r.status)]) failures.push(`${where}: status ${r.status} not documented`)
        if (r.status >= 300) {
          failures.push(`${where}: ${r.status} ${r.text.slice(0, 200)}`)
          continue
        }
        if (r.headers.get("cache-control") !== op["x-cache-control"]) failures.push(`${where}: cache-control ${r.headers.get("cache-control")}`)
        const schema = resolve(op.responses[String(r.status)]?.content?.["application/json"]?.schema)
        for (const field of schema?.required ?? []) if (!(field in r.json)) failures.push(`${where}: missing ${field}`)
      }
    }
    expect(failures).toEqual([])
  })
})
