/** The five /patent-intel routes over real HTTP: bodies, cache headers and the coded error envelope. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, startTestServer, type TestServer } from "../api/support.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const sampleDir = await sampleArtifacts()

let api: TestServer
let key: string
beforeAll(async () => {
  api = await startTestServer({ artifactsDir: sampleDir })
  key = await api.key()
})
afterAll(() => api?.close())

const get = (p: string) => call(api.url, "GET", `/api/v1/patent-intel${p}`, { key })

describe("patent-intel routes", () => {
  it("looks up a CPC symbol with children and art-unit routing", async () => {
    const r = await get("/cpc/G06F?childLimit=3&distributionLimit=2")
    expect(r.status).toBe(200)
    expect(r.headers.get("cache-control")).toBe("private, max-age=86400")
    expect(r.json.scheme).toMatchObject({ code: "G06F", level: 3 })
    expect(r.json.children.length).toBeLessThanOrEqual(3)
    expect(r.json.child_count).toBeGreaterThan(3)
    expect(r.json.art_units.distribution.length).toBeLessThanOrEqual(2)
  })

  it("answers 404 NOT_FOUND for a symbol nobody knows and 400 for a malformed one", async () => {
    const missing = await get("/cpc/Y99Z")
    expect(missing.status).toBe(404)
    expect(missing.json).toMatchObject({ code: "NOT_FOUND" })
    expect(typeof missing.json.timestamp).toBe("string")
    const bad = await get("/cpc/1234")
    expect(bad.status).toBe(400)
    expect(bad.json.code).toBe("VALIDATION_ERROR")
  })

  it("classifies by publication number first, then application number", async () => {
    const byPub = await get("/classification/20220414841")
    const byApp = await get("/classification/17356223")
    expect(byPub.status).toBe(200)
    expect(byApp.json.application_number).toBe(byPub.json.application_number)
    expect(byPub.json.main_cpc).toBeTruthy()
  })

  it("profiles an art unit and finds and profiles its examiners", async () => {
    const au = await get("/art-unit/2863")
    expect(au.status).toBe(200)
    expect(au.json).toMatchObject({ art_unit: "2863", technology_center: "2800" })
    expect(au.json.examiner_count).toBe(au.json.examiners.length)
    const found = await get("/examiners?artUnit=2863&limit=5")
    expect(found.json.count).toBe(found.json.examiners.length)
    expect(found.json.examiners.length).toBeGreaterThan(0)
    const id = found.json.examiners[0].examiner_id
    const profile = await get(`/examiner/${id}?include=rejection_analysis`)
    expect(profile.status).toBe(200)
    expect(profile.json.sections_included).toContain("rejection_analysis")
    expect(profile.json.sections_available.length).toBe(6)
    expect((await get("/examiners")).json).toEqual({ count: 0, examiners: [] })
    expect((await get("/examiner/x")).status).toBe(400)
    expect((await get("/examiner/nobody-at-all")).status).toBe(404)
  })
})
