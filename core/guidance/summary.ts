/**
 * Extractive summary: the section's most central sentences, quoted verbatim in their original
 * order. Nothing is generated or paraphrased, and the result says so (`method: "extractive"`).
 * A sentence scores by the mean document frequency of its stems (words the section keeps
 * coming back to), with a bonus for opening the section, which usually states the rule.
 */
import { tokenizePatentText } from "../text/tokenize.ts"
import { isHeading } from "./rules.ts"
import { sentencesOf } from "./sentences.ts"

export interface ExtractiveSummary {
  readonly method: "extractive"
  readonly text: string
  readonly sentences: ReadonlyArray<string>
  readonly note: string
}

export const extractiveSummaryOf = (text: string, maxSentences = 3, maxChars = 700): ExtractiveSummary => {
  const all = sentencesOf(text)
  const body = all.filter((s) => !isHeading(s) && s.length >= 30)
  const sentences = body.length > 0 ? body : all
  const stems = sentences.map((s) => tokenizePatentText(s).map((t) => t.stem))
  const freq = new Map<string, number>()
  for (const list of stems) for (const s of new Set(list)) freq.set(s, (freq.get(s) ?? 0) + 1)
  const scored = sentences.map((s, i) => {
    const list = stems[i]
    const centrality = list.length === 0 ? 0 : list.reduce((a, st) => a + (freq.get(st) ?? 0), 0) / list.length
    return { i, s, score: centrality * (i === 0 ? 1.5 : 1) }
  })
  const picked: typeof scored = []
  let chars = 0
  for (const c of [...scored].sort((a, b) => b.score - a.score || a.i - b.i)) {
    if (picked.length >= maxSentences) break
    if (picked.length > 0 && chars + c.s.length > maxChars) continue
    picked.push(c)
    chars += c.s.length
  }
  const chosen = picked.sort((a, b) => a.i - b.i).map((c) => c.s)
  return {
    method: "extractive",
    text: chosen.join(" "),
    sentences: chosen,
    note: "sentences quoted verbatim from the section, selected by term centrality; not a generated summary"
  }
}
