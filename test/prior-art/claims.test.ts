/** POST /prior-art/claims over real HTTP against the sample build (SPEC 2.4, 4.1). */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, startTestServer, type TestServer } from "../api/support.ts"
import { sampleQuery } from "./sample-db.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const versionDir = await sampleArtifacts()
let server: TestServer
let key: string
const lookup = (body: unknown) => call(server.url, "POST", "/api/v1/prior-art/claims", { key, body })

/** Applications with claims, each with dependent claims. */
let withClaims: Array<{ app_num: string; n: number; ind: number }>
let withoutClaims: string

beforeAll(async () => {
  // Claims lookup reads tables only: no hub is needed.
  server = await startTestServer({ artifactsDir: versionDir })
  key = await server.key({ daily: 100_000, monthly: 1_000_000 })
  withClaims = await sampleQuery(
    versionDir,
    `SELECT app_num, count(*)::INTEGER AS n, sum(is_independent::INTEGER)::INTEGER AS ind FROM claims GROUP BY app_num HAVING n > ind ORDER BY app_num LIMIT 3`
  )
  ;[{ app_num: withoutClaims }] = await sampleQuery<{ app_num: string }>(
    versionDir,
    `SELECT app_num FROM applications WHERE app_num NOT IN (SELECT app_num FROM claims) ORDER BY app_num LIMIT 1`
  )
})
afterAll(() => server?.close())

describe("POST /prior-art/claims", () => {
  it("answers one entry per found application in the order requested, unknown numbers in not_found", async () => {
    const [a, b, c] = withClaims.map((x) => x.app_num)
    const r = await lookup({ appNumbers: [c, "99999999999", a, b, a] })
    expect(r.status).toBe(200)
    expect(r.json.success).toBe(true)
    const { specifications, metadata } = r.json.data
    expect(specifications.map((s: any) => s.application_number)).toEqual([c, a, b])
    expect(metadata).toMatchObject({ requested: 5, returned: 3, not_found: ["99999999999"], claims_withheld: 0 })
    expect(typeof metadata.lookup_ms).toBe("number")
    expect(typeof metadata.request_id).toBe("string")
    const first = specifications[1]
    expect(first.claims).toHaveLength(withClaims[0].n)
    expect(first.claims.map((x: any) => x.number)).toEqual([...first.claims.map((x: any) => x.number)].sort((x: number, y: number) => x - y))
    expect(first).not.toHaveProperty("claims_raw")
  })

  it("an application on file without claims is found, with an empty claim list", async () => {
    const r = await lookup({ appNumbers: [withoutClaims] })
    expect(r.json.data.specifications).toEqual([expect.objectContaining({ application_number: withoutClaims, claims: [] })])
    expect(r.json.data.metadata.not_found).toEqual([])
  })

  it("independentOnly keeps independent claims and counts the dropped ones in claims_withheld", async () => {
    const r = await lookup({ appNumbers: withClaims.map((x) => x.app_num), independentOnly: true })
    const specs = r.json.data.specifications
    specs.forEach((s: any, i: number) => {
      expect(s.claims).toHaveLength(withClaims[i].ind)
      for (const c of s.claims) expect(c.is_independent).toBe(true)
    })
    expect(r.json.data.metadata.claims_withheld).toBe(withClaims.reduce((t, x) => t + x.n - x.ind, 0))
  })

  it("format raw adds the claim set as one text section", async () => {
    const r = await lookup({ appNumbers: [withClaims[0].app_num], format: "raw" })
    const s = r.json.data.specifications[0]
    expect(s.claims_raw.startsWith(`1. ${s.claims[0].text}`)).toBe(true)
    expect(s.claims_raw.split("\n\n")).toHaveLength(withClaims[0].n)
  })

  it("refuses appNumbers missing, empty, not an array, with a non-digit entry or over 25 entries, and a bad format", async () => {
    for (const body of [{}, { appNumbers: [] }, { appNumbers: "123" }, { appNumbers: ["12a"] }, { appNumbers: Array(26).fill("1") }, { appNumbers: ["1"], format: "xml" }, { appNumbers: ["1"], independentOnly: "yes" }]) {
      const r = await lookup(body)
      expect(r.status, JSON.stringify(body).slice(0, 60)).toBe(400)
      expect(r.json.success).toBe(false)
    }
  })

  it("an unavailable dataset is the family's 500 with request_id", async () => {
    const bare = await startTestServer()
    try {
      const r = await call(bare.url, "POST", "/api/v1/prior-art/claims", { key: await bare.key(), body: { appNumbers: ["1"] } })
      expect(r.status).toBe(500)
      expect(r.json.request_id).toBe(r.headers.get("x-request-id"))
    } finally {
      await bare.close()
    }
  })
})
