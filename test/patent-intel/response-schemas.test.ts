/** The service's bodies encode with the routes' success schemas (what the route layer sends). */
import { Schema } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { ArtUnitProfile, Classification, CpcLookup, ExaminerProfile, ExaminerSearchResult } from "../../api/patent-intel/Api.ts"
import { guardClaimsAnalysis } from "../../api/patent-intel/stored.ts"
import { patentIntelRuntime } from "./runtime.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const pi = patentIntelRuntime(await sampleArtifacts())
afterAll(() => pi.dispose())

describe("response bodies", () => {
  it("encode with the route schemas", async () => {
    const cpc = await pi.run((s) => s.lookupCpcCode("G06F", { childLimit: 50, distributionLimit: 20 }))
    expect(Schema.encodeUnknownSync(CpcLookup)(cpc)).toMatchObject({ code: "G06F" })
    const retired = await pi.run((s) => s.lookupCpcCode("B60L11/1809", { childLimit: 50, distributionLimit: 20 }))
    expect(Schema.encodeUnknownSync(CpcLookup)(retired)).toMatchObject({ scheme: null })
    const cls = await pi.run((s) => s.getPatentClassification("20220414841"))
    expect(Schema.encodeUnknownSync(Classification)(cls)).toMatchObject({ application_number: "17356223" })
    const au = await pi.run((s) => s.getArtUnitProfile("2863"))
    expect(Schema.encodeUnknownSync(ArtUnitProfile)(au)).toMatchObject({ art_unit: "2863" })
    const found = await pi.run((s) => s.findExaminer({ name: "BRYANT", limit: 20 }))
    expect(Schema.encodeUnknownSync(ExaminerSearchResult)(found)).toEqual(found)
    const ex = await pi.run((s) => s.getExaminerProfile("bryant-christian-thomas", "rejection_analysis"))
    expect(Schema.encodeUnknownSync(ExaminerProfile)(ex)).toMatchObject({ sections_included: ["rejection_analysis"] })
  })
})

describe("guardClaimsAnalysis", () => {
  const claims = (avgIndependentClaims: unknown, avgClaims: number) => ({ applications_with_claims: 4, independentClaimsStats: { avgIndependentClaims, avgClaims, n: 4 } })

  it("keeps a plausible stored average", () => {
    expect(guardClaimsAnalysis(claims(2.5, 18))).toEqual(claims(2.5, 18))
  })

  it("nulls an impossible average with a note and records it as withheld", () => {
    const dq = { withheld: [] as unknown[] }
    for (const bad of [0, 0.4, 25]) {
      const out = guardClaimsAnalysis(claims(bad, 18), dq) as any
      expect(out.independentClaimsStats.avgIndependentClaims).toBeNull()
      expect(out.independentClaimsStats.note).toMatch(/impossible/)
    }
    expect(dq.withheld).toHaveLength(3)
    expect(dq.withheld[0]).toMatchObject({ field: "claims_analysis.independentClaimsStats.avgIndependentClaims" })
  })

  it("keeps the stage's own note on a value it already withheld", () => {
    const stored = { independentClaimsStats: { avgIndependentClaims: null, avgClaims: 2, n: 1, note: "claim text exists for 0 of 127" } }
    expect(guardClaimsAnalysis(stored)).toEqual(stored)
  })
})
