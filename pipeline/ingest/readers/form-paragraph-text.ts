/**
 * Form paragraphs as the MPEP prints them inside a section: a "¶ 7.34.01 Title" heading, the
 * template paragraphs (bracketed placeholders [1], [2] …), then optionally an "Examiner Note:"
 * heading and the notes. Both MPEP readers (HTML and markdown) turn their source into plain
 * text blocks and feed them here, so a paragraph reads the same whatever format it came from.
 *
 * Where a form paragraph ends is the caller's business: the HTML reader knows it from the
 * markup, the markdown reader has to infer it from headings and paragraph shapes.
 */
import type { FormParagraphRow } from "../../../core/artifacts/tables.ts"
import { formParagraphChapterOf, normalizeFormParagraphCode } from "../../../core/guidance/ids.ts"

export interface FormParagraphHeading {
  readonly code: string
  readonly title: string | null
}

/** "¶ 7.34.01 Rejection, 35 U.S.C. 112(b) …" → code and title; undefined for other headings. */
export const formParagraphHeading = (text: string): FormParagraphHeading | undefined => {
  const m = /^\s*¶+\s*(\S+)\s*(.*)$/.exec(text.replace(/\u00a0/g, " "))
  if (!m) return undefined
  const code = normalizeFormParagraphCode(m[1])
  if (!code) return undefined
  const title = m[2].replace(/\s+/g, " ").trim()
  return { code, title: title === "" ? null : title }
}

/** The heading that separates a template from its notes ("Examiner Note:", "Examiner Notes"). */
export const isExaminerNoteHeading = (text: string): boolean => /^\s*examiner\s+notes?\s*:?\s*$/i.test(text)

/** Placeholders as printed vary in spacing ("[ 1 ]", "[1 ]"); templates carry them as "[1]". */
const normalizePlaceholders = (text: string) => text.replace(/\[\s*(\d{1,2})\s*\]/g, "[$1]")

/** Collects one form paragraph's blocks in order; template until the note heading, notes after. */
export class FormParagraphDraft {
  private readonly template: string[] = []
  private readonly notes: string[] = []
  private inNotes = false

  constructor(readonly heading: FormParagraphHeading) {}

  /** Adds one block (a paragraph, list item or sub-heading) of the form paragraph. */
  add(block: string): void {
    const text = block.trim()
    if (text === "") return
    if (!this.inNotes && isExaminerNoteHeading(text)) {
      this.inNotes = true
      return
    }
    ;(this.inNotes ? this.notes : this.template).push(text)
  }

  get hasNotes(): boolean {
    return this.inNotes
  }

  /** Number of note blocks so far (the markdown reader uses it to tell notes from resumed text). */
  get noteCount(): number {
    return this.notes.length
  }

  /** The form_paragraphs row; `mpepSection` is the section the paragraph is printed in. */
  toRow(mpepSection: string): FormParagraphRow {
    const template = normalizePlaceholders(this.template.join("\n\n"))
    return {
      code: this.heading.code,
      title: this.heading.title,
      template: template === "" ? null : template,
      examiner_notes: this.notes.length > 0 ? this.notes.join("\n") : null,
      mpep_section: mpepSection,
      chapter: formParagraphChapterOf(this.heading.code),
      variant: null,
      source: "mpep"
    }
  }

  /** How the paragraph reads inside its section's content. */
  toContent(): string {
    const head = `¶ ${this.heading.code}${this.heading.title ? ` ${this.heading.title}` : ""}`
    const parts = [head, ...this.template.map(normalizePlaceholders)]
    if (this.inNotes) parts.push(["Examiner Note:", ...this.notes].join("\n"))
    return parts.join("\n\n")
  }
}
