/**
 * MPEP chapters converted to markdown: "# 2173.05(e) Title [R-08.2017]" starts a section,
 * "##"/"###" are its subsections, and a form paragraph printed in it is a "# ¶ 7.34.01 Title"
 * heading followed by its template and an optional "### Examiner Note:" list. Read line by line.
 *
 * The conversion lost the markup that closes a form paragraph, so its end is inferred: any
 * heading other than the note heading ends it, and so does, once notes have begun, a plain
 * paragraph that starts a new sentence after a finished one (the section's text resuming:
 * "In accordance with the principles of compact prosecution, …" after the notes of ¶ 8.40).
 * Bulleted or indented blocks, and blocks that carry on a cut-off sentence, stay in the notes.
 */
import { createInterface } from "node:readline"
import { Readable } from "node:stream"
import { type CorpusFile, type CorpusReader, type ReaderEvent, row, skip } from "../../../core/corpus/reader.ts"
import { mpepChapterOf, mpepIdsCitedIn } from "../../../core/guidance/ids.ts"
import { FormParagraphDraft, formParagraphHeading, isExaminerNoteHeading } from "./form-paragraph-text.ts"
import { type MpepHeading, parseMpepHeading } from "./mpep-html.ts"

const ESCAPED_STAR = "\u0000"

/** Markdown inline syntax → clean text: emphasis markers, escapes, blockquote and bullet marks. */
export const markdownText = (md: string): string =>
  md
    .split("\n")
    .map((line) => {
      let l = line
      if (/^\s*>/.test(l)) l = l.replace(/(^|\s)>(?=\s|$)/g, " ")
      l = l.replace(/^\s*[*+-]\s+/, "")
      return l
        .replace(/\\\*/g, ESCAPED_STAR)
        .replace(/\*+/g, "")
        .replace(/\\([\\`_{}[\]()#+\-.!|>~])/g, "$1")
        .replaceAll(ESCAPED_STAR, "*")
        .replace(/[ \t\u00a0]+/g, " ")
        .trim()
    })
    .filter((l) => l !== "")
    .join("\n")

const isListOrIndented = (rawFirstLine: string) => /^(?:\s+\S|\s*(?:[*+-]|\d+\.)\s)/.test(rawFirstLine)
const endsSentence = (text: string) => /[.:;!?)"”’\]]$/.test(text.trim())
const startsSentence = (text: string) => /^[A-Z]/.test(text)

interface Section {
  readonly heading: MpepHeading
  readonly blocks: string[]
  readonly paragraphs: FormParagraphDraft[]
}

export const mpepMarkdownReader: CorpusReader = async function* (file: CorpusFile) {
  let section: Section | undefined
  let fp: FormParagraphDraft | undefined
  let lastNote = ""
  let para: string[] = []
  let lineNo = 0

  const closeParagraph = () => {
    if (fp && section) {
      section.blocks.push(fp.toContent())
      section.paragraphs.push(fp)
    }
    fp = undefined
  }

  const flushBlock = () => {
    if (para.length === 0) return
    const raw = para
    para = []
    const text = markdownText(raw.join("\n"))
    if (text === "" || !section) return
    if (fp) {
      const isNote = fp.hasNotes
      const stays =
        !isNote || fp.noteCount === 0 || isListOrIndented(raw[0]) || !startsSentence(text) || !endsSentence(lastNote)
      if (stays) {
        fp.add(text)
        if (isNote) lastNote = text
        return
      }
      closeParagraph()
    }
    section.blocks.push(text)
  }

  const closeSection = (): ReaderEvent[] => {
    flushBlock()
    closeParagraph()
    const s = section
    section = undefined
    if (!s) return []
    const content = s.blocks.join("\n\n")
    return [
      row("mpep_sections", {
        section_id: s.heading.sectionId,
        title: s.heading.title,
        chapter: mpepChapterOf(s.heading.sectionId)!,
        revision: s.heading.revision,
        content,
        cross_refs: mpepIdsCitedIn(content),
        source_file: file.path
      }),
      ...s.paragraphs.map((p) => row("form_paragraphs", p.toRow(s.heading.sectionId)))
    ]
  }

  const lines = createInterface({ input: Readable.from(file.open()), crlfDelay: Infinity })
  for await (const line of lines) {
    lineNo++
    const h = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line)
    if (!h) {
      if (line.trim() === "") flushBlock()
      else para.push(line)
      continue
    }
    flushBlock()
    const level = h[1].length
    const text = markdownText(h[2])
    const fpHeading = level === 1 ? formParagraphHeading(text) : undefined
    if (fpHeading) {
      closeParagraph()
      if (!section) {
        yield skip(file.path, `line ${lineNo}`, `form paragraph ¶ ${fpHeading.code} outside any section`)
        continue
      }
      fp = new FormParagraphDraft(fpHeading)
      lastNote = ""
      continue
    }
    if (level === 1) {
      yield* closeSection()
      const heading = parseMpepHeading(text)
      if (!heading) {
        yield skip(file.path, `line ${lineNo}`, `not an MPEP section heading: ${text.slice(0, 80)}`)
        continue
      }
      section = { heading, blocks: [], paragraphs: [] }
      continue
    }
    if (fp && isExaminerNoteHeading(text)) {
      fp.add(text)
      continue
    }
    closeParagraph()
    if (section && text !== "") section.blocks.push(text)
  }
  yield* closeSection()
}
