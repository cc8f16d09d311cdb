/**
 * Examiner search (SPEC 4.5): anchored, case-insensitive matching only: an exact surname or a
 * prefix of the surname-first full name ("SMITH", "SMITH, J"), optionally within an art unit.
 * Every name variant PEDS used for an examiner is searched; one row per examiner comes back.
 */
import { Effect } from "effect"
import type { DuckDBValue } from "@duckdb/node-api"
import { str, technologyCenterOf, variantArtUnitSql, type Query } from "./stored.ts"

export interface ExaminerSearch {
  readonly name?: string | undefined
  readonly artUnit?: string | undefined
  readonly limit: number
}

/** "  smith ,john " → "SMITH, JOHN": upper case, single spaces, the surname comma written as stored. */
export const normalizeExaminerName = (name: string) =>
  name.replace(/[\s\u00a0]+/g, " ").replace(/\s*,\s*/g, ", ").trim().toUpperCase()

export const findExaminer = (query: Query, search: ExaminerSearch) =>
  Effect.gen(function* () {
    const name = search.name === undefined ? "" : normalizeExaminerName(search.name)
    const artUnit = search.artUnit?.trim() ?? ""
    if (!name && !artUnit) return { count: 0, examiners: [] }
    const limit = Math.min(100, Math.max(1, Math.trunc(search.limit)))

    // Fixed SQL fragments only; every user value is a bound parameter.
    const params: DuckDBValue[] = []
    const bind = (v: DuckDBValue) => `$${params.push(v)}`
    const where: string[] = []
    // Exact surname matches first, then examiners whose main art unit is the one asked for.
    const order: string[] = []
    if (name) {
      const p = bind(name)
      order.push(`max((upper(x.surname) = ${p})::INTEGER) DESC`)
      where.push(`(upper(x.surname) = ${p} OR starts_with(upper(x.full_name), ${p}))`)
    }
    if (artUnit) {
      const p = bind(artUnit)
      order.push(`max((s.art_unit = ${p})::INTEGER) DESC`)
      where.push(`(x.art_unit = ${p} OR list_contains(x.art_units, ${p}) OR s.art_unit = ${p})`)
    }
    const rows = yield* query(
      `SELECT s.examiner_id, any_value(s.full_name) AS full_name, any_value(s.art_unit) AS stored_art_unit,
         any_value(s.technology_center) AS technology_center, ${variantArtUnitSql} AS variant_art_unit
       FROM examiners x JOIN examiner_statistics s USING (examiner_id)
       WHERE ${where.join(" AND ")}
       GROUP BY s.examiner_id
       ORDER BY ${order.join(", ")}, max(x.application_count) DESC, any_value(s.full_name), s.examiner_id
       LIMIT ${bind(limit)}`,
      params,
      ["examiners", "examiner_statistics"]
    )
    const examiners = rows.map((r) => {
      const au = str(r.stored_art_unit) ?? str(r.variant_art_unit)
      return {
        examiner_id: String(r.examiner_id),
        full_name: String(r.full_name),
        art_unit: au,
        technology_center: str(r.technology_center) ?? technologyCenterOf(au)
      }
    })
    return { count: examiners.length, examiners }
  })
