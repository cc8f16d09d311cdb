/**
 * The API as browsers and HTTP caches see it: CORS for configured origins (preflights need no
 * key), the OpenAPI document readable from anywhere, Vary on authenticated answers, ETags
 * with 304, compression when accepted, a favicon.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { gunzipSync } from "node:zlib"
import { startTestServer, type TestServer } from "./support.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const sampleDir = await sampleArtifacts()

let api: TestServer
let key: string

beforeAll(async () => {
  api = await startTestServer({ artifactsDir: sampleDir, corsOrigins: ["http://app.example"] })
  key = await api.key()
})
afterAll(() => api?.close())

const auth = () => ({ authorization: `Bearer ${key}` })

describe("browsers and caches", () => {
  it("answers a preflight from an allowed origin without a key, and refuses other origins", async () => {
    const ok = await fetch(`${api.url}/api/v1/patent-map/whitespace`, {
      method: "OPTIONS",
      headers: { origin: "http://app.example", "access-control-request-method": "GET", "access-control-request-headers": "authorization" }
    })
    expect(ok.status).toBe(204)
    expect(ok.headers.get("access-control-allow-origin")).toBe("http://app.example")
    expect(ok.headers.get("access-control-allow-headers")).toContain("authorization")
    const other = await fetch(`${api.url}/api/v1/patent-map/whitespace`, { method: "OPTIONS", headers: { origin: "http://evil.example", "access-control-request-method": "GET" } })
    expect(other.status).toBe(204)
    expect(other.headers.get("access-control-allow-origin")).toBeNull()
    const doc = await fetch(`${api.url}/api/v1/openapi.json`, { headers: { origin: "http://anyone.example" } })
    expect(doc.headers.get("access-control-allow-origin")).toBe("*")
  })

  it("marks authenticated answers Vary: Authorization, Origin and allows the configured origin", async () => {
    const r = await fetch(`${api.url}/api/v1/patent-map/whitespace?limit=2`, { headers: { ...auth(), origin: "http://app.example" } })
    expect(r.status).toBe(200)
    expect(r.headers.get("vary")).toContain("Authorization")
    expect(r.headers.get("vary")).toContain("Origin")
    expect(r.headers.get("access-control-allow-origin")).toBe("http://app.example")
    const refused = await fetch(`${api.url}/api/v1/patent-map/whitespace?limit=2`, { headers: { authorization: "Bearer ak_live_00000000000000000000000000000000" } })
    expect(refused.status).toBe(401)
    expect(refused.headers.get("vary")).toContain("Authorization")
  })

  it("round-trips a ETag to 304 and compresses when asked", async () => {
    const first = await fetch(`${api.url}/api/v1/patent-map/points?limit=2000`, { headers: { ...auth(), "accept-encoding": "identity" } })
    const etag = first.headers.get("etag")!
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/)
    const again = await fetch(`${api.url}/api/v1/patent-map/points?limit=2000`, { headers: { ...auth(), "if-none-match": etag, "accept-encoding": "identity" } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe("")
    const plain = (await first.json()) as { points: unknown }

    const raw = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      import("node:http").then(({ get }) =>
        get(`${api.url}/api/v1/patent-map/points?limit=2000`, { headers: { ...auth(), "accept-encoding": "gzip" } }, (res) => {
          const chunks: Buffer[] = []
          res.on("data", (c) => chunks.push(c))
          res.on("end", () => resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(chunks) }))
        }).on("error", reject)
      )
    })
    expect(raw.encoding).toBe("gzip")
    const unzipped = JSON.parse(gunzipSync(raw.body).toString("utf8"))
    expect(unzipped.points).toEqual(plain.points)
  })

  it("serves a favicon without a key", async () => {
    const r = await fetch(`${api.url}/favicon.ico`)
    expect(r.status).toBe(200)
    expect(r.headers.get("content-type")).toContain("image/svg+xml")
  })
})
