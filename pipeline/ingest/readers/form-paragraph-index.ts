/**
 * The USPTO form-paragraph index: TSV `fp_id, fp_chapter, variant, title` (chapters 2–29), one
 * row per paragraph, titles only. Templates come from the MPEP readers; the ingest merge joins
 * both by code, preferring the index's title.
 */
import { type CorpusReader, row, skip } from "../../../core/corpus/reader.ts"
import { formParagraphChapterOf, normalizeFormParagraphCode } from "../../../core/guidance/ids.ts"
import { isSkip, tsvRecords } from "./tsv.ts"

const COLUMNS = ["fp_id", "fp_chapter", "variant", "title"]

export const formParagraphIndexReader: CorpusReader = async function* (file) {
  for await (const r of tsvRecords(file, COLUMNS)) {
    if (isSkip(r)) {
      yield r
      continue
    }
    const { at, field, optional } = r
    const code = normalizeFormParagraphCode(field("fp_id"))
    if (!code) {
      yield skip(file.path, at, `not a form-paragraph code: ${field("fp_id").slice(0, 30)}`)
      continue
    }
    const chapter = field("fp_chapter")
    if (chapter !== "" && chapter !== formParagraphChapterOf(code)) {
      yield skip(file.path, at, `chapter ${chapter.slice(0, 10)} does not match code ${code}`)
      continue
    }
    yield row("form_paragraphs", {
      code,
      title: optional("title"),
      template: null,
      examiner_notes: null,
      mpep_section: null,
      chapter: formParagraphChapterOf(code),
      variant: optional("variant"),
      source: "index"
    })
  }
}
