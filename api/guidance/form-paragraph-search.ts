/**
 * GET /guidance/form-paragraphs: by rejection type (a label or a statute, each expanded to both
 * vocabularies) and/or the MPEP section a paragraph is printed in (the section or any of its
 * subsections). An unrecognised rejection type answers zero results with the vocabulary in
 * `filter.note`, not an error. Matches come in natural code order.
 */
import { Effect } from "effect"
import { normalizeMpepId } from "../../core/guidance/ids.ts"
import { expandRejectionType, rejectionVocabulary } from "../../core/guidance/rejection-types.ts"
import type { CorpusUnavailable } from "../domain/errors.ts"
import { formParagraphBody, type FormParagraphs } from "./form-paragraph.ts"
import type { Row } from "./stored.ts"

export interface FormParagraphSearch {
  readonly rejectionType?: string | undefined
  readonly mpepSection?: string | undefined
  readonly limit: number
}

/** A text column equal to `value` or starting with one of `prefixes`; SQL NULL matches nothing. */
const equalOrUnder = (column: unknown, value: string, prefixes: ReadonlyArray<string>) =>
  typeof column === "string" && (column === value || prefixes.some((p) => column.startsWith(p)))

export const findFormParagraphs = (paragraphs: Effect.Effect<FormParagraphs, CorpusUnavailable>, search: FormParagraphSearch) =>
  Effect.gen(function* () {
    // The table is read first, so a version without it answers 503 whatever the filter.
    const { inCodeOrder } = yield* paragraphs
    const filter: Record<string, unknown> = { limit: search.limit }
    const tests: Array<(r: Row) => boolean> = []
    if (search.rejectionType !== undefined) {
      filter.rejectionType = search.rejectionType
      const expanded = expandRejectionType(search.rejectionType)
      if (!expanded) return { results: [], count: 0, filter: { ...filter, matched: null, note: `unrecognised rejectionType; ${rejectionVocabulary()}` } }
      filter.matched = { rejectionTypes: expanded.labels, statutes: expanded.statutes }
      const { labels, statutes } = expanded
      tests.push(
        (r) =>
          (typeof r.rejection_type === "string" && labels.includes(r.rejection_type)) ||
          statutes.some((s) => equalOrUnder(r.statute_short, s, [`${s}(`]))
      )
    }
    if (search.mpepSection !== undefined) {
      const section = normalizeMpepId(search.mpepSection) ?? search.mpepSection
      filter.mpepSection = section
      tests.push((r) => equalOrUnder(r.mpep_section, section, [`${section}.`, `${section}(`]))
    }
    // Neither filter names no paragraph (the route requires one of them).
    const matches = tests.length === 0 ? [] : inCodeOrder.filter((r) => tests.every((t) => t(r)))
    const results = matches.slice(0, search.limit).map(formParagraphBody)
    return { results, count: results.length, filter: { ...filter, totalMatches: matches.length } }
  })
