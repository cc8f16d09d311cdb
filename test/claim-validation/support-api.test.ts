/** Support mapping over real HTTP: supplied sections, filed specification with the continuity walk, statuses. */
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

describe("claim support routes", () => {
  it("grades claim terms against supplied sections and flags an undescribed term", async () => {
    const r = await call(api.url, "POST", "/api/v1/claim-validation/support", {
      key,
      body: {
        claims: [{ number: 1, text: "A bottle comprising a cap and a flexible hinge connecting the cap to the neck." }],
        sections: [
          {
            name: "Detailed description",
            text: "As used herein, the term cap refers to a closure for the bottle. In one embodiment, shown in FIG. 1, the cap 12 is attached to the neck 14 of the bottle."
          }
        ]
      }
    })
    expect(r.status).toBe(200)
    const terms = r.json.claims[0].terms
    const grade = (t: string) => terms.find((x: any) => x.term.includes(t))?.grade
    expect(grade("cap")).toBe("FORMALLY_DEFINED")
    expect(grade("hinge")).toBe("UNDESCRIBED")
    expect(r.json.grades.UNDESCRIBED).toBeGreaterThanOrEqual(1)
  })

  it("maps the filed claims of a real application and walks its parents", async () => {
    const r = await call(api.url, "GET", "/api/v1/claim-validation/support/10391892", { key })
    expect(r.status).toBe(200)
    expect(r.headers.get("cache-control")).toBe("private, max-age=86400")
    expect(r.json.appNum).toBeDefined()
    expect(Array.isArray(r.json.ancestors)).toBe(true)
    const noWalk = await call(api.url, "GET", "/api/v1/claim-validation/support/10391892?parents=0", { key })
    expect(noWalk.json.ancestors ?? []).toEqual([])
  })

  it("refuses requests without claims or without sections/appNum, and malformed appNums", async () => {
    expect((await call(api.url, "POST", "/api/v1/claim-validation/support", { key, body: { claims: [], appNum: "10391892" } })).status).toBe(400)
    const neither = await call(api.url, "POST", "/api/v1/claim-validation/support", { key, body: { claims: [{ text: "A bottle comprising a cap." }] } })
    expect(neither.status).toBe(400)
    expect(Object.keys(neither.json)).toEqual(["error"])
    expect((await call(api.url, "GET", "/api/v1/claim-validation/support/123", { key })).status).toBe(400)
  })
})
