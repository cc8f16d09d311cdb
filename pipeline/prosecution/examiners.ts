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
import * as path from "node:path"
import { copyToParquet, sqlString } from "../stages/tables.ts"

/** Sections built in TypeScript per examiner: the served profile sections plus two heavy ones. */
export const lightSections = [...profileSections, "behavioral_patterns", "by_sequence_length"] as const

export { heavySections } from "../../core/prosecution/sections.ts"
import { heavySections, profileSections } from "../../core/prosecution/sections.ts"

/** The heavy sections built in TypeScript with the light ones: their sizes are counted here. */
const lightHeavy = ["behavioral_patterns", "by_sequence_length"] as const

/**
 * The applications whose facts make an examiner's heavy sections: analysed ones with an examiner.
 * `only` narrows them to some examiners (a relation with an examiner_id column).
 */
const heavyInputs = (only?: string) =>
  `SELECT * FROM app_stats WHERE examiner_id IS NOT NULL AND n_events > 0${only ? ` AND examiner_id IN (SELECT examiner_id FROM ${only})` : ""}`

/**
 * Heavy sections that list applications or codes, built in SQL per examiner, with what the profile
 * record shows of them (their sizes and the ten largest document codes) so that the serving stage
 * never parses these lists again. `only`: the examiners to build them for (all when absent).
 */
const heavySql = (only?: string) => `
  WITH s AS (${heavyInputs(only)}),
  ra AS (
    SELECT examiner_id, list(struct_pack(app_num, filing_date, first_action_date, first_action_kind, non_final, final,
        restrictions, quayle, advisory, rejection_documents,
        statutory_bases := struct_pack(s101 := r101, s102 := r102, s103 := r103, s112 := r112, double_patenting := rdp),
        disposition, disposal_date) ORDER BY app_num) AS l
    FROM s WHERE non_final + final > 0 GROUP BY examiner_id),
  iv AS (
    SELECT examiner_id, list(struct_pack(app_num, interviews, applicant_initiated := interviews_applicant,
        examiner_initiated := interviews_examiner, first_interview_date, interviews_before_disposal, disposition) ORDER BY app_num) AS l
    FROM s WHERE interviews > 0 GROUP BY examiner_id),
  rc AS (
    SELECT examiner_id, list(struct_pack(app_num, rces, first_rce_date, rces_before_allowance, disposition) ORDER BY app_num) AS l
    FROM s WHERE rces > 0 GROUP BY examiner_id),
  codes AS (
    -- PEDS sources spell one code's description differently ("Entity Status …", "ENTITY STATUS …"): max, not
    -- any_value, so the pick does not depend on the order rows were read in (a night reads them through deltas).
    SELECT s.examiner_id, coalesce(ev.code, '(none)') AS code, max(ev.description) AS description, max(ev.milestone) AS milestone,
      count(*) AS count, count(DISTINCT ev.app_num) AS applications
    FROM s JOIN application_events ev USING (app_num) GROUP BY 1, 2),
  dc AS (
    SELECT examiner_id, list(struct_pack(code, description, milestone, count, applications) ORDER BY count DESC, code) AS l
    FROM codes GROUP BY examiner_id)
  SELECT x.examiner_id,
    to_json(ra.l)::VARCHAR AS rejection_analysis, to_json(iv.l)::VARCHAR AS applications_with_interviews,
    to_json(rc.l)::VARCHAR AS applications_with_rcex, to_json(dc.l)::VARCHAR AS document_code_breakdown,
    to_json(list_slice(dc.l, 1, 10))::VARCHAR AS top_codes,
    coalesce(len(ra.l), 0) AS rejection_analysis_size, coalesce(len(iv.l), 0) AS applications_with_interviews_size,
    coalesce(len(rc.l), 0) AS applications_with_rcex_size, coalesce(len(dc.l), 0) AS document_code_breakdown_size
  FROM (SELECT DISTINCT examiner_id FROM examiners${only ? ` WHERE examiner_id IN (SELECT examiner_id FROM ${only})` : ""}) x
    LEFT JOIN ra USING (examiner_id) LEFT JOIN iv USING (examiner_id) LEFT JOIN rc USING (examiner_id) LEFT JOIN dc USING (examiner_id)`

/** The heavy sections listed in SQL, in the order heavySql gives them. */
const sqlHeavySections = ["rejection_analysis", "applications_with_interviews", "applications_with_rcex", "document_code_breakdown"] as const

/** The facts the heavy sections show or select by, beside app_num and examiner_id: what the inputs hash covers. */
const heavyColumns = [
  "n_events", "filing_date", "first_action_date", "first_action_kind", "non_final", "final", "restrictions", "quayle", "advisory",
  "rejection_documents", "r101", "r102", "r103", "r112", "rdp", "disposition", "disposal_date", "interviews", "interviews_applicant",
  "interviews_examiner", "first_interview_date", "interviews_before_disposal", "rces", "first_rce_date", "rces_before_allowance"
]

/**
 * Per examiner, a hash of the facts its SQL-built heavy sections are made of (an XOR of row
 * hashes, so order does not matter): a night compares it with the earlier version's to build those
 * sections again only for the examiners whose applications changed in what the sections show (a
 * grant's claims or a new title change an application's facts, not its examiner's lists).
 */
export const examinerInputsFile = "prosecution/examiner_inputs.parquet"
const examinerInputsSql = `SELECT examiner_id, bit_xor(hash(app_num, ${heavyColumns.join(", ")})) AS applications_hash FROM (${heavyInputs()}) s GROUP BY examiner_id`

/** A night's take-over: the earlier version's statistics and inputs, and the applications whose PEDS events changed. */
export interface EarlierExaminers {
  readonly statistics: string
  readonly inputs: string
  /** A relation with column k: the applications ingest listed as having other events (undefined: none). */
  readonly eventsChanged: string | undefined
}

/**
 * The heavy sections of every examiner as relation `examiner_heavy`: built for all, or in a night
 * only for the examiners whose inputs hash differs from the earlier version's or who have an
 * analysed application whose events changed (its code counts may differ with its facts unchanged;
 * one whose events all went changed its facts), the others' taken over from the earlier version's
 * file. Returns how many were built.
 */
const heavySectionsOf = async (conn: DuckDBConnection, earlier: EarlierExaminers | undefined) => {
  await conn.run(`CREATE OR REPLACE TEMP TABLE examiner_inputs AS ${examinerInputsSql}`)
  if (!earlier) {
    await conn.run(`CREATE OR REPLACE TEMP TABLE examiner_heavy AS ${heavySql()}`)
    return undefined
  }
  const eventsChanged = earlier.eventsChanged ? [`SELECT examiner_id FROM (${heavyInputs()}) WHERE app_num IN (SELECT k FROM ${earlier.eventsChanged})`] : []
  await conn.run(`CREATE OR REPLACE TEMP TABLE examiners_built AS
    ${[
      `SELECT coalesce(n.examiner_id, e.examiner_id) AS examiner_id
       FROM examiner_inputs n FULL JOIN read_parquet(${sqlString(earlier.inputs)}) e USING (examiner_id)
       WHERE n.applications_hash IS DISTINCT FROM e.applications_hash`,
      ...eventsChanged
    ].join(" UNION ")}`)
  const size = (s: string) => `(section_sizes->>'${s}')::BIGINT AS ${s}_size`
  await conn.run(`CREATE OR REPLACE TEMP TABLE examiner_heavy AS
    ${heavySql("examiners_built")}
    UNION ALL
    SELECT examiner_id, ${sqlHeavySections.join(", ")}, top_codes, ${sqlHeavySections.map(size).join(", ")}
    FROM read_parquet(${sqlString(earlier.statistics)})
    WHERE examiner_id NOT IN (SELECT examiner_id FROM examiners_built) AND examiner_id IN (SELECT examiner_id FROM examiners)`)
  return Number((await conn.runAndReadAll(`SELECT count(*) FROM examiners_built`)).getRows()[0][0])
}

/** What the profile counts of a section (SPEC 2.9's withheld sections): a list's items, an object's keys. */
const sizeOf = (v: unknown) =>
  Array.isArray(v) ? v.length : v !== null && typeof v === "object" ? Object.values(v).filter((x) => x !== undefined).length : 0

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
  /** A night: examiners whose heavy sections were built again (the others' taken over). */
  readonly heavyBuilt?: number
}

export const writeExaminerStatistics = async (
  conn: DuckDBConnection,
  file: string,
  artUnitAggregates: ReadonlyMap<string, Aggregates>,
  earlier?: EarlierExaminers
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

  await conn.run(
    `CREATE OR REPLACE TABLE examiner_light (examiner_id VARCHAR, technology_center VARCHAR, ${lightSections.map((s) => `${s} VARCHAR`).join(", ")}, ${lightHeavy.map((s) => `${s}_size BIGINT`).join(", ")})`
  )
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
    for (const name of lightHeavy) ap.appendBigInt(BigInt(sizeOf(values[name])))
    ap.endRow()
  })
  ap.flushSync()
  ap.closeSync()

  const heavyBuilt = await heavySectionsOf(conn, earlier)
  await copyToParquet(conn, `SELECT * FROM examiner_inputs ORDER BY examiner_id`, path.join(path.dirname(file), path.basename(examinerInputsFile)))
  const sizes = heavySections.map((h) => `'${h}', coalesce(${lightHeavy.includes(h as never) ? "l" : "h"}.${h}_size, 0)`)
  const rows = await copyToParquet(
    conn,
    `SELECT x.examiner_id, x.full_name, x.art_unit, l.technology_center,
       l.portfolio, l.rejection_analytics, l.interview_metrics, l.rcex_metrics, l.timeline_metrics, l.strategic_insights,
       l.data_quality, l.claim_interpretation, l.percentile_rankings, l.claims_analysis,
       l.behavioral_patterns, h.rejection_analysis, h.applications_with_interviews, h.applications_with_rcex,
       l.by_sequence_length, h.document_code_breakdown,
       json_object(${sizes.join(", ")})::VARCHAR AS section_sizes, h.top_codes
     FROM (SELECT * FROM examiners QUALIFY row_number() OVER (PARTITION BY examiner_id ORDER BY application_count DESC, full_name) = 1) x
     JOIN examiner_light l USING (examiner_id) LEFT JOIN examiner_heavy h USING (examiner_id)
     ORDER BY x.examiner_id`,
    file
  )
  return { rows, withStatistics, ...(heavyBuilt !== undefined ? { heavyBuilt } : {}) }
}
