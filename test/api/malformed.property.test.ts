/**
 * Thousands of malformed requests against every route — bad JSON, wrong types, out-of-range
 * numbers, overlong strings, odd path characters, bad auth headers, wrong methods and content
 * types: never an undocumented 500, always a documented status in the route family's envelope.
 */
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { openApiDocument } from "../../api/docs/openapi.ts"
import { familyOfPath, matchRoute, routeTable } from "../../api/http/route-table.ts"
import { startStubHub, startTestServer, type StubHub, type TestServer } from "./support.ts"

let server: TestServer
let hub: StubHub
let key: string
let narrowKey: string

beforeAll(async () => {
  hub = await startStubHub()
  hub.state.ready = true
  server = await startTestServer({ hubUrl: hub.url, maxBodyBytes: 32 * 1024 })
  key = await server.key({ daily: 10_000_000, monthly: 10_000_000 })
  narrowKey = await server.key({ daily: 10_000_000, monthly: 10_000_000, permissions: ["warm_up"] })
})
afterAll(async () => {
  await server.close()
  await hub.close()
})

const AUTH_CODES: Record<number, ReadonlyArray<string>> = {
  401: ["MISSING_API_KEY", "INVALID_AUTH_FORMAT", "INVALID_KEY_FORMAT", "KEY_NOT_FOUND", "API_KEY_EXPIRED"],
  403: ["TEST_KEY_FORBIDDEN", "IP_NOT_WHITELISTED", "INSUFFICIENT_PERMISSIONS"],
  429: ["USAGE_LIMIT_EXCEEDED"]
}
/** Statuses the outer middleware and admission add to every route: unknown route, wrong method, oversize body, wrong content type. */
const GATEWAY_STATUSES = [404, 405, 413, 415]

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 })
const anyText = fc.string({ unit: "binary", maxLength: 60 })

const authorization = fc.oneof(
  { weight: 6, arbitrary: fc.constant<string | undefined>("VALID") },
  fc.constant<string | undefined>(undefined),
  fc.constant<string | undefined>("NARROW"),
  printable.map((s) => s as string | undefined),
  printable.map((s) => `Bearer ${s}`),
  fc.constantFrom("Bearer", "Bearer ", "bearer ak_live_", "Basic YWJjOmRlZg==", "Bearer ak_live_" + "a".repeat(31), "Bearer ak_test_" + "1".repeat(33), "Bearer ak_live_" + "Z".repeat(32))
)

const oddSegment = fc.oneof(
  fc.constantFrom("", "%", "%zz", "%E0%A4%A", "a%2Fb", "%00", "..", ".", "~", "!", "'", "*", "()", ";", ":", "@", "&", "=", "+", "$", ",", "%C2%A7", "%20", "mpep-", "epo-", "xx-1"),
  anyText.map(encodeURIComponent),
  fc.string({ minLength: 100, maxLength: 2000 }).map(encodeURIComponent),
  fc.integer().map(String),
  fc.stringMatching(/^[0-9]{1,16}$/),
  fc.stringMatching(/^[A-HY][0-9A-Z/]{0,20}$/).map(encodeURIComponent)
)

const queryValue = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
  fc.double().map(String),
  fc.constantFrom("", "NaN", "1e3", "-0", "Infinity", "0x10", "true", "false", "1", "0", "A", "Z", "high", " 5", "5 "),
  anyText,
  fc.string({ minLength: 100, maxLength: 3000 })
)
const queryNames = [...new Set(routeTable.flatMap((r) => (r.urlParamsSchema._tag === "Some" ? Object.keys((r.urlParamsSchema.value as any).fields ?? (r.urlParamsSchema.value as any).from?.fields ?? {}) : [])))]
const query = fc.dictionary(fc.oneof(fc.constantFrom(...queryNames), printable), queryValue, { maxKeys: 4 })

const jsonish = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(0, -1, 101, 1e9, 2.5, "", " ", true, null, [], {}, "x".repeat(25_000)),
  fc.string({ minLength: 10, maxLength: 300 })
)
const payloadNames = [
  "claims", "abstract", "count", "useReranking", "includeClaims", "hyde", "hybrid", "forceReprocess", "filedBefore", "filedAfter", "cpc3",
  "country", "appNumbers", "format", "independentOnly", "query", "appNum", "topK", "minSeverity", "includeSuppressed", "sections",
  "includeParents", "maxAncestors", "ocr"
]
const body = fc.oneof(
  fc.dictionary(fc.constantFrom(...payloadNames), jsonish, { maxKeys: 6 }).map((o) => JSON.stringify(o)),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.constantFrom("", "{", '{"claims": ', "[1,2", "nul", "{'a':1}", '{"a":1}}', "\u0000", '{"claims":"' + "x".repeat(40_000) + '"}'),
  anyText
)

const request = fc.record({
  route: fc.constantFrom(...routeTable),
  segments: fc.array(oddSegment, { maxLength: 3 }),
  useOddSegments: fc.boolean(),
  method: fc.oneof({ weight: 8, arbitrary: fc.constant("ROUTE") }, fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH")),
  query,
  body: fc.option(body, { nil: undefined }),
  contentType: fc.constantFrom<string | undefined>("application/json", "application/json", "application/json; charset=utf-8", undefined, "text/plain", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded"),
  authorization
})

type Sample = typeof request extends fc.Arbitrary<infer T> ? T : never

const documentedStatuses = (method: string, template: string): Set<number> => {
  const op = openApiDocument.paths[template.replace(/:(\w+)/g, "{$1}")]?.[method.toLowerCase()]
  return new Set([...Object.keys(op?.responses ?? {}).map(Number), ...GATEWAY_STATUSES])
}

const send = async (s: Sample) => {
  let i = 0
  const path = s.route.template.replace(/:(\w+)/g, () => (s.useOddSegments && i < s.segments.length ? s.segments[i++] : "1234567"))
  const method = s.method === "ROUTE" ? s.route.method : s.method
  const url = new URL(`${server.url}${path}`)
  for (const [k, v] of Object.entries(s.query)) url.searchParams.append(k, v)
  const headers: Record<string, string> = {}
  const auth = s.authorization === "VALID" ? `Bearer ${key}` : s.authorization === "NARROW" ? `Bearer ${narrowKey}` : s.authorization
  if (auth !== undefined) headers.authorization = auth
  const withBody = method !== "GET" && s.body !== undefined
  if (withBody && s.contentType) headers["content-type"] = s.contentType
  const response = await fetch(url, { method, headers, body: withBody ? s.body : undefined })
  const text = await response.text()
  return { url, method, response, text }
}

describe("malformed requests against every route", () => {
  it("always answer a documented status in the family envelope, never an undocumented 500", async () => {
    await fc.assert(
      fc.asyncProperty(request, async (sample) => {
        const { url, method, response, text } = await send(sample)
        const status = response.status
        const family = familyOfPath(url.pathname)
        const match = matchRoute(method, url.pathname)
        const context = `${method} ${url.pathname}${url.search.slice(0, 200)} → ${status} ${text.slice(0, 300)}`
        expect(response.headers.get("x-request-id"), context).toBeTruthy()
        const json = JSON.parse(text)

        if (AUTH_CODES[status]) {
          expect(AUTH_CODES[status], context).toContain(json.code)
          return
        }
        if (match._tag === "Matched") {
          expect(documentedStatuses(match.route.method, match.route.template).has(status), context).toBe(true)
        } else {
          expect([404, 405], context).toContain(status)
        }
        if (status === 200) return
        expect(status === 500 && (family === "coded" || match._tag !== "Matched"), `undocumented 500: ${context}`).toBe(false)
        switch (family) {
          case "prior-art":
            expect(json.success, context).toBe(false)
            expect(typeof json.error, context).toBe("string")
            expect(Object.keys(json).sort(), context).toEqual(status === 500 ? ["error", "request_id", "success"] : ["error", "success"])
            break
          case "coded":
            expect(Object.keys(json).sort(), context).toEqual(["code", "error", "timestamp"])
            break
          case "claim-validation":
            expect(Object.keys(json), context).toEqual(["error"])
            break
        }
      }),
      { numRuns: 3000 }
    )
  })
})
