/**
 * guidance/form_paragraph_details.parquet: every form paragraph of the ingest table (MPEP text
 * and index titles) with its placeholders, statute and rejection type in both vocabularies,
 * AIA status and pre-AIA counterpart, the paragraphs that must precede it, and the others its
 * notes point to. Index-only entries have no template: truncated_at_source is true for them.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { bracketsOf, examinerNotesOf, type ParagraphMention, paragraphMentionsOf } from "../../core/guidance/form-paragraph-notes.ts"
import { compareIds } from "../../core/guidance/natural-order.ts"
import { rejectionTypeOf, statuteOf } from "../../core/guidance/rejection-types.ts"
import { type Columns, writeRows } from "./write.ts"

export interface FormParagraphRow {
  readonly code: string
  readonly title: string | null
  readonly template: string | null
  readonly examiner_notes: string | null
  readonly mpep_section: string | null
  readonly chapter: string | null
  readonly variant: string | null
  readonly sources: ReadonlyArray<string>
}

export const formParagraphColumns: Columns = {
  code: "VARCHAR",
  title: "VARCHAR",
  template: "VARCHAR",
  brackets: "JSON",
  statute: "VARCHAR",
  statute_short: "VARCHAR",
  rejection_type: "VARCHAR",
  category: "VARCHAR",
  is_aia: "BOOLEAN",
  pre_aia_equivalent: "VARCHAR",
  mpep_section: "VARCHAR",
  examiner_notes: "VARCHAR[]",
  must_follow: "VARCHAR[]",
  related_paragraphs: "JSON",
  truncated_at_source: "BOOLEAN",
  chapter: "VARCHAR",
  variant: "VARCHAR",
  sources: "VARCHAR[]"
}

export const readFormParagraphs = async (conn: DuckDBConnection): Promise<FormParagraphRow[]> =>
  (await conn.runAndReadAll(`SELECT code, title, template, examiner_notes, mpep_section, chapter, variant, sources FROM form_paragraphs`)).getRowObjectsJS() as unknown as FormParagraphRow[]

const firstSentence = (t: string | null) => (t ?? "").split(/(?<=\.)\s/)[0]

const categoryOf = (title: string, template: string | null): string => {
  const lead = `${title} ${firstSentence(template)}`
  if (/^rejection|\brejected\s+(?:under|as)\b|\brejection\b/i.test(lead)) return "rejection"
  if (/\brestrict|\belection\b/i.test(title)) return "restriction"
  if (/\bobject/i.test(lead)) return "objection"
  if (/\ballow/i.test(title)) return "allowance"
  if (/\bstatute|text of|quotation|code not included/i.test(lead)) return "statutory-text"
  return "other"
}

const isPreAiaOnly = (r: FormParagraphRow) =>
  /\.fti$/i.test(r.code) || /^pre-AIA/i.test(r.variant ?? "") || /^pre-AIA/i.test(r.title ?? "") || /filed (?:before|prior to) (?:Sept|March)/i.test(r.title ?? "")

export const writeFormParagraphDetails = (conn: DuckDBConnection, rows: ReadonlyArray<FormParagraphRow>, file: string) => {
  const held = new Set(rows.map((r) => r.code))
  const sorted = [...held].sort(compareIds)
  // "7.34.02 - 7.34.10", "7.20.01.fti - 7.22.fti": the held paragraphs between the two ends,
  // in the same chapter and of the same AIA flavour (suffix) as the first.
  const suffix = (c: string) => /\.(aia|fti)$/i.exec(c)?.[1].toLowerCase() ?? ""
  const expand = (m: ParagraphMention): string[] => {
    if (!m.through) return [m.code]
    const chapter = m.code.split(".")[0]
    return sorted.filter(
      (c) => c.split(".")[0] === chapter && suffix(c) === suffix(m.code) && compareIds(m.code, c) <= 0 && compareIds(c, m.through!) <= 0
    )
  }
  const built = rows.map((r) => {
    const notes = examinerNotesOf(r.examiner_notes)
    const mentions = paragraphMentionsOf([...notes])
    const mustFollow = [...new Set(mentions.filter((m) => m.relation === "must-precede").flatMap(expand))].filter((c) => c !== r.code)
    const related = new Map<string, string>()
    for (const m of mentions) for (const c of expand(m)) if (c !== r.code && !related.has(c)) related.set(c, m.relation)
    const base = r.code.replace(/\.(?:aia|fti)$/i, "")
    const preAIAEquivalent = /\.fti$/i.test(r.code) ? null : held.has(`${base}.fti`) ? `${base}.fti` : /\.aia$/i.test(r.code) && held.has(base) ? base : null
    for (const v of [`${base}.aia`, `${base}.fti`, base]) if (v !== r.code && held.has(v) && !related.has(v)) related.set(v, "variant")
    const statute = statuteOf(r.title ?? "") ?? statuteOf(firstSentence(r.template))
    return {
      ...r,
      sources: [...(r.sources ?? [])],
      brackets: bracketsOf(r.template, notes),
      statute: statute?.statute ?? null,
      statute_short: statute?.statuteShort ?? null,
      rejection_type: rejectionTypeOf(r.title, statute?.statuteShort ?? null),
      category: categoryOf(r.title ?? "", r.template),
      is_aia: !isPreAiaOnly(r),
      pre_aia_equivalent: preAIAEquivalent,
      examiner_notes: notes,
      must_follow: mustFollow,
      related_paragraphs: [...related].map(([code, relation]) => ({ code, relation })),
      truncated_at_source: r.template === null
    }
  })
  // A paragraph that only continues another ("must be preceded by 7.34.01") shares its type
  // and, when it has none of its own, its category.
  const byCode = new Map(built.map((b) => [b.code, { type: b.rejection_type, category: b.category }]))
  for (const b of built) {
    const parents = b.must_follow.map((c) => byCode.get(c)).filter((p) => p !== undefined)
    if (b.rejection_type === null) b.rejection_type = parents.map((p) => p.type).find((t) => t != null) ?? null
    if (b.category === "other") b.category = parents.map((p) => p.category).find((c) => c !== "other" && c !== "statutory-text") ?? "other"
  }
  return writeRows(conn, "form_paragraphs", formParagraphColumns, built, file, "code")
}
