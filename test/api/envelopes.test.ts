/** Envelopes per route family (SPEC part 7), validation messages, request hygiene and HTTP conventions. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { routeTable } from "../../api/http/route-table.ts"
import { call, startStubHub, startTestServer, type StubHub, type TestServer } from "./support.ts"

let server: TestServer
let hub: StubHub
let key: string

beforeAll(async () => {
  hub = await startStubHub()
  server = await startTestServer({ hubUrl: hub.url, maxBodyBytes: 64 * 1024 })
  key = await server.key({ daily: 100_000, monthly: 1_000_000 })
})
afterAll(async () => {
  await server.close()
  await hub.close()
})

const CLAIM = "A widget comprising a frame and a lever attached to the frame."

describe("prior-art family: {success:false, error}, 500 with request_id", () => {
  it("400 names the field and the rule", async () => {
    const cases: Array<[unknown, string]> = [
      [{}, "claims or abstract"],
      [{ claims: "  ", abstract: "" }, "claims or abstract"],
      [{ claims: CLAIM, count: 0 }, "count: must be an integer between 1 and 100"],
      [{ claims: CLAIM, count: 2.5 }, "count: must be an integer between 1 and 100"],
      [{ claims: CLAIM, forceReprocess: "yes" }, "forceReprocess: must be true or false"],
      [{ claims: CLAIM, filedBefore: "2020-13-01" }, "filedBefore: must be a date written YYYY, YYYY-MM or YYYY-MM-DD"],
      [{ claims: CLAIM, filedAfter: "last year" }, "filedAfter: must be a date"],
      [{ claims: "short" }, "claims: must be a string of 10-20000 characters"],
      [{ claims: "x".repeat(20001) }, "claims: must be a string of 10-20000 characters"],
      [{ abstract: "y".repeat(10001) }, "abstract: must be a string of at most 10000 characters"],
      [{ claims: CLAIM, cpc3: ["G06F", "bad"] }, "cpc3[1]: must be a CPC subclass"]
    ]
    for (const [body, message] of cases) {
      const r = await call(server.url, "POST", "/api/v1/prior-art", { key, body })
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(Object.keys(r.json).sort()).toEqual(["error", "success"])
      expect(r.json.success).toBe(false)
      expect(r.json.error).toContain(message)
    }
  })

  it("claims lookup refuses missing, empty, non-array, non-digit and oversized appNumbers", async () => {
    for (const body of [{}, { appNumbers: [] }, { appNumbers: "15695467" }, { appNumbers: ["1569546a"] }, { appNumbers: Array(26).fill("15695467") }]) {
      const r = await call(server.url, "POST", "/api/v1/prior-art/claims", { key, body })
      expect(r.status).toBe(400)
      expect(r.json.error).toMatch(/^appNumbers(\[\d+\])?: /)
    }
  })

  it("an unavailable search index is the family's 500 carrying request_id, equal to X-Request-Id", async () => {
    const r = await call(server.url, "POST", "/api/v1/prior-art", { key, body: { claims: CLAIM } })
    expect(r.status).toBe(500)
    expect(r.json).toEqual({ success: false, error: expect.stringContaining("not available"), request_id: r.headers.get("x-request-id") })
  })
})

describe("coded family: {error, code, timestamp}", () => {
  const coded = async (path: string, status: number, code: string, message?: string, method = "GET") => {
    const r = await call(server.url, method, path, { key })
    expect(r.status, path).toBe(status)
    expect(Object.keys(r.json).sort()).toEqual(["code", "error", "timestamp"])
    expect(r.json.code).toBe(code)
    expect(Number.isNaN(Date.parse(r.json.timestamp))).toBe(false)
    if (message) expect(r.json.error).toBe(message)
  }

  it("validation failures name the field and the rule", async () => {
    await coded("/api/v1/patent-map/patent/123456", 400, "VALIDATION_ERROR", "appNum: must be 7-12 digits")
    await coded("/api/v1/patent-map/patent/1234567?topK=0", 400, "VALIDATION_ERROR", "topK: must be an integer between 1 and 100")
    await coded("/api/v1/patent-map/patent/1234567/citations?year=1969", 400, "VALIDATION_ERROR", "year: must be an integer between 1970 and 2035")
    await coded("/api/v1/patent-map/whitespace?minOpportunity=1.5", 400, "VALIDATION_ERROR", "minOpportunity: must be a number between 0 and 1")
    await coded("/api/v1/patent-map/whitespace?section=Z", 400, "VALIDATION_ERROR", "section: must be one of A, B, C, D, E, F, G, H, Y")
    await coded("/api/v1/patent-map/points?limit=99", 400, "VALIDATION_ERROR", "limit: must be an integer between 100 and 50000")
    await coded("/api/v1/warmup?wait=121", 400, "VALIDATION_ERROR", "wait: must be an integer between 0 and 120", "POST")
    await coded("/api/v1/warmup?rerank=maybe", 400, "VALIDATION_ERROR", "rerank: must be 1 or 0 (true or false)", "POST")
    await coded("/api/v1/patent-intel/cpc/H04L?childLimit=501", 400, "VALIDATION_ERROR", "childLimit: must be an integer between 0 and 500")
    await coded("/api/v1/patent-intel/art-unit/12", 400, "VALIDATION_ERROR", "artUnit: must be 3-4 digits")
    await coded("/api/v1/patent-intel/examiners?name=a", 400, "VALIDATION_ERROR", "name: must be a string of 2-80 characters")
    await coded(`/api/v1/patent-intel/examiner/${"x".repeat(121)}`, 400, "VALIDATION_ERROR", "examiner: must be a string of 2-120 characters")
    await coded("/api/v1/guidance/form-paragraphs", 400, "VALIDATION_ERROR", "rejectionType or mpepSection: supply at least one of them")
    await coded("/api/v1/guidance/graph/mpep-2143?limit=201", 400, "VALIDATION_ERROR", "limit: must be an integer between 1 and 200")
    await coded("/api/v1/guidance/design-code/1.2", 400, "VALIDATION_ERROR")
    await coded("/api/v1/guidance/mpep/%E0%A4%A", 400, "VALIDATION_ERROR")
  })

  it("POST locate validates its body in the same envelope", async () => {
    const r = await call(server.url, "POST", "/api/v1/patent-map/locate", { key, body: { query: "short" } })
    expect(r.status).toBe(400)
    expect(r.json).toMatchObject({ code: "VALIDATION_ERROR", error: "query: must be a string of 8-4000 characters" })
  })

  it("with no artifacts served, each family answers its documented backend-unavailable error, never a payload", async () => {
    await coded("/api/v1/patent-map/patent/15695467", 502, "UPSTREAM_ERROR")
    await coded("/api/v1/patent-map/whitespace", 404, "NOT_FOUND")
    await coded("/api/v1/patent-intel/cpc/H04L9%2F32", 503, "CORPUS_UNAVAILABLE")
    await coded("/api/v1/guidance/mpep/2143.01(a)", 503, "CORPUS_UNAVAILABLE")
    await coded("/api/v1/guidance/form-paragraph/%C2%A7%207.03", 503, "CORPUS_UNAVAILABLE")
    await coded("/api/v1/guidance/graph/2143", 404, "NOT_FOUND")
  })
})

describe("claim-validation family: {error} alone", () => {
  it("400 for no usable claim text or an unknown minSeverity (refused, not defaulted)", async () => {
    for (const [body, message] of [
      [{ claims: [] }, "claims: no claim carried usable text"],
      [{ claims: [{ text: "short" }, "tiny"] }, "claims: no claim carried usable text"],
      [{ claims: [CLAIM], minSeverity: "severe" }, "minSeverity: must be one of high, medium, low"],
      [{ claims: [{ number: 0, text: CLAIM }] }, "claims[0].number: must be an integer between 1 and 100000"],
      [{ claims: Array(301).fill(CLAIM) }, "claims: must hold at most 300 claims"]
    ] as const) {
      const r = await call(server.url, "POST", "/api/v1/claim-validation/antecedent-basis", { key, body })
      expect(r.status).toBe(400)
      expect(r.json).toEqual({ error: expect.stringContaining(message) })
    }
  })

  it("support needs claims and one of sections/appNum; GET routes check appNum", async () => {
    let r = await call(server.url, "POST", "/api/v1/claim-validation/support", { key, body: { claims: [{ text: CLAIM }] } })
    expect(r.json).toEqual({ error: "sections or appNum: supply at least one of them" })
    r = await call(server.url, "POST", "/api/v1/claim-validation/support", { key, body: { claims: [], appNum: "15695467" } })
    expect(r.json).toEqual({ error: "claims: must hold 1-300 claims" })
    r = await call(server.url, "GET", "/api/v1/claim-validation/support/123456789", { key })
    expect(r.status).toBe(400)
    expect(r.json).toEqual({ error: "appNum: must be 7-8 digits" })
  })

  it("the POST check needs no warehouse (200); a failed warehouse pull on GET is 502 {error}", async () => {
    const post = await call(server.url, "POST", "/api/v1/claim-validation/antecedent-basis", { key, body: { claims: [CLAIM] } })
    expect(post.status).toBe(200)
    expect(post.json.available).toBe(true)
    const get = await call(server.url, "GET", "/api/v1/claim-validation/antecedent-basis/15695467", { key })
    expect(get.status).toBe(502)
    expect(Object.keys(get.json)).toEqual(["error"])
  })
})

describe("request hygiene, in the right envelope", () => {
  it("malformed JSON is 400", async () => {
    const r = await call(server.url, "POST", "/api/v1/patent-map/locate", { key, rawBody: '{"query": ' })
    expect(r.status).toBe(400)
    expect(r.json.code).toBe("VALIDATION_ERROR")
    expect(r.json.error).toMatch(/^body: is not valid JSON/)
  })

  it("a wrong content type is 415, an empty body 400", async () => {
    const r = await call(server.url, "POST", "/api/v1/prior-art", { key, rawBody: "claims=x", contentType: "application/x-www-form-urlencoded" })
    expect(r.status).toBe(415)
    expect(r.json).toEqual({ success: false, error: "Content-Type: must be application/json" })
    const empty = await call(server.url, "POST", "/api/v1/claim-validation/antecedent-basis", { key, rawBody: "" })
    expect(empty.status).toBe(400)
    expect(empty.json).toEqual({ error: "body: a JSON object is required" })
  })

  it("an oversize body is 413", async () => {
    const r = await call(server.url, "POST", "/api/v1/claim-validation/support", { key, body: { claims: [{ text: "x".repeat(70_000) }], appNum: "15695467" } })
    expect(r.status).toBe(413)
    expect(r.json).toEqual({ error: expect.stringContaining("at most 65536 bytes") })
  })

  it("a wrong method is 405 with Allow; an unknown route 404", async () => {
    const r = await call(server.url, "DELETE", "/api/v1/patent-map/locate", { key })
    expect(r.status).toBe(405)
    expect(r.headers.get("allow")).toBe("POST")
    expect(r.json.code).toBe("METHOD_NOT_ALLOWED")
    const unknown = await call(server.url, "GET", "/api/v1/prior-art/nothing", { key })
    expect(unknown.status).toBe(404)
    expect(unknown.json).toEqual({ success: false, error: "no such route" })
    const cv = await call(server.url, "GET", "/api/v1/claim-validation/other", { key })
    expect(cv.json).toEqual({ error: "no such route" })
    // An empty segment names no route, though the router would read it as `/patent/citations`
    // (an application numbered "citations") and answer 400.
    for (const path of ["/api/v1/patent-map/patent//citations", "/api/v1/patent-intel//examiners", "/api/v1/guidance/mpep//"]) {
      const empty = await call(server.url, "GET", path, { key })
      expect(empty.status, path).toBe(404)
      expect(empty.json, path).toMatchObject({ error: "no such route" })
    }
  })
})

describe("HTTP conventions", () => {
  it("Cache-Control per route on success, no-store on errors, X-Request-Id everywhere", async () => {
    const expected: Record<string, string> = {
      "GET /api/v1/patent-map/whitespace": "private, max-age=1800",
      "GET /api/v1/patent-map/points": "private, max-age=1800",
      "GET /api/v1/warmup": "no-store",
      "POST /api/v1/warmup": "no-store",
      "POST /api/v1/patent-map/locate": "no-store",
      "POST /api/v1/prior-art": "no-store",
      "GET /api/v1/patent-map/patent/:appNum": "private, max-age=86400",
      "GET /api/v1/patent-intel/cpc/:code": "private, max-age=86400",
      "GET /api/v1/guidance/design-code/:code": "private, max-age=86400",
      "GET /api/v1/claim-validation/support/:appNum": "private, max-age=86400"
    }
    for (const [route, cache] of Object.entries(expected)) {
      expect(routeTable.find((r) => `${r.method} ${r.template}` === route)?.access.cacheControl, route).toBe(cache)
    }
    for (const r of routeTable.filter((r) => r.group === "patent-intel" || r.group === "guidance")) {
      expect(r.access.cacheControl).toBe("private, max-age=86400")
      expect(r.access.metered).toBe(true)
    }
    hub.state.ready = true
    const ok = await call(server.url, "GET", "/api/v1/warmup", { key })
    expect(ok.status).toBe(200)
    expect(ok.headers.get("cache-control")).toBe("no-store")
    const failed = await call(server.url, "GET", "/api/v1/patent-intel/cpc/H04L", { key })
    expect(failed.headers.get("cache-control")).toBe("no-store")
    for (const r of [ok, failed, await call(server.url, "GET", "/nowhere"), await call(server.url, "GET", "/metrics")]) {
      expect(r.headers.get("x-request-id")).toMatch(/^[\w.-]{8,64}$/)
    }
    const echoed = await call(server.url, "GET", "/api/v1/warmup", { key, headers: { "x-request-id": "trace-12345678" } })
    expect(echoed.headers.get("x-request-id")).toBe("trace-12345678")
  })

  it("metered and free routes exactly as SPEC part 4 marks them", () => {
    const free = routeTable.filter((r) => !r.access.metered).map((r) => `${r.method} ${r.template}`).sort()
    expect(free).toEqual(["GET /api/v1/patent-map/whitespace", "GET /api/v1/warmup", "POST /api/v1/claim-validation/antecedent-basis", "POST /api/v1/warmup"])
    expect(routeTable).toHaveLength(24)
  })

  it("warm-up proxies the hub: POST starts loading, GET only reads, wait blocks until ready", async () => {
    hub.state = { ready: false, warming: false, reranker: false }
    hub.calls.length = 0
    const started = await call(server.url, "POST", "/api/v1/warmup?rerank=true", { key })
    expect(started.status).toBe(200)
    expect(started.json).toMatchObject({ ready: false, warming: true, models: { encoder: false, reranker: false }, estimatedReadySeconds: 71, warmWindowSeconds: 900 })
    expect(hub.calls).toEqual(["POST /warmup?rerank=1"])
    const status = await call(server.url, "GET", "/api/v1/warmup", { key })
    expect(Object.keys(status.json).sort()).toEqual(["models", "ready", "warmWindowSeconds"])
    setTimeout(() => (hub.state.ready = true), 300)
    const waited = await call(server.url, "POST", "/api/v1/warmup?wait=10", { key })
    expect(waited.json.ready).toBe(true)
    hub.state.ready = false
    const timedOut = await call(server.url, "POST", "/api/v1/warmup?wait=1", { key })
    expect(timedOut.json).toMatchObject({ ready: false, note: expect.stringContaining("still loading") })
  })

  it("/healthz reports readiness, /metrics counts requests by route and status, latency and quota rejections", async () => {
    const health = await call(server.url, "GET", "/healthz")
    expect(health.status).toBe(503)
    expect(health.json.status).toBe("unavailable")
    const limited = await server.key({ daily: 1 })
    await call(server.url, "GET", "/api/v1/guidance/design-code/01", { key: limited })
    await call(server.url, "GET", "/api/v1/guidance/design-code/01", { key: limited })
    const metrics = await call(server.url, "GET", "/metrics")
    expect(metrics.headers.get("content-type")).toContain("text/plain")
    expect(metrics.text).toContain('api_requests_total{route="GET /api/v1/guidance/design-code/:code",method="GET",status="503"}')
    expect(metrics.text).toMatch(/api_request_duration_seconds_bucket\{route="GET \/api\/v1\/warmup",method="GET",le="\+Inf"\} \d+/)
    expect(metrics.text).toMatch(/api_quota_rejections_total\{limit="daily"\} [1-9]/)
  })
})
