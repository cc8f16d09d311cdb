/** Art-unit profiles against the sample build (art unit 2863: TC 2800, 29 examiners). */
import { afterAll, describe, expect, it } from "vitest"
import { patentIntelRuntime } from "./runtime.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const pi = patentIntelRuntime(await sampleArtifacts())
afterAll(() => pi.dispose())

type Body = Record<string, any>

describe("getArtUnitProfile", () => {
  it("serves 2863 with its technology center, a title derived from the CPC mix and said to be", async () => {
    const body: Body = await pi.run((s) => s.getArtUnitProfile("2863"))
    expect(body.art_unit).toBe("2863")
    expect(body.technology_center).toBe("2800")
    expect(body.title).toMatch(/Meteorology/)
    expect(body.generated_context.title).toMatch(/derived from the art unit's CPC mix/)
    expect(body.keywords).toContain("weather")
  })

  it("serves the description as its opening plus its length", async () => {
    const body: Body = await pi.run((s) => s.getArtUnitProfile("2863"))
    const [{ description }] = await pi.sql(`SELECT description FROM art_unit_profiles WHERE art_unit = '2863'`)
    expect(body.description.length).toBe(String(description).length)
    expect(String(description).startsWith(body.description.opening)).toBe(true)
    expect(body.description.opening.length).toBeLessThan(body.description.length)
    expect(body.description.truncated).toBe(true)
  })

  it("summarises the CPC codes: total, by section, at most 25 subclasses", async () => {
    const body: Body = await pi.run((s) => s.getArtUnitProfile("2863"))
    const [{ n }] = await pi.sql(
      `SELECT count(*)::INTEGER AS n FROM cpc_assignments c JOIN applications a USING (app_num) WHERE a.art_unit = '2863'`
    )
    expect(body.cpc_codes.total).toBe(n)
    expect(Object.values(body.cpc_codes.by_section).reduce((a: number, b) => a + Number(b), 0)).toBe(n)
    expect(body.cpc_codes.top_subclasses[0]).toMatchObject({ subclass: "G01W", count: 4 })
    expect(body.cpc_codes.top_subclasses.length).toBeLessThanOrEqual(25)
  })

  it("serves the roster without application numbers and counts it", async () => {
    const body: Body = await pi.run((s) => s.getArtUnitProfile("2863"))
    expect(body.examiner_count).toBe(body.examiners.length)
    expect(body.examiner_count).toBe(29)
    expect(body.examiners[0]).toMatchObject({ examiner_id: "bryant-christian-thomas", full_name: "BRYANT, CHRISTIAN THOMAS" })
    for (const e of body.examiners) for (const v of Object.values(e)) expect(Array.isArray(v)).toBe(false)
    expect(JSON.stringify(body.examiners)).not.toMatch(/"\d{8}"/)
  })

  it("serves statistics with data_quality, and the unreliable independent-claims average as null with a note", async () => {
    const body: Body = await pi.run((s) => s.getArtUnitProfile("2863"))
    const st = body.statistics
    for (const k of ["allowance", "rejections", "timing", "interviews", "rce", "estimated_cost", "data_quality"]) expect(st[k]).toBeTruthy()
    expect(st.data_quality).toMatchObject({ applications_analysed: 127, volume: { tier: expect.any(String) } })
    expect(st.data_quality.recency_score).toEqual(expect.any(Number))
    expect(st.data_quality.completeness_score).toEqual(expect.any(Number))
    expect(st.claims_analysis.independentClaimsStats.avgIndependentClaims).toBeNull()
    expect(st.claims_analysis.independentClaimsStats.note).toMatch(/claim text exists for/)
    // 29 examiners in the roster and 29 in the statistics: no second figure.
    expect(body).not.toHaveProperty("examiner_count_in_statistics")
  })

  it("shows examiner_count_in_statistics where the stored statistics counted a different roster", async () => {
    const [row] = await pi.sql(
      `SELECT art_unit, (statistics->>'examiner_count_in_statistics')::INTEGER AS in_stats FROM art_unit_profiles
       WHERE statistics IS NOT NULL AND (statistics->>'examiner_count_in_statistics')::INTEGER <> json_array_length(examiners)
       ORDER BY art_unit LIMIT 1`
    )
    const body: Body = await pi.run((s) => s.getArtUnitProfile(String(row.art_unit)))
    expect(body.examiner_count_in_statistics).toBe(row.in_stats)
    expect(body.examiner_count_in_statistics).not.toBe(body.examiner_count)
  })

  it("statistics is null for an art unit with no analysed application", async () => {
    const [row] = await pi.sql(`SELECT art_unit FROM art_unit_profiles WHERE statistics IS NULL ORDER BY art_unit LIMIT 1`)
    const body: Body = await pi.run((s) => s.getArtUnitProfile(String(row.art_unit)))
    expect(body.statistics).toBeNull()
  })

  it("fails with NotFound for an art unit no collection holds", async () => {
    const err = await pi.fail((s) => s.getArtUnitProfile("9999"))
    expect(err._tag).toBe("NotFound")
  })
})
