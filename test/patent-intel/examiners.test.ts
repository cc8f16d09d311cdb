/** Examiner search and examiner profiles against the sample build. */
import { afterAll, describe, expect, it } from "vitest"
import { heavySections } from "../../pipeline/prosecution/examiners.ts"
import { patentIntelRuntime } from "./runtime.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const pi = patentIntelRuntime(await sampleArtifacts())
afterAll(() => pi.dispose())

type Body = Record<string, any>
const bryant = { examiner_id: "bryant-christian-thomas", full_name: "BRYANT, CHRISTIAN THOMAS", art_unit: "2863", technology_center: "2800" }

describe("findExaminer", () => {
  it("matches an exact surname case-insensitively, exact-surname examiners first", async () => {
    const body = await pi.run((s) => s.findExaminer({ name: "bryant", limit: 20 }))
    expect(body.examiners[0]).toEqual(bryant)
    expect(body.count).toBe(body.examiners.length)
    for (const e of body.examiners) expect(e.full_name.startsWith("BRYANT")).toBe(true)
  })

  it("matches a prefix of the surname-first full name, whatever the spacing around the comma", async () => {
    for (const name of ["Bryant, Christ", "BRYANT ,CHRISTIAN  T", "bryant,"]) {
      const body = await pi.run((s) => s.findExaminer({ name, limit: 20 }))
      expect(body.examiners.map((e) => e.examiner_id)).toContain("bryant-christian-thomas")
    }
    const narrowed = await pi.run((s) => s.findExaminer({ name: "bryant, c", limit: 20 }))
    expect(narrowed.examiners).toEqual([bryant])
  })

  it("is anchored: a fragment from inside a name matches nothing", async () => {
    for (const name of ["RYANT", "CHRISTIAN THOMAS", "%YANT", "_RYANT"]) {
      const body = await pi.run((s) => s.findExaminer({ name, limit: 20 }))
      expect(body.examiners.map((e) => e.examiner_id)).not.toContain("bryant-christian-thomas")
    }
  })

  it("filters by art unit, alone or with a name, and honours the limit", async () => {
    const inUnit = await pi.run((s) => s.findExaminer({ artUnit: "2863", limit: 100 }))
    const [{ n }] = await pi.sql(
      `SELECT count(DISTINCT examiner_id)::INTEGER AS n FROM examiners WHERE art_unit = '2863' OR list_contains(art_units, '2863')`
    )
    expect(inUnit.count).toBe(n)
    expect(inUnit.examiners.map((e) => e.examiner_id)).toContain("bryant-christian-thomas")
    const limited = await pi.run((s) => s.findExaminer({ artUnit: "2863", limit: 3 }))
    expect(limited.count).toBe(3)
    const both = await pi.run((s) => s.findExaminer({ name: "BRYANT", artUnit: "2884", limit: 20 }))
    expect(both.examiners.map((e) => e.examiner_id)).toEqual(["bryant-michael-c"])
  })

  it("answers an empty list when neither name nor art unit is given", async () => {
    expect(await pi.run((s) => s.findExaminer({ limit: 20 }))).toEqual({ count: 0, examiners: [] })
    expect(await pi.run((s) => s.findExaminer({ name: "  ", limit: 20 }))).toEqual({ count: 0, examiners: [] })
  })

  it("fills an examiner's art unit from another spelling of the same name", async () => {
    // "NGUYEN, HOAI-AN D" (no art unit) and "NGUYEN, HOAI AN D" (2868) are one examiner.
    const body = await pi.run((s) => s.findExaminer({ name: "NGUYEN, HOAI", limit: 20 }))
    expect(body.examiners).toContainEqual({ examiner_id: "nguyen-hoai-an-d", full_name: "NGUYEN, HOAI-AN D", art_unit: "2868", technology_center: "2800" })
  })
})

describe("getExaminerProfile", () => {
  it("finds the examiner by id or by surname-first full name", async () => {
    for (const key of ["bryant-christian-thomas", "BRYANT, CHRISTIAN THOMAS", "Bryant, Christian Thomas"]) {
      const body: Body = await pi.run((s) => s.getExaminerProfile(key, []))
      expect(body).toMatchObject(bryant)
    }
  })

  it("serves the light sections and withholds the six heavy ones by default", async () => {
    const body: Body = await pi.run((s) => s.getExaminerProfile("bryant-christian-thomas", []))
    for (const k of ["portfolio", "rejection_analytics", "interview_metrics", "rcex_metrics", "timeline_metrics", "strategic_insights"])
      expect(body[k]).toBeTruthy()
    expect(body.portfolio).toMatchObject({ applications: 24, analysed: 24 })
    expect(body.claim_interpretation).toBeNull()
    expect(body).toHaveProperty("percentile_rankings")
    expect(body).toHaveProperty("claims_analysis")
    expect(body.data_quality).toMatchObject({
      populations: { all_applications: 24, analysed: 24, with_documents: expect.any(Number), with_office_actions: 20, with_filing_date: 24 },
      volume: { tier: "low" },
      withheld: [],
      notes: []
    })
    expect(body.sections_available).toEqual([...heavySections])
    expect(body.sections_included).toEqual([])

    const [stored] = await pi.sql(
      `SELECT json_array_length(rejection_analysis)::INTEGER AS ra, json_array_length(document_code_breakdown)::INTEGER AS dc,
         document_code_breakdown FROM examiner_statistics WHERE examiner_id = 'bryant-christian-thomas'`
    )
    expect(body.rejection_analysis).toEqual({ withheld: true, count: stored.ra, include: "rejection_analysis" })
    for (const name of heavySections) expect(body[name]).toMatchObject({ withheld: true, include: name, count: expect.any(Number) })
    expect(body.document_code_breakdown.count).toBe(stored.dc)
    expect(stored.dc).toBeGreaterThan(10)
    expect(body.document_code_breakdown.top_codes).toEqual(JSON.parse(String(stored.document_code_breakdown)).slice(0, 10))
  })

  it("include brings back each withheld section in full, ignoring unknown names", async () => {
    const [stored] = await pi.sql(`SELECT * FROM examiner_statistics WHERE examiner_id = 'bryant-christian-thomas'`)
    for (const name of heavySections) {
      const body: Body = await pi.run((s) => s.getExaminerProfile("bryant-christian-thomas", `${name}, no_such_section`))
      expect(body[name]).toEqual(JSON.parse(String(stored[name])))
      expect(body.sections_included).toEqual([name])
      for (const other of heavySections.filter((n) => n !== name)) expect(body[other].withheld).toBe(true)
    }
    const all: Body = await pi.run((s) => s.getExaminerProfile("bryant-christian-thomas", [...heavySections].reverse()))
    expect(all.sections_included).toEqual([...heavySections])
    expect(all.rejection_analysis[0]).toMatchObject({ app_num: expect.stringMatching(/^\d+$/), statutory_bases: expect.any(Object) })
  })

  it("fails with NotFound for an unknown examiner", async () => {
    for (const key of ["NOBODY, AT ALL", "--", "x' OR '1'='1"]) {
      const err = await pi.fail((s) => s.getExaminerProfile(key, []))
      expect(err._tag).toBe("NotFound")
    }
  })
})
