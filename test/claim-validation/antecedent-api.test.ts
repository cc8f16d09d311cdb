/**
 * Antecedent basis through the API (SPEC 2.6, 4.3): a supplied claim set, the filed claims of a
 * real application, "no claims on file" as a 200, minSeverity and includeSuppressed, and offsets
 * that slice the claim text to the term.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, startTestServer, type TestServer } from "../api/support.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const artifactsDir = await sampleArtifacts()
let api: TestServer
let key: string
let filedApp: string
let filedClaims: { claim_num: number; text: string }[]

beforeAll(async () => {
  api = await startTestServer({ artifactsDir })
  key = await api.key()
  const conn = await (await DuckDBInstance.create(":memory:")).connect()
  const claims = `read_parquet('${path.join(artifactsDir, "tables", "claims.parquet")}')`
  filedApp = String(
    (await conn.runAndReadAll(`SELECT app_num FROM ${claims} GROUP BY app_num HAVING count(*) >= 5 ORDER BY app_num LIMIT 1`)).getRows()[0][0]
  )
  filedClaims = (await conn.runAndReadAll(`SELECT claim_num, text FROM ${claims} WHERE app_num = '${filedApp}' ORDER BY claim_num`)).getRowObjectsJS() as any
})
afterAll(() => api?.close())

const claimSet = [
  "A fastening device comprising a housing, a lever pivotally mounted to the housing, and a spring biasing the lever.",
  "The fastening device of claim 1, wherein the latch engages the housing.",
  "The fastening device of claim 5, wherein the spring is a coil spring."
]

describe("POST /claim-validation/antecedent-basis", () => {
  it("finds a missing antecedent and an improper dependency, with offsets into the claim text", async () => {
    const r = await call(api.url, "POST", "/api/v1/claim-validation/antecedent-basis", { key, body: { claims: claimSet } })
    expect(r.status).toBe(200)
    expect(r.headers.get("cache-control")).toBe("no-store")
    expect(r.json).toMatchObject({ available: true, source: "request" })
    const latch = r.json.issues.find((i: any) => i.term.includes("latch"))
    expect(latch).toMatchObject({ claimNumber: 2, type: "no-antecedent-basis", severity: "high" })
    expect(claimSet[1].slice(latch.start, latch.end)).toBe(latch.display)
    expect(r.json.issues.some((i: any) => i.type === "improper-dependency" && i.claimNumber === 3)).toBe(true)
    expect(r.json.claims.map((c: any) => c.number)).toEqual([1, 2, 3])
    expect(r.json.stats.claimCount).toBe(3)
    expect(r.json.stats.issueCount).toBe(r.json.issues.length)
  })

  it("filters by minSeverity and returns suppressed candidates with their rule on request", async () => {
    const high = await call(api.url, "POST", "/api/v1/claim-validation/antecedent-basis", {
      key,
      body: { claims: claimSet, minSeverity: "high", includeSuppressed: true }
    })
    expect(high.json.issues.every((i: any) => i.severity === "high")).toBe(true)
    const sphere = await call(api.url, "POST", "/api/v1/claim-validation/antecedent-basis", {
      key,
      body: { claims: [{ number: 1, text: "A ball comprising a sphere, wherein the outer surface of the sphere is dimpled." }], includeSuppressed: true }
    })
    expect(sphere.json.issues).toEqual([])
    expect(sphere.json.suppressed.some((s: any) => s.term.includes("outer surface") && typeof s.rule === "string")).toBe(true)
  })

  it("refuses an unknown minSeverity and claims without usable text with {error} and no code", async () => {
    const bad = await call(api.url, "POST", "/api/v1/claim-validation/antecedent-basis", { key, body: { claims: claimSet, minSeverity: "severe" } })
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.json)).toEqual(["error"])
    expect(bad.json.error).toContain("minSeverity")
    const empty = await call(api.url, "POST", "/api/v1/claim-validation/antecedent-basis", { key, body: { claims: ["short"] } })
    expect(empty.status).toBe(400)
  })
})

describe("GET /claim-validation/antecedent-basis/{appNum}", () => {
  it("checks the filed claims from the warehouse", async () => {
    const r = await call(api.url, "GET", `/api/v1/claim-validation/antecedent-basis/${filedApp}`, { key })
    expect(r.status).toBe(200)
    expect(r.headers.get("cache-control")).toBe("private, max-age=86400")
    expect(r.json).toMatchObject({ appNum: filedApp, source: "warehouse", available: true })
    expect(r.json.claims).toHaveLength(filedClaims.length)
    for (const i of r.json.issues) {
      const text = filedClaims.find((c) => c.claim_num === i.claimNumber)!.text
      expect(text.slice(i.start, i.end)).toBe(i.display)
    }
  })

  it("answers 200 available:false for an application with no claims on file", async () => {
    const r = await call(api.url, "GET", "/api/v1/claim-validation/antecedent-basis/99999999", { key })
    expect(r.status).toBe(200)
    expect(r.json).toEqual({ appNum: "99999999", available: false, source: "warehouse", reason: "no-claims" })
  })

  it("refuses a malformed appNum", async () => {
    const r = await call(api.url, "GET", "/api/v1/claim-validation/antecedent-basis/12AB", { key })
    expect(r.status).toBe(400)
    expect(Object.keys(r.json)).toEqual(["error"])
  })
})
