/**
 * EPO Guidelines for Examination as a CSV `ref,url,content`, one row per section. The text was
 * flattened from the HTML pages: `ref` reads "Guidelines for Examination in the EPO, G-VII, 5.1",
 * `content` reads "Title: <ref>. Content: 5.1 <heading> <first paragraph> <first paragraph
 * again> <rest>", with word breaks lost around links ("seeB‑VI, 2") and cross-references
 * only inline.
 *
 * The heading has no delimiter of its own; the duplicated first paragraph that the flattening
 * left behind marks where it ends, so the title is what precedes the first immediate
 * repetition. Where there is none, a body that is only a short heading is its own title;
 * otherwise the title stays null rather than guessed.
 */
import { parse } from "csv-parse"
import { Readable } from "node:stream"
import { type CorpusReader, type ReaderEvent, row, skip } from "../../../core/corpus/reader.ts"
import { canonicalEpoId, epoIdParts, epoIdsCitedIn } from "../../../core/guidance/ids.ts"

/** Shorter repeats ("If: If:") are too likely to be words that happen to recur. */
const MIN_REPEAT = 8

const REF_PREFIX = /^\s*Guidelines for Examination in the EPO,\s*/i

/**
 * The first immediate repetition "X X" (X at least MIN_REPEAT characters) that does not start
 * the body: `at` where X starts, `again` where its copy starts, `length` of the copy.
 */
const firstRepeat = (body: string): { at: number; again: number; length: number } | undefined => {
  const limit = Math.min(body.length, 400)
  for (let i = 1; i < limit; i++) {
    if (body[i - 1] !== " ") continue
    const probe = body.slice(i, i + MIN_REPEAT)
    if (probe.length < MIN_REPEAT) return undefined
    for (let j = body.indexOf(probe, i + 1); j > 0 && j - i < 4000; j = body.indexOf(probe, j + 1)) {
      const first = body.slice(i, j).trimEnd()
      if (first.length >= MIN_REPEAT && body.startsWith(first, j)) return { at: i, again: j, length: first.length }
    }
  }
  return undefined
}

interface SplitSection {
  readonly title: string | null
  readonly content: string
}

/** Heading and text of a section body (what follows "Content: "). */
export const splitEpoBody = (ref: string, body: string): SplitSection => {
  const text = body.trim()
  // Chapter entries open with "Chapter IV - ", numbered sections with their number ("5.1 ", "4. ").
  const number = /,\s*(\d+(?:\.\d+)*)\s*$/.exec(ref)?.[1]
  const lead = number
    ? text.startsWith(number) ? number + /^\.?\s*/.exec(text.slice(number.length))![0] : ""
    : (/^Chapter\s+[IVXL]+\s*[-\u2013]\s*/.exec(text)?.[0] ?? "")
  const afterNumber = text.slice(lead.length)
  const repeat = firstRepeat(afterNumber)
  if (repeat) {
    const title = afterNumber.slice(0, repeat.at).trim()
    // The duplicate is a flattening artefact: keep the paragraph once.
    const content = `${afterNumber.slice(repeat.at, repeat.again).trim()} ${afterNumber.slice(repeat.again + repeat.length).trim()}`
    return { title: title === "" ? null : title, content: content.trim() }
  }
  // A body that is only a heading ("7.1 Application numbering systems") does not end a sentence.
  if (afterNumber !== "" && afterNumber.length <= 200 && !/[.!?:]$/.test(afterNumber)) return { title: afterNumber, content: text }
  return { title: null, content: text }
}

export const epoGuidelinesReader: CorpusReader = async function* (file) {
  const skipped: ReaderEvent[] = []
  const parser = parse({
    bom: true,
    info: true,
    relax_column_count: true,
    skip_records_with_error: true,
    skip_empty_lines: true,
    on_skip: (err) => {
      skipped.push(skip(file.path, err?.lines !== undefined ? `line ${err.lines}` : "record", err?.message ?? "unparseable CSV record"))
      return undefined
    }
  })
  Readable.from(file.open()).pipe(parser)
  let header: string[] | undefined
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    yield* skipped.splice(0)
    const at = `line ${info.lines}`
    if (!header) {
      header = record.map((h) => h.trim().toLowerCase())
      if (!["ref", "url", "content"].every((c) => header!.includes(c))) {
        yield skip(file.path, at, `header lacks ref,url,content: ${record.join(",").slice(0, 80)}`)
        return
      }
      continue
    }
    if (record.length !== header.length) {
      yield skip(file.path, at, `expected ${header.length} fields, found ${record.length}`)
      continue
    }
    const field = (name: string) => record[header!.indexOf(name)]
    const ref = field("ref").replace(REF_PREFIX, "").replace(/\s+/g, " ").trim()
    const sectionId = canonicalEpoId(ref)
    if (!sectionId) {
      yield skip(file.path, at, `not an EPO Guidelines reference: ${field("ref").slice(0, 80)}`)
      continue
    }
    const raw = field("content")
    const body = raw.replace(/^\s*Title:[\s\S]*?\.\s*Content:\s*/, "")
    const { title, content } = splitEpoBody(ref, body)
    if (content === "") {
      yield skip(file.path, at, `no text for ${ref}`)
      continue
    }
    const parts = epoIdParts(sectionId)
    const url = field("url").trim()
    yield row("epo_sections", {
      section_id: sectionId,
      ref,
      part: parts.part,
      chapter: parts.chapter ?? null,
      title,
      content,
      url: url === "" ? null : url,
      cross_refs: epoIdsCitedIn(content)
    })
  }
  yield* skipped.splice(0)
}
