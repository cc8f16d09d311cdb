/**
 * Input that could stop the server for everyone: oversized claims and bodies, JSON nested
 * thousands deep, requests Node's own parser refuses, long path parameters, MCP requests the
 * stateless transport cannot serve. Each gets its documented status and a JSON body at once,
 * and the event loop stays free for others while a long analysis runs on a worker thread.
 */
import * as fs from "node:fs"
import * as http from "node:http"
import * as net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, startTestServer, type TestServer } from "../api/support.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const sampleDir = await sampleArtifacts()

let api: TestServer
let key: string

beforeAll(async () => {
  api = await startTestServer({ artifactsDir: sampleDir })
  key = await api.key({ daily: 100_000, monthly: 1_000_000 })
})
afterAll(() => api?.close())

const antecedent = (body: unknown) => call(api.url, "POST", "/api/v1/claim-validation/antecedent-basis", { key, body })

/** A raw HTTP exchange, for requests fetch() would refuse to send. */
const raw = (request: string) =>
  new Promise<string>((resolve, reject) => {
    const url = new URL(api.url)
    let answer = ""
    const socket = net.connect(Number(url.port), url.hostname, () => socket.end(request))
    socket.on("data", (c) => (answer += c.toString()))
    socket.on("end", () => resolve(answer))
    socket.on("error", reject)
  })

describe("budgets for claim analysis", () => {
  it("refuses a 5 MB claim set from its size (413) and a claim over 100,000 characters (400), naming the limit", async () => {
    const huge = await antecedent({ claims: ["A device comprising a lever and the housing. ".repeat(120_000)] })
    expect(huge.status).toBe(413)
    expect(huge.json.error).toContain("at most 4194304 bytes")
    const long = await antecedent({ claims: ["A device comprising a lever and the housing. ".repeat(3_000)] })
    expect(long.status).toBe(400)
    expect(long.json).toEqual({ error: expect.stringContaining("at most 100000 characters") })
    const set = await antecedent({ claims: Array.from({ length: 12 }, () => "A device comprising a lever and a housing. ".repeat(2_200)) })
    expect(set.status).toBe(400)
    expect(set.json.error).toContain("at most 1000000 characters")
  })

  it("runs a long check off the event loop: /healthz answers while it is still running", async () => {
    const claim = "A device comprising a lever and the housing, wherein the latch engages the housing and a lever ".repeat(1_000)
    let checkDone = false
    const check = antecedent({ claims: [claim] }).then((r) => ((checkDone = true), r))
    await new Promise((r) => setTimeout(r, 50))
    const health = await call(api.url, "GET", "/healthz")
    expect(health.status).toBe(200)
    expect(checkDone).toBe(false)
    const result = await check
    expect(result.status).toBe(200)
    expect(result.json.issues.some((i: { term: string }) => i.term === "latch")).toBe(true)
  })
})

describe("malformed requests get their envelope", () => {
  it("JSON nested 5,000 deep is a 400, not a stack overflow", async () => {
    const deep = `{"claims":${"[".repeat(5_000)}${"]".repeat(5_000)}}`
    const r = await call(api.url, "POST", "/api/v1/claim-validation/antecedent-basis", { key, rawBody: deep })
    expect(r.status).toBe(400)
    expect(r.json).toEqual({ error: "body: JSON nested deeper than 64 levels" })
    const prior = await call(api.url, "POST", "/api/v1/prior-art", { key, rawBody: `{"claims":${"[".repeat(5_000)}${"]".repeat(5_000)}}` })
    expect(prior.status).toBe(400)
    expect(prior.json.success).toBe(false)
  })

  it("what Node's parser refuses still comes back as JSON: a URL over 16 KB (431), an unknown method (501)", async () => {
    const long = await raw(`GET /api/v1/patent-intel/cpc/H${"0".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`)
    expect(long).toMatch(/^HTTP\/1\.1 431 /)
    expect(JSON.parse(long.slice(long.indexOf("\r\n\r\n") + 4))).toMatchObject({ code: "REQUEST_HEADER_FIELDS_TOO_LARGE" })
    const method = await raw(`FROB /healthz HTTP/1.1\r\nHost: x\r\n\r\n`)
    expect(method).toMatch(/^HTTP\/1\.1 501 /)
    expect(JSON.parse(method.slice(method.indexOf("\r\n\r\n") + 4))).toMatchObject({ code: "NOT_IMPLEMENTED" })
  })

  it("a chunked body over the limit is answered 413 (not a reset); a small chunked body is served", async () => {
    const send = (chunks: ReadonlyArray<string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.request(`${api.url}/api/v1/claim-validation/antecedent-basis`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          agent: false
        })
        request.on("response", (r) => {
          let body = ""
          r.on("data", (c) => (body += c))
          r.on("end", () => resolve({ status: r.statusCode!, body }))
        })
        request.on("error", reject)
        for (const c of chunks) request.write(c)
        request.end()
      })
    const huge = await send(['{"claims":["', ...Array.from({ length: 50 }, () => "a".repeat(100_000)), '"]}'])
    expect(huge.status).toBe(413)
    expect(JSON.parse(huge.body)).toEqual({ error: "body: must be at most 4194304 bytes" })
    const small = await send(['{"claims":["A fastening device comprising a housing and a lever.",', '"The fastening device of claim 1, wherein the latch engages the housing."]}'])
    expect(small.status).toBe(200)
    expect(JSON.parse(small.body).issues.map((i: { term: string }) => i.term)).toContain("latch")
  })

  it("a path parameter of 5,000 characters is a 400 naming the rule, not a 404", async () => {
    const r = await call(api.url, "GET", `/api/v1/patent-intel/examiner/${"a".repeat(5_000)}`, { key })
    expect(r.status).toBe(400)
    expect(r.json).toMatchObject({ code: "VALIDATION_ERROR", error: expect.stringContaining("2-120 characters") })
  })
})

describe("MCP in stateless mode", () => {
  it("answers GET and DELETE /mcp with 405 at once, and 2,000 of them leave nothing in flight", async () => {
    const one = await call(api.url, "GET", "/mcp", { key })
    expect(one.status).toBe(405)
    expect(one.headers.get("allow")).toBe("POST")
    expect((await call(api.url, "DELETE", "/mcp", { key })).status).toBe(405)
    for (let batch = 0; batch < 20; batch++) {
      const statuses = await Promise.all(Array.from({ length: 100 }, () => fetch(`${api.url}/mcp`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status)))
      expect(new Set(statuses)).toEqual(new Set([405]))
    }
    const metrics = await call(api.url, "GET", "/metrics")
    expect(metrics.text).toMatch(/^api_requests_in_flight 0$/m)
    expect(metrics.text).toMatch(/^api_event_loop_delay_seconds\{quantile="0.99"\} [\d.e-]+$/m)
  })

  it("tools/call with arguments null is invalid params (-32602) in a sentence", async () => {
    const r = await call(api.url, "POST", "/mcp", {
      key,
      headers: { accept: "application/json, text/event-stream" },
      body: { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "lookup_cpc_code", arguments: null } }
    })
    expect(r.json).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32602, message: expect.stringContaining("params.arguments: must be an object") } })
  })
})

describe("readiness tells the truth", () => {
  it("/healthz reports the hub beside it and turns 503 when the state directory cannot be written", async () => {
    const server = await startTestServer({ artifactsDir: sampleDir })
    try {
      const ok = await call(server.url, "GET", "/healthz")
      expect(ok.status).toBe(200)
      expect(ok.json).toMatchObject({ status: "ok", hub: { reachable: false } })
      fs.rmSync(server.stateDir, { recursive: true, force: true })
      fs.writeFileSync(server.stateDir, "not a directory")
      const broken = await call(server.url, "GET", "/healthz")
      expect(broken.status).toBe(503)
      expect(broken.json.reason).toContain(`state directory ${server.stateDir}`)
    } finally {
      await server.close()
      fs.rmSync(server.stateDir, { force: true })
    }
  })
})
