/**
 * What a form paragraph's template and Examiner Notes say about it: its placeholders and what
 * each holds ("In bracket 3, identify …"), which paragraphs must precede it ("must be
 * preceded by form paragraph 7.30.02 or 7.103"), and the other paragraphs it points to.
 */
import { normalizeFormParagraphCode } from "./ids.ts"

export interface Bracket {
  readonly number: number
  readonly holds: string | null
}

export interface Brackets {
  readonly count: number
  readonly items: ReadonlyArray<Bracket>
}

export interface ParagraphMention {
  readonly code: string
  /** Other end of a printed range ("7.34.02 - 7.34.10"), to be expanded against the index. */
  readonly through?: string
  readonly relation: "must-precede" | "followed-by" | "see-also"
}

/** Notes as a list: "1. …\n2. …" numbered items, continuation lines joined to their item. */
export const examinerNotesOf = (notes: string | null): string[] => {
  if (!notes) return []
  const out: string[] = []
  for (const line of notes.split("\n").map((l) => l.trim()).filter((l) => l !== "")) {
    if (out.length === 0 || /^\d{1,2}\.\s/.test(line)) out.push(line.replace(/^\d{1,2}\.\s+/, ""))
    else out[out.length - 1] += ` ${line}`
  }
  return out
}

const BRACKET_NOTE = /\bin\s+brackets?\s+((?:\d{1,2}(?:\s*(?:,|and|or|&|-|through)\s*)?)+),?\s*([^;]*?)(?=;\s*in\s+brackets?\s+\d|;|$)/gi

/** Placeholders of the template, each with what the notes say it holds. */
export const bracketsOf = (template: string | null, notes: ReadonlyArray<string>): Brackets => {
  const numbers = new Set<number>()
  for (const m of (template ?? "").matchAll(/\[(\d{1,2})\]/g)) numbers.add(Number(m[1]))
  const holds = new Map<number, string>()
  for (const note of notes) {
    for (const m of note.matchAll(BRACKET_NOTE)) {
      const ns = [...m[1].matchAll(/\d{1,2}/g)].map((x) => Number(x[0]))
      const range = /-|through/.test(m[1]) && ns.length === 2 ? Array.from({ length: ns[1] - ns[0] + 1 }, (_, i) => ns[0] + i) : ns
      const text = m[2].trim().replace(/\.$/, "")
      if (text === "") continue
      for (const n of range) if (!holds.has(n)) holds.set(n, text.charAt(0).toUpperCase() + text.slice(1))
    }
  }
  const count = numbers.size === 0 ? 0 : Math.max(...numbers)
  return {
    count,
    items: Array.from({ length: count }, (_, i) => ({ number: i + 1, holds: holds.get(i + 1) ?? null }))
  }
}

const CODE = String.raw`\d{1,2}\.\d{1,3}[a-z]?(?:\.(?:[A-Za-z]{2,3}|\d{1,3}[a-z]?|[a-z]))*`
const MENTION = new RegExp(
  String.raw`(?:form\s+paragraphs?|¶+)\s*(${CODE}(?:(?:\s*(?:,|and/or|and|or|-|–|through|to))+\s*(?:form\s+paragraphs?\s*|¶+\s*)?${CODE})*)`,
  "gi"
)
const RANGE = new RegExp(String.raw`(${CODE})\s*(?:-|–|through|to)\s*(?:¶+\s*)?(${CODE})`, "gi")

/** Paragraph codes mentioned in one note, with ranges kept as ranges. */
const mentionsIn = (sentence: string, relation: ParagraphMention["relation"]): ParagraphMention[] => {
  const out: ParagraphMention[] = []
  for (const m of sentence.matchAll(MENTION)) {
    let rest = m[1]
    for (const r of m[1].matchAll(RANGE)) {
      const [a, b] = [normalizeFormParagraphCode(r[1]), normalizeFormParagraphCode(r[2])]
      if (a && b) out.push({ code: a, through: b, relation })
      rest = rest.replace(r[0], " ")
    }
    for (const c of rest.matchAll(new RegExp(CODE, "g"))) {
      const code = normalizeFormParagraphCode(c[0])
      if (code) out.push({ code, relation })
    }
  }
  return out
}

/** Paragraphs a note sentence relates to this one, by what the sentence says. */
export const paragraphMentionsOf = (notes: ReadonlyArray<string>): ParagraphMention[] => {
  const out: ParagraphMention[] = []
  for (const note of notes) {
    for (const sentence of note.split(/(?<=\.)\s+(?=[A-Z])/)) {
      const relation: ParagraphMention["relation"] = /\bpreceded\s+by\b/i.test(sentence)
        ? "must-precede"
        : /\bfollowed\s+by\b|\bmust\s+precede\b/i.test(sentence)
        ? "followed-by"
        : "see-also"
      out.push(...mentionsIn(sentence, relation))
    }
  }
  return out
}
