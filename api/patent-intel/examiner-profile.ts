/**
 * Examiner profile (SPEC 2.9) from prosecution/examiner_statistics.parquet. The six heavy
 * sections (lists of applications or codes) are withheld unless named in `include`: each is
 * replaced by its size and the include name that brings it back, and the document-code
 * breakdown keeps its ten largest codes.
 */
import { Effect } from "effect"
import { heavySections, profileSections } from "../../core/prosecution/sections.ts"
import { NotFound } from "../domain/errors.ts"
import { RECORDS } from "../../core/serving/names.ts"
import { guardClaimsAnalysis, isObject, parseStored, recordOr, str, technologyCenterOf, variantArtUnitSql, type Json, type Query, type RecordLookup } from "./stored.ts"

export type HeavySection = (typeof heavySections)[number]
export const WITHHELD_CODES_KEPT = 10

const lightColumns = profileSections

/** The examiner id is the slug of the surname-first name ("BRYANT, CHRISTIAN THOMAS" → bryant-christian-thomas). */
export const examinerSlug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")

/** `include` as the route receives it ("rejection_analysis, by_sequence_length"): known names in canonical order; unknown ones ignored. */
export const parseInclude = (include: string | ReadonlyArray<string> | undefined): HeavySection[] => {
  const asked = new Set(
    (typeof include === "string" ? include.split(",") : (include ?? [])).map((n) => n.trim().toLowerCase()).filter(Boolean)
  )
  return heavySections.filter((s) => asked.has(s))
}

const sizeOf = (v: unknown) => (Array.isArray(v) ? v.length : isObject(v) ? Object.keys(v).length : 0)

/** What a withheld section shows: its size, the include name that brings it back, and for the codes the largest ten. */
const withheld = (name: HeavySection, count: number, topCodes: unknown) => ({
  withheld: true,
  count,
  include: name,
  ...(name === "document_code_breakdown" && Array.isArray(topCodes) ? { top_codes: topCodes.slice(0, WITHHELD_CODES_KEPT) } : {})
})

/** Sizes of the withheld sections and the ten largest codes, as the record stores them (null for versions built before). */
const storedSummary = (row: Json) => {
  if (row.section_sizes === undefined || row.section_sizes === null) return undefined
  const sizes = parseStored(row.section_sizes)
  return { sizes: isObject(sizes) ? sizes : {}, topCodes: parseStored(row.top_codes) }
}

export const getExaminerProfile = (query: Query, records: RecordLookup, examiner: string, include: string | ReadonlyArray<string> = []) =>
  Effect.gen(function* () {
    const id = examinerSlug(examiner)
    const row = id
      ? yield* recordOr<Json>(records(RECORDS.examiners, id), () =>
          query(
            `SELECT s.examiner_id, s.full_name, s.art_unit, s.technology_center, ${[...lightColumns, ...heavySections].map((c) => `s.${c}`).join(", ")},
               (SELECT ${variantArtUnitSql} FROM examiners x WHERE x.examiner_id = s.examiner_id) AS variant_art_unit
             FROM examiner_statistics s WHERE s.examiner_id = $1 LIMIT 1`,
            [id],
            ["examiner_statistics", "examiners"]
          )
        )
      : undefined
    if (!row) return yield* Effect.fail(new NotFound({ message: `no examiner with id or name "${examiner.trim()}"` }))

    const light: Json = {}
    for (const c of lightColumns) light[c] = parseStored(row[c])
    if (isObject(light.data_quality)) {
      const dq = light.data_quality
      light.data_quality = { ...dq, withheld: Array.isArray(dq.withheld) ? [...dq.withheld] : [], notes: Array.isArray(dq.notes) ? dq.notes : [] }
    }
    light.claims_analysis = guardClaimsAnalysis(light.claims_analysis, light.data_quality)

    const included = parseInclude(include)
    const summary = storedSummary(row)
    // Versions with a summary keep the sections in their own record file, read only when one is asked for.
    const sections: Json | undefined =
      summary && included.length > 0
        ? yield* recordOr<Json>(records(RECORDS.examinerSections, id), () =>
            query(`SELECT ${heavySections.join(", ")} FROM examiner_statistics WHERE examiner_id = $1 LIMIT 1`, [id], ["examiner_statistics"])
          )
        : undefined
    const heavy: Json = {}
    for (const name of heavySections) {
      if (included.includes(name)) heavy[name] = parseStored((sections ?? row)[name])
      else if (summary) heavy[name] = withheld(name, Number(summary.sizes[name] ?? 0), summary.topCodes)
      else {
        const value = parseStored(row[name])
        heavy[name] = withheld(name, sizeOf(value), value)
      }
    }
    const artUnit = str(row.art_unit) ?? str(row.variant_art_unit)
    return {
      examiner_id: String(row.examiner_id),
      full_name: String(row.full_name),
      art_unit: artUnit,
      technology_center: str(row.technology_center) ?? technologyCenterOf(artUnit),
      ...light,
      ...heavy,
      sections_available: [...heavySections],
      sections_included: included
    }
  })
