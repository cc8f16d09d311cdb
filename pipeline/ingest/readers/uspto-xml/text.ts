/**
 * Mixed content → clean text.
 *
 * Inline markup (<b>, <i>, <sub>, <sup>, <highlight>, MathML tokens, v2.5 <PDAT>/<HIL>) is
 * joined without spaces so "H<sub>2</sub>O" stays "H2O"; block-like elements (nested
 * claim-text, claim steps, table cells, list items, paragraphs) are separated by a space so
 * their words do not run together. Whitespace is then collapsed.
 */
import type { XmlElement } from "./dom.ts"

const BLOCK = new Set([
  "p", "paragraph", "para", "claim-text", "clmstep", "heading", "h", "li", "ul", "ol", "dl", "dt", "dd",
  "table", "tables", "tgroup", "thead", "tbody", "row", "entry", "tr", "td", "th", "br", "mtr", "mtd",
  "description-of-drawings", "section", "btext", "ptext"
])

/** References whose content reads inline even when it is a nested claim-text ("claim 2"). */
const INLINE_REFERENCE = new Set(["dependent-claim-reference", "claim-ref", "clref"])

/** Elements that carry no readable text (images, drawing references by file). */
const NO_TEXT = new Set(["img", "image", "emi"])

export const collapseWhitespace = (s: string): string => s.replace(/\s+/g, " ").trim()

export interface TextOptions {
  /** Leave these elements (by name) out of the text, e.g. the paragraph <number> in `pa` files. */
  readonly omit?: ReadonlySet<string>
}

const collect = (el: XmlElement, out: string[], opts: TextOptions): void => {
  const inlineOnly = INLINE_REFERENCE.has(el.name.toLowerCase())
  for (const c of el.children) {
    if (typeof c === "string") {
      out.push(c)
      continue
    }
    const name = c.name.toLowerCase()
    if (NO_TEXT.has(name) || opts.omit?.has(c.name)) continue
    const block = !inlineOnly && BLOCK.has(name)
    if (block) out.push(" ")
    collect(c, out, opts)
    if (block) out.push(" ")
  }
}

/** Clean text of an element's content; empty string for a missing element. */
export const cleanText = (el: XmlElement | undefined, opts: TextOptions = {}): string => {
  if (!el) return ""
  const out: string[] = []
  collect(el, out, opts)
  return collapseWhitespace(out.join(""))
}

/** Clean text of several elements joined by spaces (e.g. all <p> of an abstract). */
export const cleanTexts = (els: ReadonlyArray<XmlElement>, opts: TextOptions = {}): string =>
  collapseWhitespace(els.map((e) => cleanText(e, opts)).join(" "))
