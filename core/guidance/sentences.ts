/**
 * Sentences of guidance text. Intl.Segmenter finds the candidate boundaries; legal writing
 * then needs repairs it cannot know about: reporters and courts abbreviate ("Fed. Cir. 2014",
 * "Bose Corp. v. JBL, Inc."), and EPO text cites "Art. 56" — a boundary before a digit or
 * after one of these abbreviations is not a sentence end.
 */
const segmenter = new Intl.Segmenter("en", { granularity: "sentence" })

const ABBREVIATIONS = new Set(
  [
    "v", "vs", "cir", "fed", "inc", "corp", "co", "ltd", "no", "nos", "e.g", "i.e", "cf", "al", "pat", "app", "bd",
    "inter", "ex", "ct", "cl", "dist", "supp", "sec", "art", "arts", "fig", "figs", "u.s", "u.s.c", "c.f.r", "reg",
    "dec", "comm'r", "int", "ref", "para", "paras", "par", "p", "pp", "ed", "vol", "st", "mr", "ms", "dr", "jr",
    "etc", "approx", "ch", "chap", "r", "ann", "rev", "stat", "cong", "sess", "s", "h.r", "ry", "mfg", "intern",
    "ccpa", "b.p.a.i", "bros", "assn", "ass'n", "dept", "gen"
  ]
)

const endsWithAbbreviation = (s: string) => {
  const m = /(?:^|[\s(])([A-Za-z][A-Za-z.']*)\.\s*$/.exec(s)
  return m !== null && (ABBREVIATIONS.has(m[1].toLowerCase()) || /^[A-Z]$/.test(m[1]))
}

/** Splits text into trimmed sentences; blank lines (subsection breaks) always end one. */
export const sentencesOf = (text: string): string[] => {
  const out: string[] = []
  for (const block of text.split(/\n+/)) {
    let current = ""
    for (const { segment } of segmenter.segment(block)) {
      const merge = endsWithAbbreviation(current) || /^[\d(a-z§]/.test(segment) || /^\s*(?:[IVXL]+|\d{1,2})\.\s*$/.test(current)
      if (current !== "" && merge) current += segment
      else {
        if (current.trim() !== "") out.push(current.trim())
        current = segment
      }
    }
    if (current.trim() !== "") out.push(current.trim())
  }
  return out
}
