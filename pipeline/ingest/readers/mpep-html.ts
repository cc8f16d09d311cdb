/**
 * MPEP pages as saved from the USPTO's MPEP site: one `div.Section` per section, its heading
 * "706.02(j)  [Reserved] [R-10.2019]" in the first `h1`, subsection headings in `h2`–`h4`, and
 * form paragraphs in `div.formPara` blocks. A page may nest subsections' `div.Section`s inside
 * their parent's (the 201 page does); each becomes its own row and is left out of the parent.
 *
 * The whole file is parsed at once with node-html-parser: a saved page holds at most one
 * chapter (a few MB), far below what would call for a streaming HTML tokenizer.
 */
import { HTMLElement, type Node, TextNode, parse } from "node-html-parser"
import { type CorpusFile, type CorpusReader, type ReaderEvent, row, skip } from "../../../core/corpus/reader.ts"
import { mpepChapterOf, mpepIdsCitedIn, normalizeMpepId } from "../../../core/guidance/ids.ts"
import { FormParagraphDraft, formParagraphHeading } from "./form-paragraph-text.ts"

/** Elements that start a new block of text; everything else is inline. */
const BLOCKS = new Set([
  "p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr",
  "blockquote", "caption", "br", "section", "dl", "dt", "dd", "pre"
])
const IGNORED = new Set(["script", "style", "img", "form", "input", "select", "noscript"])

const clean = (s: string) => s.replace(/[\s\u00a0]+/g, " ").trim()

type Block = string | FormParagraphDraft

/** The text blocks of an element in document order, with form paragraphs as drafts. */
const blocksOf = (el: HTMLElement, skipEl?: HTMLElement): Block[] => {
  const out: Block[] = []
  let inline = ""
  const flush = () => {
    const t = clean(inline)
    if (t !== "") out.push(t)
    inline = ""
  }
  const walk = (node: Node) => {
    if (node instanceof TextNode) {
      inline += node.text
      return
    }
    if (!(node instanceof HTMLElement)) return
    const tag = node.rawTagName?.toLowerCase() ?? ""
    if (node === skipEl || IGNORED.has(tag) || node.classList.contains("note-toggle")) return
    // Page furniture: the "[top]" link of the saved pages is not section text.
    if (tag === "a" && node.getAttribute("href") === "#top") return
    // A nested section is a row of its own, not part of its parent's text.
    if (node.classList.contains("Section")) return
    if (node.classList.contains("formPara")) {
      flush()
      const draft = formParagraphOf(node)
      if (draft) out.push(draft)
      else for (const b of blocksOf(node)) out.push(b)
      return
    }
    if (tag === "tr") {
      flush()
      const cells = node.childNodes
        .filter((c): c is HTMLElement => c instanceof HTMLElement && /^t[dh]$/i.test(c.rawTagName))
        .map((c) => clean(c.text))
      const line = cells.filter((c) => c !== "").join(" | ")
      if (line !== "") out.push(line)
      return
    }
    const block = BLOCKS.has(tag)
    if (block) flush()
    for (const c of node.childNodes) walk(c)
    if (block) flush()
  }
  for (const c of el.childNodes) walk(c)
  flush()
  return out
}

/** A `div.formPara`: its "¶ code title" heading, then template blocks and examiner notes. */
const formParagraphOf = (el: HTMLElement): FormParagraphDraft | undefined => {
  const [head, ...rest] = blocksOf(el)
  const heading = typeof head === "string" ? formParagraphHeading(head) : undefined
  if (!heading) return undefined
  const draft = new FormParagraphDraft(heading)
  for (const b of rest) draft.add(typeof b === "string" ? b : b.toContent())
  return draft
}

export interface MpepHeading {
  readonly sectionId: string
  readonly title: string
  readonly revision: string | null
}

/**
 * "706.02(j) [Reserved] [R-10.2019]", "704.02-704.09 [Reserved]", "706.03(f) - 706.03(j)
 * [Reserved]" → id, title, revision. A revision tag without a date ("[R-]") counts as none.
 */
export const parseMpepHeading = (text: string): MpepHeading | undefined => {
  const m = /^(\S+(?:\s*[-\u2013]\s*\d\S*)?)\s+(.*)$/.exec(clean(text))
  if (!m) return undefined
  const sectionId = normalizeMpepId(m[1])
  if (!sectionId) return undefined
  let title = m[2]
  let revision: string | null = null
  const rev = /\s*\[(R-[^\]]*)\]\s*$/.exec(title)
  if (rev) {
    title = title.slice(0, rev.index)
    revision = /^R-\d/.test(rev[1]) ? rev[1] : null
  }
  title = title.trim()
  return title === "" ? undefined : { sectionId, title, revision }
}

const sectionEvents = (el: HTMLElement, file: CorpusFile): ReaderEvent[] => {
  const h1 = el.querySelector("h1")
  const heading = h1 ? parseMpepHeading(h1.text) : undefined
  if (!h1 || !heading) throw new Error(`no section heading${h1 ? `: ${clean(h1.text).slice(0, 60)}` : ""}`)
  const blocks = blocksOf(el, h1)
  const content = blocks.map((b) => (typeof b === "string" ? b : b.toContent())).join("\n\n")
  const events: ReaderEvent[] = [
    row("mpep_sections", {
      section_id: heading.sectionId,
      title: heading.title,
      chapter: mpepChapterOf(heading.sectionId)!,
      revision: heading.revision,
      content,
      cross_refs: mpepIdsCitedIn(content),
      source_file: file.path
    })
  ]
  for (const b of blocks) if (typeof b !== "string") events.push(row("form_paragraphs", b.toRow(heading.sectionId)))
  return events
}

const readText = async (file: CorpusFile) => {
  const chunks: Buffer[] = []
  for await (const c of file.open()) chunks.push(Buffer.from(c))
  return Buffer.concat(chunks).toString("utf8")
}

export const mpepHtmlReader: CorpusReader = async function* (file) {
  const root = parse(await readText(file), { comment: false })
  const sections = root.querySelectorAll("div.Section")
  if (sections.length === 0) {
    yield skip(file.path, "file", "no MPEP sections (div.Section) found")
    return
  }
  for (const [i, el] of sections.entries()) {
    let events: ReaderEvent[]
    try {
      events = sectionEvents(el, file)
    } catch (e) {
      yield skip(file.path, `section ${i + 1}`, e instanceof Error ? e.message : String(e))
      continue
    }
    yield* events
  }
}
