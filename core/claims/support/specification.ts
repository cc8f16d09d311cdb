/**
 * Specification text as paragraphs: warehouse rows keep their printed numbers and headings;
 * supplied sections are cut at printed paragraph markers ("[0012]") or at blank lines, keeping
 * each paragraph's offset in its section so a client can highlight the supplied text itself.
 */
import type { SectionKind, SpecParagraph } from "./types.ts"

const KINDS: ReadonlyArray<readonly [RegExp, SectionKind]> = [
  [/cross[- ]?reference|related applications?|priority claim|incorporation by reference/i, "cross-reference"],
  [/\bclaims?\b(?!.*description)/i, "claims"],
  [/\babstract\b/i, "abstract"],
  [/definitions?|terminology|glossary/i, "definitions"],
  [/brief description of (?:the )?(?:several views of the )?drawings?|description of (?:the )?(?:drawings|figures)|brief description of figures/i, "drawings"],
  [/background|prior art|description of (?:the )?related art/i, "background"],
  [/technical field|field of (?:the )?(?:invention|disclosure)|^field\b/i, "field"],
  [/summary|disclosure of (?:the )?invention|brief description of the invention|objects? of the invention/i, "summary"],
  [/examples?\b|experimental|working example/i, "examples"],
  [/detailed description|description of (?:the )?(?:preferred |exemplary |illustrative |specific |certain )?embodiments?|embodiment|best mode|mode for carrying|description and operation|detailed|description/i, "detailed-description"]
]

/** What a heading or supplied section name is about. */
export const sectionKindOf = (heading: string): SectionKind => {
  const h = heading.trim()
  if (h === "") return "other"
  for (const [re, kind] of KINDS) if (re.test(h)) return kind
  return "other"
}

export interface SuppliedSection {
  readonly type?: string | undefined
  readonly name?: string | undefined
  readonly text: string
}

const MARKER = /(?:^|\n)[ \t]*\[(\d{3,5})\][ \t]*/g

/** Cut one supplied section into paragraphs. */
export const paragraphsOfSection = (section: SuppliedSection, index: number): SpecParagraph[] => {
  const label = (section.name ?? "").trim() || (section.type ?? "").trim() || `section ${index + 1}`
  const sectionKind = sectionKindOf(`${section.type ?? ""} ${section.name ?? ""}`)
  const text = section.text
  const out: SpecParagraph[] = []
  const push = (paragraph: string, from: number, to: number) => {
    const raw = text.slice(from, to)
    const lead = raw.length - raw.trimStart().length
    const body = raw.trim()
    if (body !== "") out.push({ section: label, sectionKind, paragraph, text: body, sectionOffset: from + lead })
  }
  const markers = [...text.matchAll(MARKER)]
  if (markers.length > 0) {
    // Printed numbers: "[0012] The lever …"; text before the first marker is a paragraph of its own.
    if (markers[0].index > 0) push("0", 0, markers[0].index)
    markers.forEach((m, i) => push(m[1], m.index + m[0].length, i + 1 < markers.length ? markers[i + 1].index : text.length))
    return out
  }
  const breaks = /\n[ \t]*\n|\r\n[ \t]*\r\n/g
  const cuts = /\n\s*\n/.test(text) ? [...text.matchAll(breaks)] : [...text.matchAll(/\r?\n/g)]
  let from = 0
  let n = 0
  for (const c of cuts) {
    if (text.slice(from, c.index).trim() !== "") push(String(++n), from, c.index)
    from = c.index + c[0].length
  }
  if (text.slice(from).trim() !== "") push(String(++n), from, text.length)
  return out
}

/** Supplied sections → paragraphs; sections that are claims are left out (claims cannot support themselves). */
export const paragraphsOfSections = (sections: ReadonlyArray<SuppliedSection>): SpecParagraph[] =>
  sections.flatMap((s, i) => (sectionKindOf(`${s.type ?? ""} ${s.name ?? ""}`) === "claims" ? [] : paragraphsOfSection(s, i)))

export interface WarehouseParagraph {
  readonly para_num: string | null
  readonly heading: string | null
  readonly text: string | null
  readonly seq: number
}

/** Warehouse rows (ordered by seq) → paragraphs. */
export const paragraphsOfRows = (rows: ReadonlyArray<WarehouseParagraph>): SpecParagraph[] =>
  rows.flatMap((r) => {
    const text = r.text ?? ""
    if (text.trim() === "") return []
    const section = (r.heading ?? "").trim() || "DESCRIPTION"
    return [{ section, sectionKind: sectionKindOf(r.heading ?? ""), paragraph: r.para_num?.trim() || String(r.seq + 1), text, sectionOffset: 0 }]
  })
