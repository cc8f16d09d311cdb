/**
 * GET /guidance/form-paragraphs: by rejection type (a label or a statute, each expanded to both
 * vocabularies) and/or the MPEP section a paragraph is printed in (the section or any of its
 * subsections). An unrecognised rejection type answers zero results with the vocabulary in
 * `filter.note`, not an error.
 */
import { Effect } from "effect"
import { normalizeMpepId } from "../../core/guidance/ids.ts"
import { compareIds } from "../../core/guidance/natural-order.ts"
import { expandRejectionType, rejectionVocabulary } from "../../core/guidance/rejection-types.ts"
import { formParagraphBody } from "./form-paragraph.ts"
import type { Query } from "./stored.ts"

export interface FormParagraphSearch {
  readonly rejectionType?: string | undefined
  readonly mpepSection?: string | undefined
  readonly limit: number
}

export const findFormParagraphs = (query: Query, search: FormParagraphSearch) =>
  Effect.gen(function* () {
    const filter: Record<string, unknown> = { limit: search.limit }
    const where: string[] = []
    const params: string[] = []
    const param = (v: string) => {
      params.push(v)
      return `$${params.length}`
    }
    if (search.rejectionType !== undefined) {
      filter.rejectionType = search.rejectionType
      const expanded = expandRejectionType(search.rejectionType)
      if (!expanded) {
        // Still touch the table, so a version without it answers 503 like any other call.
        yield* query(`SELECT 1 FROM form_paragraph_details LIMIT 0`, [], ["form_paragraph_details"])
        return { results: [], count: 0, filter: { ...filter, matched: null, note: `unrecognised rejectionType; ${rejectionVocabulary()}` } }
      }
      filter.matched = { rejectionTypes: expanded.labels, statutes: expanded.statutes }
      const any = [
        ...expanded.labels.map((l) => `rejection_type = ${param(l)}`),
        ...expanded.statutes.flatMap((s) => [`statute_short = ${param(s)}`, `starts_with(statute_short, ${param(`${s}(`)})`])
      ]
      where.push(`(${any.join(" OR ")})`)
    }
    if (search.mpepSection !== undefined) {
      const section = normalizeMpepId(search.mpepSection) ?? search.mpepSection
      filter.mpepSection = section
      where.push(`(mpep_section = ${param(section)} OR starts_with(mpep_section, ${param(`${section}.`)}) OR starts_with(mpep_section, ${param(`${section}(`)}))`)
    }
    // Matches are at most the whole index (a few thousand rows): sort in natural code order here.
    const rows = yield* query(`SELECT * FROM form_paragraph_details WHERE ${where.join(" AND ")}`, params, ["form_paragraph_details"])
    const results = rows
      .sort((a, b) => compareIds(String(a.code), String(b.code)))
      .slice(0, search.limit)
      .map(formParagraphBody)
    return { results, count: results.length, filter: { ...filter, totalMatches: rows.length } }
  })
