/**
 * The prosecution stage on a hand-made corpus whose every figure can be counted by hand:
 * allowance (including the traps: ABN9 is an RCE disposal, a rescinded abandonment, an
 * allowance withdrawn and re-issued, issue-fee abandonment after allowance), RCE, interviews,
 * timing, the 3-year share, withholding, and the CPC routing distributions with entropy.
 */
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { silentProgress } from "../../pipeline/stages/progress.ts"
import { prosecutionStage } from "../../pipeline/prosecution/stage.ts"
import type { StageResult } from "../../pipeline/stages/Stage.ts"
import { json, readParquet, writeTables } from "./fixture.ts"

type Ev = [date: string, code: string]
const history = (app: string, events: Ev[]) => events.map(([event_date, code], seq) => ({ app_num: app, seq, event_date, code, description: code, source: "peds-st96" }))

const SMITH = "SMITH, JOHN A"
const DOE = "DOE, JANE"
const app = (app_num: string, examiner: string, art_unit: string, filing_date: string, status: string, title: string) => ({
  app_num, examiner, art_unit, technology_center: `${art_unit.slice(0, 2)}00`, filing_date, status, status_date: null, doc_type: "utility", title
})

const applications = [
  app("10000001", SMITH, "2863", "2015-01-10", "Patented Case", "Battery state of charge measuring circuit"),
  app("10000002", SMITH, "2863", "2015-02-01", "Abandoned -- Failure to Respond to an Office Action", "Battery impedance measuring circuit"),
  app("10000003", SMITH, "2863", "2015-03-01", "Patented Case", "Battery capacity estimation"),
  app("10000004", SMITH, "2863", "2019-01-01", "Patented Case", "Battery voltage sensor"),
  app("10000005", SMITH, "2863", "2020-01-01", "Non Final Action Mailed", "Seismic sensor"),
  app("10000006", SMITH, "2863", "2014-01-01", "Abandoned -- Failure to Pay Issue Fee", "Battery charge meter"),
  app("10000007", SMITH, "2863", "2012-01-01", "granted", "Grant known only from XML"),
  app("20000001", DOE, "2864", "2016-01-01", "Abandoned -- After Examiner's Answer or Board of Appeals Decision", "Magnetic resonance coil"),
  app("20000002", DOE, "2864", "2016-05-01", "Patented Case", "Seismic data processing"),
  app("20000003", DOE, "2864", "2010-01-01", "Patented Case", "Seismic streamer")
]

const events = [
  // Allowed after a final rejection and an interview: 3 merits actions to allowance.
  ...history("10000001", [["2016-01-10", "CTNF"], ["2016-01-10", "MCTNF"], ["2016-04-01", "A..."], ["2016-08-01", "CTFR"], ["2016-09-01", "EXAT"], ["2016-09-01", "MEXAT"], ["2016-10-01", "N/=."], ["2016-10-01", "MN/=."]]),
  // Abandoned for failure to respond.
  ...history("10000002", [["2016-03-01", "CTNF"], ["2016-10-01", "ABN2"], ["2016-10-01", "MABN2"]]),
  // RCE: ABN9 is the RCE disposal, not an abandonment. 4 merits actions to allowance.
  ...history("10000003", [["2016-02-01", "CTNF"], ["2016-09-01", "CTFR"], ["2017-01-01", "RCEX"], ["2017-01-01", "ABN9"], ["2017-01-01", "BRCE"], ["2017-04-01", "CTNF"], ["2017-10-01", "N/=."]]),
  // First-action allowance.
  ...history("10000004", [["2020-01-01", "N/=."], ["2020-01-01", "MN/=."]]),
  // Pending; its date is the data as-of date.
  ...history("10000005", [["2021-01-01", "CTNF"]]),
  // Abandonment rescinded, then allowed, then issue fee not paid: allowed (the examiner allowed it).
  ...history("10000006", [["2015-01-01", "CTNF"], ["2015-08-01", "ABN2"], ["2015-09-01", "NRAB"], ["2015-12-01", "CTFR"], ["2016-01-15", "EXIN"], ["2016-02-01", "N/=."], ["2016-06-01", "ABN6"]]),
  // Restriction, rejections, appeal, abandoned after the Board.
  ...history("20000001", [["2016-06-01", "CTRS"], ["2016-09-01", "CTNF"], ["2017-03-01", "CTFR"], ["2017-06-01", "N/AP"], ["2018-01-01", "APDA"], ["2018-06-01", "ABN10"]]),
  // Allowance withdrawn and re-issued: allowance date is the second one.
  ...history("20000002", [["2017-01-01", "CTNF"], ["2017-06-01", "N/=."], ["2017-07-01", "W/N="], ["2017-09-01", "CTNF"], ["2018-01-01", "N/=."]]),
  // History without an allowance code, PEDS status "Patented Case": allowed by status only.
  ...history("20000003", [["2010-06-01", "DOCK"]])
]

const examiners = [
  { examiner_id: "doe-jane", full_name: DOE, surname: "DOE", art_unit: "2864", art_units: ["2864"], employee_number: null, application_count: 3 },
  { examiner_id: "smith-john-a", full_name: SMITH, surname: "SMITH", art_unit: "2863", art_units: ["2863"], employee_number: "12345", application_count: 7 }
]

const cpc = (app_num: string, symbol: string, is_main = false) => ({ app_num, symbol, subclass: symbol.slice(0, 4), section: symbol[0], is_inventive: true, is_main })
const cpc_assignments = [
  cpc("10000001", "G01R31/367", true),
  cpc("10000001", "G01V3/00"),
  cpc("10000003", "G01R31/36", true),
  cpc("10000004", "G01R31/367", true),
  cpc("20000001", "G01R33/00", true),
  cpc("20000002", "G01V1/00", true)
]
const scheme = (symbol: string, level: number, title: string, parent: string | null) => ({ symbol, level, title, parent, section: symbol[0] })
const cpc_scheme = [
  scheme("G", 1, "PHYSICS", null),
  scheme("G01", 2, "MEASURING; TESTING", "G"),
  scheme("G01R", 3, "MEASURING ELECTRIC VARIABLES; MEASURING MAGNETIC VARIABLES (indicating tuning H03J3/12)", "G01"),
  scheme("G01V", 3, "GEOPHYSICS; GRAVITATIONAL MEASUREMENTS", "G01"),
  scheme("G01R31/00", 4, "Arrangements for testing electric properties", "G01R"),
  scheme("G01R31/36", 5, "Arrangements for testing batteries", "G01R31/00"),
  scheme("G01R31/367", 6, "{Software therefor}", "G01R31/36"),
  scheme("G01R33/00", 4, "Arrangements for measuring magnetic variables", "G01R"),
  scheme("G01V1/00", 4, "Seismology", "G01V")
]

const office_actions = [
  { app_num: "10000002", document_id: "d1", document_code: "CTNF", mail_date: "2016-03-01", art_unit: "2863", examiner_employee_number: "12345", rejection_101: false, rejection_102: true, rejection_103: true, rejection_112: false, rejection_dp: false },
  { app_num: "10000003", document_id: "d2", document_code: "CTFR", mail_date: "2016-09-01", art_unit: "2863", examiner_employee_number: "12345", rejection_101: false, rejection_102: false, rejection_103: true, rejection_112: true, rejection_dp: false }
]

const claims = [
  { app_num: "10000001", claim_num: 1, is_independent: true, source: "uspto-grant-xml" },
  { app_num: "10000001", claim_num: 2, is_independent: false, source: "uspto-grant-xml" }
]

let dir: string
let result: StageResult
let ex: Record<string, Record<string, any>>
let au: Record<string, Record<string, any>>
let routing: Record<string, Record<string, any>>

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "prosecution-fixture-"))
  await writeTables(dir, { applications, prosecution_events: events, examiners, cpc_assignments, cpc_scheme, office_actions, claims })
  result = await Effect.runPromise(
    prosecutionStage.run({ workDir: dir, corpusFiles: [], openCorpusFile: () => { throw new Error("no corpus") }, outputOf: () => "", progress: silentProgress })
  )
  ex = Object.fromEntries((await readParquet(path.join(dir, "prosecution/examiner_statistics.parquet"))).map((r) => [r.examiner_id, r]))
  au = Object.fromEntries((await readParquet(path.join(dir, "prosecution/art_unit_profiles.parquet"))).map((r) => [r.art_unit, r]))
  routing = Object.fromEntries((await readParquet(path.join(dir, "prosecution/cpc_routing.parquet"))).map((r) => [r.symbol, r]))
})

afterAll(async () => {
  if (dir && !process.env.KEEP) await fs.rm(dir, { recursive: true, force: true })
})

describe("prosecution stage on a hand-counted corpus", () => {
  it("reports its outputs with row counts named after the files", () => {
    const files = ["application_events", "application_facts", "art_unit_profiles", "cpc_routing", "examiner_inputs", "examiner_statistics"]
    expect([...result.outputs].sort()).toEqual(files.map((f) => `prosecution/${f}.parquet`))
    expect(Object.keys(result.rowCounts).sort()).toEqual(files)
    // One row of facts per application of the corpus, whichever examiner.
    expect(result.rowCounts.application_facts).toBe(10)
    expect(result.rowCounts.examiner_statistics).toBe(2)
    expect(result.rowCounts.art_unit_profiles).toBe(2)
  })

  it("counts allowed and abandoned applications by the written definitions", () => {
    const p = json(ex["smith-john-a"].portfolio)
    // Allowed: 10000001, 10000003 (ABN9 is not an abandonment), 10000004, 10000006 (issue fee unpaid after allowance).
    // Abandoned: 10000002. Pending: 10000005. 10000007 has no PEDS history and is not analysed.
    expect(p).toMatchObject({ applications: 7, analysed: 6, allowed: 4, abandoned: 1, pending: 1, disposed: 5 })
    expect(p.allowance_rate.value).toBe(0.8)
    expect(p.allowance_rate.denominator).toBe(5)
    expect(p.allowance_rate.ci95.low).toBeCloseTo(0.3755, 3)
    expect(p.allowance_rate.ci95.high).toBeCloseTo(0.9638, 3)
    expect(p.allowance_rate.tier).toBe("low")
    // Merits actions up to the allowance: 3 (…01), 4 (…03), 1 (…04), 3 (…06: CTNF, CTFR, N/=.) → 11 / 4.
    expect(p.actions_per_allowance.value).toBe(2.75)
    // As-of 2021-01-01: first actions on or before 2018-01-01 are …01, …02, …03, …06; allowed within 3 years: …01, …03, …06.
    expect(p.allowance_within_3y_of_first_action).toMatchObject({ numerator: 3, denominator: 4, value: 0.75 })

    const d = json(ex["doe-jane"].portfolio)
    // 20000001 abandoned after appeal; 20000002 re-allowed after a withdrawal; 20000003 allowed by PEDS status only.
    expect(d).toMatchObject({ allowed: 2, abandoned: 1, pending: 0 })
    const dq = json(ex["doe-jane"].data_quality)
    expect(dq.notes.join(" ")).toMatch(/1 application\(s\) counted allowed from the PEDS status alone/)
  })

  it("measures timing from filing in months of 30.4375 days", () => {
    const t = json(ex["doe-jane"].timeline_metrics)
    // 20000002 filed 2016-05-01, allowance that stands 2018-01-01 (610 days); 20000001 has no allowance.
    expect(t.months_to_allowance.n).toBe(1)
    expect(t.months_to_allowance.median_months).toBeCloseTo(610 / 30.4375, 1)
    // First actions: 20000001 2016-09-01 (244 days after filing; the restriction does not count), 20000002 2017-01-01 (245 days).
    expect(t.months_to_first_action.n).toBe(2)
    expect(t.months_to_first_action.median_months).toBeCloseTo(244.5 / 30.4375, 1)
  })

  it("computes RCE and interview figures with their denominators", () => {
    const r = json(ex["smith-john-a"].rcex_metrics)
    expect(r.rce_rate).toMatchObject({ numerator: 1, denominator: 6 })
    expect(r.rces).toBe(1)
    expect(r.allowances_after_rce).toMatchObject({ numerator: 1, denominator: 4 })
    const i = json(ex["smith-john-a"].interview_metrics)
    // Interviews: …01 (EXAT, its mail twin not counted) and …06 (EXIN); both allowed.
    expect(i.interviews).toBe(2)
    expect(i.applicant_initiated).toBe(1)
    expect(i.allowance_rate_with_interview).toMatchObject({ numerator: 2, denominator: 2 })
    expect(i.allowance_rate_without_interview).toMatchObject({ numerator: 2, denominator: 3 })
  })

  it("lists rejections, appeals and statutory bases", () => {
    const ra = json(ex["smith-john-a"].rejection_analytics)
    expect(ra.non_final_rejections).toBe(6)
    expect(ra.final_rejections).toBe(3)
    expect(ra.first_action_allowance_rate).toMatchObject({ numerator: 1, denominator: 6 })
    expect(ra.statutory_bases.documents).toBe(2)
    expect(ra.statutory_bases.section_103).toMatchObject({ numerator: 2, denominator: 2 })
    expect(ra.statutory_bases.section_101).toMatchObject({ numerator: 0, denominator: 2 })
    const da = json(ex["doe-jane"].rejection_analytics)
    expect(da.appeals.applications_with_notice_of_appeal).toBe(1)
    expect(da.appeals.board_decisions.affirmed).toBe(1)
    expect(da.restriction_rate).toMatchObject({ numerator: 1 })
  })

  it("fills the heavy sections and the data-quality populations", () => {
    const s = ex["smith-john-a"]
    expect(json(s.applications_with_rcex).map((a: any) => a.app_num)).toEqual(["10000003"])
    expect(json(s.applications_with_interviews).map((a: any) => a.app_num)).toEqual(["10000001", "10000006"])
    expect(json(s.rejection_analysis)).toHaveLength(5)
    const codes = json(s.document_code_breakdown)
    expect(codes[0]).toMatchObject({ code: "CTNF", count: 6 })
    const seq = json(s.by_sequence_length)
    expect(seq.find((r: any) => r.merits_actions === "1")).toMatchObject({ applications: 3, allowed: 1, abandoned: 1, pending: 1 })
    const dq = json(s.data_quality)
    expect(dq.populations).toEqual({ all_applications: 7, analysed: 6, with_documents: 2, with_office_actions: 6, with_filing_date: 7 })
    expect(dq.volume.tier).toBe("low")
    expect(s.claim_interpretation).toBeNull()
    // Claim text for 1 of 6 analysed applications: the average is withheld and listed, never served.
    const ca = json(s.claims_analysis)
    expect(ca.independentClaimsStats.avgIndependentClaims).toBeNull()
    expect(dq.withheld.map((w: any) => w.field)).toContain("claims_analysis.independentClaimsStats.avgIndependentClaims")
    const si = json(s.strategic_insights)
    expect(si.derived).toBe(true)
    expect(si.insights.length).toBeGreaterThan(0)
  })

  it("routes CPC symbols to art units at every level with entropy", () => {
    // G01R: …01, …03, …04 in 2863 and 20000001 in 2864.
    expect(routing["G01R"]).toMatchObject({ level: 3, total_count: 4, unique_art_units: 2, top_art_unit: "2863" })
    expect(routing["G01R"].top_art_unit_probability).toBeCloseTo(0.75)
    expect(routing["G01R"].entropy).toBeCloseTo(-(0.75 * Math.log2(0.75) + 0.25 * Math.log2(0.25)), 6)
    expect(routing["G01R"].distribution).toEqual([
      { au: "2863", count: 3, probability: 0.75 },
      { au: "2864", count: 1, probability: 0.25 }
    ])
    // Every level of G01R31/367's chain, the intermediate subgroup included.
    expect(routing["G01R31/36"]).toMatchObject({ level: 5, total_count: 3, unique_art_units: 1, entropy: 0 })
    expect(routing["G01R31/367"]).toMatchObject({ level: 6, total_count: 2 })
    expect(routing["G01R31/00"]).toMatchObject({ level: 4, total_count: 3 })
    expect(routing["G"]).toMatchObject({ level: 1, total_count: 5 })
    // A symbol the scheme does not know still gets its syntactic level and ancestors.
    expect(routing["G01V3/00"]).toMatchObject({ level: 4, total_count: 1, top_art_unit: "2863" })
    expect(routing["G01V"]).toMatchObject({ total_count: 2, unique_art_units: 2 })
  })

  it("profiles art units with a CPC-derived title, roster, CPC summary and statistics", () => {
    const a = au["2863"]
    expect(a.title_source).toBe("derived from CPC mix")
    expect(a.title).toMatch(/^Measuring electric variables/)
    expect(a.description).toMatch(/derived from that CPC mix/)
    expect(a.technology_center).toBe("2800")
    expect(a.examiner_count).toBe(1)
    expect(json(a.examiners)[0]).toMatchObject({ examiner_id: "smith-john-a", applications: 7, analysed: 6 })
    const c = json(a.cpc_codes)
    expect(c).toMatchObject({ total: 4, applications_with_cpc: 3, by_section: { G: 4 } })
    expect(c.top_subclasses[0]).toMatchObject({ subclass: "G01R", count: 3 })
    expect(json(a.keywords)).toContain("battery")
    const s = json(a.statistics)
    expect(s.allowance.allowance_rate).toMatchObject({ numerator: 4, denominator: 5 })
    expect(s.examiner_count_in_statistics).toBe(1)
    expect(s.estimated_cost.per_allowed_application).toBeGreaterThan(0)
    expect(s.data_quality.populations.all_applications).toBe(7)
  })
})
