/**
 * Legal references cited in US guidance text: statutes (35 U.S.C.), rules (37 CFR) and case
 * law (reporter citations). Each distinct reference is listed once, in order of first
 * mention, with how often it is cited.
 */

export type LegalReference =
  | {
      readonly type: "statute"
      readonly citation: string
      readonly title: "35 U.S.C."
      readonly section: string
      readonly subsection: string | null
      readonly paragraph: string | null
      readonly preAIA: boolean
      readonly mentions: number
    }
  | {
      readonly type: "regulation"
      readonly citation: string
      readonly title: "37 CFR"
      readonly section: string
      readonly subsection: string | null
      readonly mentions: number
    }
  | {
      readonly type: "case"
      readonly citation: string
      readonly name: string
      readonly reporter: string
      readonly court: string | null
      readonly year: number | null
      readonly mentions: number
    }

const SUB = String.raw`((?:\([a-zA-Z0-9]{1,4}\))*)`
const USC = new RegExp(
  String.raw`(pre-AIA\s+)?35\s+U\.?\s?S\.?\s?C\.?\s*(?:§+\s*)?(\d{1,3}[a-z]?)${SUB}(?:,?\s+(first|second|third|fourth|fifth|sixth)\s+paragraph)?`,
  "gi"
)
// "35 U.S.C. 102 and 103", "35 U.S.C. 102(a)(1), (a)(2)": further sections after the first.
const MORE_USC = new RegExp(String.raw`^(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)(\d{1,3}[a-z]?)${SUB}(?![\d.])(?!\s*(?:C\.?\s?F\.?\s?R|U\.?\s?S\.?\s?C))`, "i")
const CFR = new RegExp(String.raw`37\s+C\.?\s?F\.?\s?R\.?\s*(?:§+\s*)?(\d{1,3}\.\d{1,4}[a-z]?)${SUB}`, "gi")

const REPORTER = String.raw`F\.\s?(?:2d|3d|4th)|F\.\s?Supp\.(?:\s?[23]d)?|F\.|U\.S\.|USPQ2d|USPQ|S\.\s?Ct\.|(?:Fed|F)\.\s?App'x|L\.\s?Ed\.(?:\s?2d)?|Fed\.\s?Cl\.|O\.G\.|Dec\.\s?Comm'r\s?Pat\.|C\.C\.P\.A\.`
const PARTY = String.raw`[A-Z][\w.'’&-]*(?:,?\s+(?:[A-Z][\w.'’&-]*|of|and|&|the|de|du|for|von|van|Inc\.|Corp\.|Co\.|Ltd\.|LLC|L\.L\.C\.|N\.V\.|S\.A\.|AG|GmbH)){0,7}`
const CASE = new RegExp(
  String.raw`\b((?:In\s+re|Ex\s+parte)\s+[A-Z][^,;()]{0,60}?|${PARTY}\s+v\.\s+${PARTY}),\s+(\d{1,4})\s+(${REPORTER})\s+(\d{1,5})`,
  "g"
)
const SIGNAL = /^(?:(?:See|also|Cf\.|But|Accord|E\.g\.,?|Compare|citing|quoting|and|The|As|Also|Further|Moreover|Thus|However|(?:In)(?!\s+re\b))\s+)+/

const clean = (s: string) => s.replace(/[\s\u00a0]+/g, " ").trim()

const courtAndYear = (after: string): { court: string | null; year: number | null } => {
  const m = /^[^;()]{0,60}?\(([^()]*?)\s*(\d{4})\)/.exec(after)
  if (!m) return { court: null, year: null }
  const court = clean(m[1]).replace(/,$/, "")
  return { court: court === "" ? null : court, year: Number(m[2]) }
}

/** Statutes, rules and cases cited in the text. */
export const legalReferencesOf = (text: string): LegalReference[] => {
  const t = text.replace(/\u00a0/g, " ")
  const found: Array<{ at: number; key: string; ref: LegalReference }> = []

  const statute = (at: number, preAIA: boolean, section: string, sub: string, paragraph: string | null) => {
    const subsection = sub === "" ? null : sub.toLowerCase()
    const para = paragraph ? paragraph.toLowerCase() : null
    const citation = `${preAIA ? "pre-AIA " : ""}35 U.S.C. ${section}${subsection ?? ""}${para ? `, ${para} paragraph` : ""}`
    found.push({
      at,
      key: citation,
      ref: { type: "statute", citation, title: "35 U.S.C.", section, subsection, paragraph: para, preAIA, mentions: 0 }
    })
  }
  for (const m of t.matchAll(USC)) {
    statute(m.index, m[1] !== undefined, m[2], m[3], m[4] ?? null)
    let rest = t.slice(m.index + m[0].length)
    let offset = m.index + m[0].length
    for (let more = MORE_USC.exec(rest); more; more = MORE_USC.exec(rest)) {
      statute(offset, m[1] !== undefined, more[1], more[2], null)
      offset += more[0].length
      rest = rest.slice(more[0].length)
    }
  }
  for (const m of t.matchAll(CFR)) {
    const subsection = m[2] === "" ? null : m[2]
    const citation = `37 CFR ${m[1]}${subsection ?? ""}`
    found.push({ at: m.index, key: citation, ref: { type: "regulation", citation, title: "37 CFR", section: m[1], subsection, mentions: 0 } })
  }
  for (const m of t.matchAll(CASE)) {
    const name = clean(m[1]).replace(SIGNAL, "")
    const reporter = `${m[2]} ${clean(m[3])} ${m[4]}`
    const { court, year } = courtAndYear(t.slice(m.index + m[0].length))
    found.push({
      at: m.index,
      key: `${name.toLowerCase()}|${reporter}`,
      ref: { type: "case", citation: `${name}, ${reporter}`, name, reporter, court, year, mentions: 0 }
    })
  }

  found.sort((a, b) => a.at - b.at)
  const byKey = new Map<string, LegalReference & { mentions: number }>()
  for (const f of found) {
    const seen = byKey.get(f.key)
    if (seen) seen.mentions++
    else byKey.set(f.key, { ...f.ref, mentions: 1 })
  }
  return [...byKey.values()]
}
