/**
 * GET /guidance/form-paragraph/{code} and the body shared with the search: a leading ¶ (or the
 * § the route's charset also lets through) is ignored, and the code is normalized the way the
 * MPEP prints it ("7.20.AIA" → "7.20.aia").
 */
import { Effect } from "effect"
import { normalizeFormParagraphCode } from "../../core/guidance/ids.ts"
import { compareIds } from "../../core/guidance/natural-order.ts"
import { type CorpusUnavailable, NotFound } from "../domain/errors.ts"
import { byKey, json, list, type Query, type Row, str } from "./stored.ts"

/** The form paragraphs of the served version: by code, and all of them in natural code order. */
export interface FormParagraphs {
  readonly byCode: ReadonlyMap<string, Row>
  /** Every row, sorted by `compareIds` of the code (stable, so equal codes keep the table's order). */
  readonly inCodeOrder: ReadonlyArray<Row>
}

export const loadFormParagraphs = (query: Query): Effect.Effect<FormParagraphs, CorpusUnavailable> =>
  Effect.map(query(`SELECT * FROM form_paragraph_details`, [], ["form_paragraph_details"]), (rows) => ({
    byCode: byKey(rows, (r) => r.code),
    inCodeOrder: [...rows].sort((a, b) => compareIds(String(a.code), String(b.code)))
  }))

export const formParagraphBody = (r: Row) => ({
  code: String(r.code),
  title: str(r.title),
  template: str(r.template),
  brackets: json(r.brackets, { count: 0, items: [] }),
  statute: str(r.statute),
  statuteShort: str(r.statute_short),
  rejectionType: str(r.rejection_type),
  category: str(r.category),
  isAIA: Boolean(r.is_aia),
  preAIAEquivalent: str(r.pre_aia_equivalent),
  mpepSection: str(r.mpep_section),
  examinerNotes: list(r.examiner_notes),
  mustFollow: list(r.must_follow),
  relatedParagraphs: json(r.related_paragraphs, []),
  truncated_at_source: Boolean(r.truncated_at_source)
})

export const formParagraphCodeOf = (raw: string) => normalizeFormParagraphCode(raw.replace(/^[\s¶§]+/, ""))

export const getFormParagraph = (paragraphs: Effect.Effect<FormParagraphs, CorpusUnavailable>, code: string) =>
  Effect.gen(function* () {
    const r = (yield* paragraphs).byCode.get(formParagraphCodeOf(code) ?? code.trim())
    if (!r) return yield* Effect.fail(new NotFound({ message: `form paragraph ${code.trim()} is not in the corpus` }))
    return formParagraphBody(r)
  })
