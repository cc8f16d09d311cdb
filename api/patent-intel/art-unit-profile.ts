/**
 * Art-unit profile (SPEC 2.9) from prosecution/art_unit_profiles.parquet. No official art-unit
 * title list is in the corpus, so the stored title is derived from the art unit's CPC mix and the
 * profile says so in `generated_context`.
 */
import { Effect } from "effect"
import { NotFound } from "../domain/errors.ts"
import { RECORDS } from "../../core/serving/names.ts"
import { guardClaimsAnalysis, isObject, num, parseStored, recordOr, str, type Json, type Query, type RecordLookup } from "./stored.ts"

/** Characters of the generated description served; the rest is counted in `length`. */
export const DESCRIPTION_OPENING = 280
export const TOP_SUBCLASSES = 25

/** The description's opening: whole sentences up to the limit, else whole words. */
export const descriptionOpening = (text: string, limit = DESCRIPTION_OPENING) => {
  if (text.length <= limit) return { opening: text, length: text.length, truncated: false }
  const head = text.slice(0, limit)
  const sentenceEnd = Math.max(...[". ", "! ", "? "].map((m) => head.lastIndexOf(m)))
  const opening = sentenceEnd >= limit / 3 ? head.slice(0, sentenceEnd + 1) : `${head.slice(0, Math.max(head.lastIndexOf(" "), 1)).trimEnd()}…`
  return { opening, length: text.length, truncated: true }
}

/** Roster entries carry counts only: lists of application numbers are not served. */
const rosterEntry = (e: unknown) => {
  if (!isObject(e)) return e
  const out: Json = {}
  for (const [k, v] of Object.entries(e)) if (!Array.isArray(v)) out[k] = v
  return out
}

const cpcSummary = (stored: unknown) => {
  const s = isObject(stored) ? stored : {}
  return {
    total: num(s.total),
    applications_with_cpc: num(s.applications_with_cpc),
    by_section: isObject(s.by_section) ? s.by_section : {},
    top_subclasses: Array.isArray(s.top_subclasses) ? s.top_subclasses.slice(0, TOP_SUBCLASSES) : []
  }
}

export const getArtUnitProfile = (query: Query, records: RecordLookup, artUnit: string) =>
  Effect.gen(function* () {
    const au = artUnit.trim()
    const row = yield* recordOr<Json>(records(RECORDS.artUnits, au), () =>
      query(
        `SELECT art_unit, technology_center, title, title_source, description, keywords, cpc_codes, examiners, examiner_count, statistics
         FROM art_unit_profiles WHERE art_unit = $1 LIMIT 1`,
        [au],
        ["art_unit_profiles"]
      )
    )
    if (!row) return yield* Effect.fail(new NotFound({ message: `art unit ${au} is not in the corpus` }))

    const examiners = ((parseStored(row.examiners) as unknown[] | null) ?? []).map(rosterEntry)
    const stored = parseStored(row.statistics)
    let examinerCountInStatistics: number | undefined
    let statistics: Json | null = null
    if (isObject(stored)) {
      const { examiner_count_in_statistics, ...rest } = stored
      if (examiner_count_in_statistics !== undefined && num(examiner_count_in_statistics) !== examiners.length)
        examinerCountInStatistics = num(examiner_count_in_statistics)
      const dataQuality = isObject(rest.data_quality) ? { ...rest.data_quality, withheld: [...((rest.data_quality.withheld as unknown[]) ?? [])] } : rest.data_quality
      statistics = { ...rest, claims_analysis: guardClaimsAnalysis(rest.claims_analysis, dataQuality), data_quality: dataQuality }
    }
    const title = str(row.title)
    const titleSource = str(row.title_source)
    return {
      art_unit: String(row.art_unit),
      technology_center: str(row.technology_center),
      title,
      title_source: titleSource,
      generated_context: {
        title: title
          ? "derived from the art unit's CPC mix (its commonest subclasses' scheme titles): no official art-unit title list is available"
          : "none: no official art-unit title list is available and no application of this art unit carries CPC data",
        description: "generated from this corpus's counts for the art unit",
        keywords: "title words most particular to the art unit's applications"
      },
      description: descriptionOpening(str(row.description) ?? ""),
      keywords: (parseStored(row.keywords) as string[] | null) ?? [],
      cpc_codes: cpcSummary(parseStored(row.cpc_codes)),
      examiners,
      examiner_count: examiners.length,
      ...(examinerCountInStatistics !== undefined ? { examiner_count_in_statistics: examinerCountInStatistics } : {}),
      statistics
    }
  })
