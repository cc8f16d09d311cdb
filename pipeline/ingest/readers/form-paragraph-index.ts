/**
 * The USPTO form-paragraph index: TSV `fp_id, fp_chapter, variant, title` (chapters 2–29), one
 * row per paragraph, titles only. Templates come from the MPEP readers; the ingest merge joins
 * both by code, preferring the index's title.
 */
import { parse } from "csv-parse"
import { Readable } from "node:stream"
import { type CorpusReader, row, skip } from "../../../core/corpus/reader.ts"
import { formParagraphChapterOf, normalizeFormParagraphCode } from "../../../core/guidance/ids.ts"

const COLUMNS = ["fp_id", "fp_chapter", "variant", "title"]

export const formParagraphIndexReader: CorpusReader = async function* (file) {
  // Titles contain quotes ("Or The Like"); the index is plain tab-separated, never quoted.
  const parser = parse({ delimiter: "\t", quote: false, bom: true, info: true, relax_column_count: true, skip_empty_lines: true })
  Readable.from(file.open()).pipe(parser)
  let header: string[] | undefined
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    const at = `line ${info.lines}`
    if (!header) {
      header = record.map((h) => h.trim().toLowerCase())
      if (!COLUMNS.every((c) => header!.includes(c))) {
        yield skip(file.path, at, `header lacks ${COLUMNS.join(", ")}`)
        return
      }
      continue
    }
    if (record.length !== header.length) {
      yield skip(file.path, at, `expected ${header.length} fields, found ${record.length}`)
      continue
    }
    const field = (name: string) => (record[header!.indexOf(name)] ?? "").trim()
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
    const title = field("title")
    const variant = field("variant")
    yield row("form_paragraphs", {
      code,
      title: title === "" ? null : title,
      template: null,
      examiner_notes: null,
      mpep_section: null,
      chapter: formParagraphChapterOf(code),
      variant: variant === "" ? null : variant,
      source: "index"
    })
  }
}
