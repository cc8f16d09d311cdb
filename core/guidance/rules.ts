/**
 * Normative sentences of guidance text. A key rule is any sentence that binds someone (must,
 * shall, should, may not, is required …); an examiner action is a sentence that tells the
 * examiner (or the EPO division, or "Office personnel") what to do, or an imperative in
 * examiner notes ("In bracket 2, insert …"). Headings are never rules.
 */
import { sentencesOf } from "./sentences.ts"

const NORMATIVE =
  /\b(?:must|shall|should|may\s+not|must\s+not|cannot|can\s+not|need\s+not|(?:is|are)\s+(?:not\s+)?(?:required|permitted|prohibited|necessary|improper|to\s+be)|required\s+to|has\s+to|have\s+to)\b/i

const ACTOR = String.raw`(?:the\s+|an\s+|each\s+)?(?:primary\s+|search\s+)?(?:examiners?|office\s+personnel|(?:examining|opposition|search|receiving|legal)\s+division|division|EPO)`
const EXAMINER_DIRECTIVE = new RegExp(
  String.raw`\b${ACTOR}(?:\s*\([^)]*\))?\s+(?:must|should|shall|will|may|is\s+to|are\s+to|need|needs|has\s+to|is\s+required|is\s+expected|ought|can)\b`,
  "i"
)
const IMPERATIVE =
  /^(?:(?:In|For)\s+brackets?\s+[\d\s,and-]+,\s*|(?:If|When|Where)\b[^,]{0,120},\s*)?(?:insert|use|cite|identify|explain|reject|require|include|indicate|state|point\s+out|set\s+forth|consider|determine|apply|make|ensure|check|review|add|delete|pluralize|specify|enter|provide|do\s+not|note|list|select|refer)\b/i

/** A heading line: short, no sentence-final punctuation, or an upper-case subsection title. */
export const isHeading = (line: string): boolean => {
  const t = line.trim()
  if (t.length === 0) return false
  // Subsection titles are printed in capitals: "III. A CLAIM IS NOT PER SE INDEFINITE IF …".
  if (/[A-Z]{3}/.test(t) && !/[a-z]{2}/.test(t.replace(/\b(?:e\.g|i\.e|pre-AIA|et seq)\b/g, ""))) return true
  if (/^(?:[IVXL]+|[A-Z]|\d+(?:\.\d+)*)\.\s+[A-Z0-9 ,;:'’()/&-]+$/.test(t) && t.length < 250) return true
  return t.length < 120 && !/[.:;?!)\]"”]$/.test(t) && /^[A-Z0-9¶]/.test(t) && !/\b(?:must|shall|should)\b/.test(t)
}

const tidy = (s: string) => s.replace(/\s+/g, " ").trim()

/** Normative sentences, in order, without repeats. */
export const keyRulesOf = (text: string, max = 40): string[] => {
  const out = new Set<string>()
  for (const s of sentencesOf(text)) {
    if (out.size >= max) break
    if (!isHeading(s) && s.length >= 20 && NORMATIVE.test(s)) out.add(tidy(s))
  }
  return [...out]
}

/** What the examiner is told to do, in order, without repeats. */
export const examinerActionsOf = (text: string, max = 40): string[] => {
  const out = new Set<string>()
  for (const s of sentencesOf(text)) {
    if (out.size >= max) break
    if (isHeading(s) || s.length < 15) continue
    const body = s.replace(/^\d+\.\s+/, "")
    if (EXAMINER_DIRECTIVE.test(body) || IMPERATIVE.test(body)) out.add(tidy(body))
  }
  return [...out]
}
