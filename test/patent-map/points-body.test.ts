/**
 * The points answer is encoded once per version and query and spliced with each request's
 * timestamp (api/http/middleware/stamped-json.ts): the bytes must be exactly what the route's
 * schema encoding and JSON would give, and the gzip and brotli streams built from the cached
 * prefix must decode to those bytes for any timestamp.
 */
import { Schema } from "effect"
import { request } from "node:http"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PointsResponse } from "../../api/patent-map/Api.ts"
import { compressSpliced, splicedOf, stampedJson, stampedResponse } from "../../api/http/middleware/stamped-json.ts"
import { startTestServer, type TestServer } from "../api/support.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const sampleDir = await sampleArtifacts()

const sample = {
  points: [
    { appNum: "10000001", x: 0.5, y: -1.25e-7, z: 3, section: "G", artUnit: "2611", filingDate: "2001-02-03" },
    { appNum: "10000002", x: -0, y: 1e21, z: 0.1 + 0.2, section: null, artUnit: null, filingDate: null },
    { appNum: "1000\"0003\u2028\\", x: 1, y: 2, z: 3, section: "H", artUnit: "28\u00e9", filingDate: "1999-12-31" }
  ],
  count: 3,
  truncated: false
}

const bodyOf = (r: ReturnType<typeof stampedResponse>) => (r.body as { body: Uint8Array }).body

describe("stamped points JSON", () => {
  it("is byte for byte the schema-encoded answer with the request's timestamp", () => {
    const stamped = stampedJson(sample)
    for (const timestamp of ["2026-11-25T17:00:00.000Z", "2027-01-01T00:00:00.123Z"]) {
      const expected = JSON.stringify(Schema.encodeSync(PointsResponse)({ ...sample, timestamp }))
      expect(Buffer.from(bodyOf(stampedResponse(stamped, timestamp))).toString("utf8")).toBe(expected)
    }
  })

  it("gzip and brotli from the cached prefix decode to the identity bytes, for every timestamp", async () => {
    const big = { ...sample, points: Array.from({ length: 5000 }, (_, i) => ({ ...sample.points[i % 3]!, appNum: String(10_000_000 + i), x: Math.sin(i) })) }
    const stamped = stampedJson(big)
    for (const timestamp of ["2026-11-25T17:00:00.000Z", "2026-11-25T17:00:01.999Z"]) {
      const body = bodyOf(stampedResponse(stamped, timestamp))
      const spliced = splicedOf(body)!
      expect(spliced).toBeDefined()
      expect(gunzipSync(await compressSpliced("gzip", spliced, 4)).equals(Buffer.from(body))).toBe(true)
      expect(brotliDecompressSync(await compressSpliced("br", spliced, 4)).equals(Buffer.from(body))).toBe(true)
    }
  })
})

describe("GET /patent-map/points over HTTP", () => {
  let api: TestServer
  let key: string
  beforeAll(async () => {
    api = await startTestServer({ artifactsDir: sampleDir })
    key = await api.key()
  })
  afterAll(() => api?.close())

  const raw = (query: string, encoding: string) =>
    new Promise<{ status: number; etag?: string; encoding?: string; body: Buffer }>((resolve, reject) => {
      request(`${api.url}/api/v1/patent-map/points${query}`, { headers: { authorization: `Bearer ${key}`, "accept-encoding": encoding } }, (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (c) => chunks.push(c))
        res.on("end", () =>
          resolve({ status: res.statusCode!, etag: res.headers.etag, encoding: res.headers["content-encoding"], body: Buffer.concat(chunks) })
        )
      })
        .on("error", reject)
        .end()
    })
  const withoutTimestamp = (text: string) => {
    const { timestamp, ...rest } = JSON.parse(text)
    expect(Date.parse(timestamp)).toBeGreaterThan(Date.now() - 60_000)
    return rest
  }

  it("answers the same points in every encoding, with one tag per encoding and a fresh timestamp", async () => {
    const identity = await raw("?limit=500&section=G", "identity")
    expect(identity.status).toBe(200)
    const again = await raw("?limit=500&section=G", "identity")
    expect(again.etag).toBe(identity.etag)
    const gz = await raw("?limit=500&section=G", "gzip")
    const br = await raw("?limit=500&section=G", "br")
    expect([gz.encoding, br.encoding]).toEqual(["gzip", "br"])
    expect(gz.etag).toBe(identity.etag!.replace(/"$/, '-gzip"'))
    const plain = withoutTimestamp(identity.body.toString("utf8"))
    expect(plain.count).toBe(plain.points.length)
    expect(withoutTimestamp(gunzipSync(gz.body).toString("utf8"))).toEqual(plain)
    expect(withoutTimestamp(brotliDecompressSync(br.body).toString("utf8"))).toEqual(plain)
    // Another query is another answer.
    const other = await raw("?limit=100", "identity")
    expect(other.etag).not.toBe(identity.etag)
  })
})
