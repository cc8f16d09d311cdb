/**
 * HTML fragments → clean text. Patent sources deliver claims, descriptions and abstracts as
 * HTML fragments (ppubs: `<br />`-separated lines with `<b>`, `<figref>`, MathML, entities).
 * The text keeps everything a reader sees, paragraph markers such as "[0012]" or "(3)"
 * included, and loses only markup: line breaks stay line breaks, other whitespace collapses.
 */
import { HTMLElement, type Node, TextNode, parse } from "node-html-parser"

export interface HtmlTextOptions {
  /**
   * Treat literal newlines in the fragment as line breaks. ppubs mixes `<br />` with bare "\n"
   * in some fields (cross-reference, government interest); in real HTML a newline is just space.
   */
  readonly newlineIsBreak?: boolean
}

const BLOCK = new Set([
  "p", "div", "li", "ul", "ol", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6", "heading",
  "blockquote", "section", "article", "header", "footer", "pre", "dl", "dt", "dd", "claim", "claim-text"
])
const DROP = new Set(["script", "style", "head", "img"])

// Zero-width characters (ZWNJ from "&zwnj;", ZWSP, BOM) carry no text.
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff]/g

const collect = (node: Node, out: string[], newlineIsBreak: boolean) => {
  if (node instanceof TextNode) {
    const t = node.text.replace(INVISIBLE, "")
    out.push(newlineIsBreak ? t.replace(/\r\n?/g, "\n") : t.replace(/\s+/g, " "))
    return
  }
  if (!(node instanceof HTMLElement)) return
  const tag = node.rawTagName?.toLowerCase() ?? ""
  if (DROP.has(tag)) return
  if (tag === "br") {
    out.push("\n")
    return
  }
  const block = BLOCK.has(tag)
  if (block) out.push("\n")
  for (const child of node.childNodes) collect(child, out, newlineIsBreak)
  if (block) out.push("\n")
}

/** Non-empty lines of text, whitespace collapsed within each line. */
export const htmlToLines = (html: string | null | undefined, options: HtmlTextOptions = {}): string[] => {
  if (!html) return []
  const root = parse(html, { comment: false, blockTextElements: { script: false, style: false, pre: true } })
  const out: string[] = []
  collect(root, out, options.newlineIsBreak ?? false)
  return out
    .join("")
    .split("\n")
    .map((l) => l.replace(/[\s\u00a0]+/g, " ").trim())
    .filter((l) => l.length > 0)
}

/** Clean text: lines joined with "\n". */
export const htmlToText = (html: string | null | undefined, options: HtmlTextOptions = {}): string =>
  htmlToLines(html, options).join("\n")

/** Clean single-line text (titles, abstracts): all whitespace, line breaks included, collapsed. */
export const htmlToInlineText = (html: string | null | undefined): string => htmlToLines(html).join(" ")
