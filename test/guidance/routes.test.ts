/** The six /guidance routes over real HTTP against the sample build. */
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

const get = (p: string) => call(api.url, "GET", `/api/v1/guidance${p}`, { key })

describe("guidance routes", () => {
  it("serves MPEP 2173.05(e) with its antecedent-basis rules", async () => {
    const r = await get(`/mpep/${encodeURIComponent("2173.05(e)")}`)
    expect(r.status).toBe(200)
    expect(r.headers.get("cache-control")).toBe("private, max-age=86400")
    expect(r.json.sectionId).toBe("2173.05(e)")
    expect(JSON.stringify(r.json.content).toLowerCase()).toContain("antecedent basis")
    expect(r.json.keyRules.length).toBeGreaterThan(0)
  })

  it("serves an EPO section by its natural id variants, a form paragraph with a leading ¶, and a design code", async () => {
    const epo = await get("/epo/G-VII-5.1")
    expect(epo.status).toBe(200)
    expect((await get("/epo/g-vii-5.1")).json.sectionId).toBe(epo.json.sectionId)
    const fp = await get(`/form-paragraph/${encodeURIComponent("¶ 7.34.01")}`)
    expect(fp.status).toBe(200)
    expect(fp.json.code).toBe("7.34.01")
    const dc = await get("/design-code/01.01")
    expect(dc.status).toBe(200)
    expect(dc.json.code).toBe("01.01")
  })

  it("searches form paragraphs by statute and reports the applied filter", async () => {
    const r = await get("/form-paragraphs?rejectionType=112(b)&limit=5")
    expect(r.status).toBe(200)
    expect(r.json.results.length).toBeGreaterThan(0)
    expect(r.json.filter.matched).toBeTruthy()
    const unknown = await get("/form-paragraphs?rejectionType=teleportation")
    expect(unknown.json.count).toBe(0)
    expect(unknown.json.filter.note).toBeTruthy()
    expect((await get("/form-paragraphs")).status).toBe(400)
  })

  it("walks the guidance graph with limits and answers 404 for unknown nodes", async () => {
    const r = await get("/graph/mpep-2173.05(e)?limit=2")
    expect(r.status).toBe(200)
    expect(r.json.corpus).toBe("mpep")
    expect(r.json.outgoing.length).toBeLessThanOrEqual(2)
    expect((await get("/graph/mpep-9999.99")).status).toBe(404)
    expect((await get("/graph/mpep-2173?limit=500")).status).toBe(400)
  })
})
