/**
 * prosecution/examiner_statistics.parquet: one row per examiner of the `examiners` table, one
 * JSON column per SPEC 2.9 section. Light sections are built in TypeScript from per-examiner
 * aggregates (a few thousand rows); the six heavy sections, which list applications, are built
 * in DuckDB so a million applications never pass through JavaScript.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { aggregateBy, emptyAggregates, sequenceLengthsBy, type Aggregates } from "./aggregates.ts"
import { percentileRankings, strategicInsights } from "./insights.ts"
import { buildSections, bySequenceLength, type Sections } from "./sections.ts"
import type { Rate } from "./statistics.ts"
import { copyToParquet } from "../stages/tables.ts"

/** Sections built in TypeScript per examiner: the served profile sections plus two heavy ones. */
export const lightSections = [...profileSections, "behavioral_patterns", "by_sequence_length"] as const

export { heavySections } from "../../core/prosecution/sections.ts"
import { profileSections } from "../../core/prosecution/sections.ts"

/** Heavy sections that list applications or codes, built in SQL per examiner. */
const heavySql = `
  WITH s AS (SELECT * FROM app_stats WHERE examiner_id IS NOT NULL AND n_events > 0),
  ra AS (
    SELECT examiner_id, to_json(list(struct_pack(app_num, filing_date, first_action_date, first_action_kind, non_final, final,
        restrictions, quayle, advisory, rejection_documents,
        statutory_bases := struct_pack(s101 := r101, s102 := r102, s103 := r103, s112 := r112, double_patenting := rdp),
        disposition, disposal_date) ORDER BY app_num))::VARCHAR AS rejection_analysis
    FROM s WHERE non_final + final > 0 GROUP BY examiner_id),
  iv AS (
    SELECT examiner_id, to_json(list(struct_pack(app_num, interviews, applicant_initiated := interviews_applicant,
        examiner_initiated := interviews_examiner, first_interview_date, interviews_before_disposal, disposition) ORDER BY app_num))::VARCHAR AS applications_with_interviews
    FROM s WHERE interviews > 0 GROUP BY examiner_id),
  rc AS (
    SELECT examiner_id, to_json(list(struct_pack(app_num, rces, first_rce_date, rces_before_allowance, disposition) ORDER BY app_num))::VARCHAR AS applications_with_rcex
    FROM s WHERE rces > 0 GROUP BY examiner_id),
  codes AS (
    SELECT s.examiner_id, coalesce(ev.code, '(none)') AS code, any_value(ev.description) AS description, any_value(ev.milestone) AS milestone,
      count(*) AS count, count(DISTINCT ev.app_num) AS applications
    FROM s JOIN application_events ev USING (app_num) GROUP BY 1, 2),
  dc AS (
    SELECT examiner_id, to_json(list(struct_pack(code, description, milestone, count, applications) ORDER BY count DESC, code))::VARCHAR AS document_code_breakdown
    FROM codes GROUP BY examiner_id)
  SELECT x.examiner_id, ra.rejection_analysis, iv.applications_with_interviews, rc.applications_with_rcex, dc.document_code_breakdown
  FROM (SELECT DISTINCT examiner_id FROM examiners) x LEFT JOIN ra USING (examiner_id) LEFT JOIN iv USING (examiner_id) LEFT JOIN rc USING (examiner_id) LEFT JOIN dc USING (examiner_id)`

/**
 * Names PEDS puts in the examiner field that are not a person: "CENTRAL, DOCKET" holds
 * applications not yet docketed to an examiner (status "Docketed New Case - Ready for
 * Examination"). Their rows are kept (the name is searchable) but flagged, and they are never
 * ranked among examiners.
 */
export const placeholderExaminer = /^(CENTRAL,\s*DOCKET|DOCKET,\s*CENTRAL|UNASSIGNED.*|NONE)$/i

export interface ExaminerBuild {
  readonly rows: number
  /** Examiners with at least one analysed application. */
  readonly withStatistics: number
}

export const writeExaminerStatistics = async (
  conn: DuckDBConnection,
  file: string,
  artUnitAggregates: ReadonlyMap<string, Aggregates>
): Promise<ExaminerBuild> => {
  const aggs = new Map((await aggregateBy(conn, "examiner_id")).map((a) => [a.key, a]))
  const seqs = await sequenceLengthsBy(conn, "examiner_id")
  const [[asOf]] = (await conn.runAndReadAll(`SELECT as_of::VARCHAR FROM as_of`)).getRowsJS() as [[string | null]]
  const examiners = (
    await conn.runAndReadAll(`SELECT examiner_id, full_name, art_unit, art_units, employee_number FROM examiners
      QUALIFY row_number() OVER (PARTITION BY examiner_id ORDER BY application_count DESC, full_name) = 1 ORDER BY examiner_id`)
  ).getRowObjectsJS() as Array<{ examiner_id: string; full_name: string; art_unit: string | null; art_units: string[] | null; employee_number: string | null }>

  const built = examiners.map((x) => ({ x, a: aggs.get(x.examiner_id) ?? emptyAggregates(x.examiner_id, asOf), placeholder: placeholderExaminer.test(x.full_name.trim()) }))
  const sections = built.map(({ a }) => buildSections(a))
  const rank = percentileRankings(sections.filter((_, i) => !built[i].placeholder))
  const auSections = new Map<string, Sections>()

  await conn.run(`CREATE OR REPLACE TABLE examiner_light (examiner_id VARCHAR, technology_center VARCHAR, ${lightSections.map((s) => `${s} VARCHAR`).join(", ")})`)
  const ap = await conn.createAppender("examiner_light")
  let withStatistics = 0
  built.forEach(({ x, a, placeholder }, i) => {
    const s = sections[i]
    if (placeholder)
      s.data_quality.notes.unshift(`"${x.full_name}" is not an examiner: PEDS uses the name for applications not yet docketed to one`)
    if (Number(a.n_analysed ?? 0) > 0) withStatistics++
    const au = x.art_unit
    let reference: { label: string; allowance_rate: Rate } | undefined
    if (au && artUnitAggregates.has(au)) {
      if (!auSections.has(au)) auSections.set(au, buildSections(artUnitAggregates.get(au)!))
      reference = { label: `art unit ${au} as a whole`, allowance_rate: auSections.get(au)!.headline.allowance_rate as Rate }
    }
    const values: Record<(typeof lightSections)[number], unknown> = {
      portfolio: { ...s.portfolio, art_units: x.art_units ?? [], estimated_prosecution_cost: s.estimated_cost },
      rejection_analytics: s.rejection_analytics,
      interview_metrics: s.interview_metrics,
      rcex_metrics: s.rcex_metrics,
      timeline_metrics: s.timeline_metrics,
      strategic_insights: strategicInsights(s, reference),
      data_quality: { ...s.data_quality, placeholder_name: placeholder },
      claim_interpretation: null,
      percentile_rankings: placeholder ? null : rank(s),
      claims_analysis: s.claims_analysis,
      behavioral_patterns: s.behavioral_patterns,
      by_sequence_length: bySequenceLength(seqs.get(x.examiner_id) ?? [])
    }
    ap.appendVarchar(x.examiner_id)
    if (au && /^\d{3,4}$/.test(au)) ap.appendVarchar(`${au.slice(0, 2)}00`)
    else ap.appendNull()
    for (const name of lightSections) {
      const v = values[name]
      if (v === null || v === undefined) ap.appendNull()
      else ap.appendVarchar(JSON.stringify(v))
    }
    ap.endRow()
  })
  ap.flushSync()
  ap.closeSync()

  const rows = await copyToParquet(
    conn,
    `SELECT x.examiner_id, x.full_name, x.art_unit, l.technology_center,
       l.portfolio, l.rejection_analytics, l.interview_metrics, l.rcex_metrics, l.timeline_metrics, l.strategic_insights,
       l.data_quality, l.claim_interpretation, l.percentile_rankings, l.claims_analysis,
       l.behavioral_patterns, h.rejection_analysis, h.applications_with_interviews, h.applications_with_rcex,
       l.by_sequence_length, h.document_code_breakdown
     FROM (SELECT * FROM examiners QUALIFY row_number() OVER (PARTITION BY examiner_id ORDER BY application_count DESC, full_name) = 1) x
     JOIN examiner_light l USING (examiner_id) LEFT JOIN (${heavySql}) h USING (examiner_id)
     ORDER BY x.examiner_id`,
    file
  )
  return { rows, withStatistics }
}
