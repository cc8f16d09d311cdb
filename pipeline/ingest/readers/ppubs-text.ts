/**
 * ppubs full-text HTML → numbered claims and description paragraphs.
 *
 * ppubs renders both as `<br />`-separated lines. Claims start with their number ("1.",
 * "<b>1</b>.", "<b>1</b>)", ".Iadd.17." in reissues, "<b>1</b>-<b>6</b>. (canceled)") but a
 * claim's own sub-paragraphs are lines too, so a line starts a new claim only when it carries
 * the next number in sequence. Description paragraphs carry "[0012]" (pre-grant publications:
 * the published paragraph number) or "(12)" (grants: ppubs restarts the count in every section,
 * so the number is continued across sections to match the grant's running numbering).
 */
import { parseClaimDependencies } from "../../../core/claims/dependencies.ts"
import { htmlToLines } from "../../../core/text/html.ts"

export interface ParsedClaim {
  readonly num: number
  readonly text: string
  readonly dependsOn: number[]
}

const CLAIM_START = /^(?:\.\[\.|\.Iadd\.)?\s*(\d{1,3})\s*(?:\.?\s*(?:-|–|to|through)\s*(\d{1,3}))?\s*[.)]\s*(.*)$/i
const CANCELED = /^[([]?\s*(canceled|cancelled|deleted|withdrawn and canceled)\s*[)\]]?\s*\.?$/i

/** Claims in order; canceled claims ("1-6. (canceled)") are left out, their numbers are kept by the others. */
export const splitClaims = (html: string | null | undefined): ParsedClaim[] => {
  const lines = htmlToLines(html)
  const raw: Array<{ num: number; last: number; lines: string[] }> = []
  for (const line of lines) {
    const m = CLAIM_START.exec(line)
    const expected = raw.length === 0 ? undefined : raw[raw.length - 1].last + 1
    if (m && (expected === undefined ? Number(m[1]) >= 1 : Number(m[1]) === expected)) {
      const num = Number(m[1])
      const last = m[2] && Number(m[2]) > num ? Number(m[2]) : num
      raw.push({ num, last, lines: [m[3]] })
    } else if (raw.length > 0) raw[raw.length - 1].lines.push(line)
    else raw.push({ num: 1, last: 1, lines: [line] }) // unnumbered single claim (designs, plants)
  }
  return raw
    .filter((c) => c.num === c.last)
    .map((c) => ({ num: c.num, text: c.lines.filter(Boolean).join("\n").trim() }))
    .filter((c) => c.text !== "" && !CANCELED.test(c.text))
    .map((c) => ({ ...c, dependsOn: parseClaimDependencies(c.text).filter((n) => n !== c.num) }))
}

export interface ParsedParagraph {
  readonly paraNum: string | null
  readonly heading: string | null
  readonly text: string
}

export interface DescriptionSection {
  readonly html: string | null | undefined
  /** Field uses bare newlines as line breaks (ppubs cross-reference and government-interest fields). */
  readonly newlineIsBreak?: boolean
}

const BRACKET = /^\[(\d{4,5})\]\s*(.*)$/
const PAREN = /^\((\d{1,4})\)\s*(.*)$/

/** Upper-case caption ("BRIEF DESCRIPTION OF THE DRAWINGS"): a heading even where ppubs numbered it. */
const isCapsHeading = (t: string) =>
  t.length <= 120 && /[A-Z]{3,}/.test(t) && !/[a-z]/.test(t) && !/[.;,]$/.test(t) && !/^FIGS?\b/.test(t) && !MATH.test(t)

/** Short unnumbered line between numbered paragraphs ("Technical Field", "First Exemplary Embodiment"); formulas are not headings. */
const isTitleHeading = (t: string) =>
  t.length <= 80 && t.split(" ").length <= 10 && /^[A-Z][\p{L}\d'’,&()\- ]*[\p{L}\d)]$/u.test(t) && !/^FIGS?\.?\s/.test(t)

const MATH = /[=<>+*∗⋅^/\\[\]{}]/

/** Splits one mid-line run of pre-grant paragraphs: "… from: [0007] “Smart …” [0008] …" when the numbers follow on. */
const splitInlineBrackets = (num: number, text: string): Array<{ num: number; text: string }> => {
  const out: Array<{ num: number; text: string }> = []
  let current = num
  let rest = text
  for (;;) {
    const next = String(current + 1).padStart(4, "0")
    const at = rest.indexOf(` [${next}] `)
    if (at < 0) break
    out.push({ num: current, text: rest.slice(0, at).trim() })
    rest = rest.slice(at + next.length + 3).trim()
    current += 1
  }
  out.push({ num: current, text: rest.trim() })
  return out
}

/** Description paragraphs in document order across the given sections. */
export const splitDescription = (sections: ReadonlyArray<DescriptionSection>): ParsedParagraph[] => {
  const sectionLines = sections.map((s) => htmlToLines(s.html, { newlineIsBreak: s.newlineIsBreak }))
  const bracketStyle = sectionLines.some((ls) => ls.some((l) => BRACKET.test(l)))
  const numbered = bracketStyle || sectionLines.some((ls) => ls.some((l) => PAREN.test(l)))
  const out: ParsedParagraph[] = []
  let heading: string | null = null
  let offset = 0
  const push = (paraNum: string | null, text: string) => {
    if (text !== "") out.push({ paraNum, heading, text })
  }
  for (const lines of sectionLines) {
    let sectionMax = 0
    for (const line of lines) {
      const b = bracketStyle ? BRACKET.exec(line) : null
      const p = !bracketStyle ? PAREN.exec(line) : null
      if (b) {
        if (isCapsHeading(b[2])) heading = b[2]
        else for (const part of splitInlineBrackets(Number(b[1]), b[2])) push(String(part.num).padStart(b[1].length, "0"), part.text)
      } else if (p) {
        const n = Number(p[1])
        sectionMax = Math.max(sectionMax, n)
        if (isCapsHeading(p[2])) heading = p[2]
        else push(String(offset + n).padStart(4, "0"), p[2])
      } else if (isCapsHeading(line) || (numbered && isTitleHeading(line))) heading = line
      else push(null, line)
    }
    offset += sectionMax
  }
  return out
}
