/**
 * The specification as lemmas and stems: every word of every paragraph (hyphenated words split,
 * so "light-emitting diode" meets "light emitting diode"), its sentence, and an index from stem to
 * occurrences so a claim term is looked up by its head word rather than by scanning the text.
 */
import { singular, stem } from "../antecedent/lemma.ts"
import type { SpecParagraph } from "./types.ts"

export interface Word {
  /** Lower case as written. */
  readonly l: string
  readonly lemma: string
  readonly stem: string
  readonly start: number
  readonly end: number
  /** Index of the sentence the word is in. */
  readonly sentence: number
}

export interface IndexedParagraph {
  readonly para: SpecParagraph
  readonly words: ReadonlyArray<Word>
  /** Sentence spans (character offsets) in paragraph order. */
  readonly sentences: ReadonlyArray<{ readonly start: number; readonly end: number }>
}

export interface Occurrence {
  readonly p: number
  readonly w: number
}

export interface TextIndex {
  readonly paragraphs: ReadonlyArray<IndexedParagraph>
  /** stem → occurrences in document order. */
  readonly byStem: ReadonlyMap<string, ReadonlyArray<Occurrence>>
}

const WORD = /[A-Za-z0-9\u00C0-\u024F]+(?:['\u2019][A-Za-z]+)?/g

/** Words after which a period does not end a sentence. */
const ABBREVIATIONS = new Set(["fig", "figs", "e.g", "i.e", "eg", "ie", "no", "nos", "etc", "ref", "approx", "ser", "vs", "al", "u.s", "pat", "publ", "pub", "appl", "app", "mr", "dr", "ca", "cf", "viz", "resp", "esp", "incl", "deg", "min", "max", "sec", "vol", "pp", "ch", "col", "eq", "eqs", "wt", "st", "co", "corp", "inc", "ltd"])

/** Sentence spans: a period, "!" or "?" followed by space and a capital, digit or opening mark, unless an abbreviation. */
export const sentenceSpans = (text: string): Array<{ start: number; end: number }> => {
  const out: Array<{ start: number; end: number }> = []
  let from = 0
  for (const m of text.matchAll(/[.!?](?=["'\u201D\u2019)]?\s+["'\u201C\u2018(]?[A-Z0-9])/g)) {
    const before = /([A-Za-z.]+)$/.exec(text.slice(Math.max(0, m.index - 8), m.index))
    const word = before ? before[1].toLowerCase().replace(/^\.+/, "") : ""
    if (ABBREVIATIONS.has(word) || /^[a-z]$/i.test(word)) continue
    out.push({ start: from, end: m.index + 1 })
    from = m.index + 1
    while (from < text.length && /\s/.test(text[from])) from++
  }
  if (from < text.length) out.push({ start: from, end: text.length })
  return out
}

/**
 * Shape and form adjectives and the nouns they come from share a stem here ("a triangular shape"
 * is supported by "a triangle shape"); Porter stems keep them apart ("triangular" / "triangl").
 */
const DERIVED_FROM: ReadonlyMap<string, string> = new Map(
  Object.entries({
    triangular: "triangle", rectangular: "rectangle", circular: "circle", semicircular: "semicircle",
    cylindrical: "cylinder", spherical: "sphere", hemispherical: "hemisphere", conical: "cone",
    tubular: "tube", elliptical: "ellipse", elliptic: "ellipse", helical: "helix", hexagonal: "hexagon",
    octagonal: "octagon", polygonal: "polygon", pentagonal: "pentagon", angular: "angle", spiral: "spiral",
    annular: "annulus", parabolic: "parabola", wedged: "wedge", stepped: "step"
  })
)

/** The stem a word is matched by: Porter's, after mapping a derived adjective to its noun. */
export const stemOfLemma = (lemma: string): string => stem(DERIVED_FROM.get(lemma) ?? lemma)

export const lemmaOf = (l: string): string => singular(l.endsWith("'s") || l.endsWith("\u2019s") ? l.slice(0, -2) : l)

export const indexParagraph = (para: SpecParagraph): IndexedParagraph => {
  const text = para.text
  const sentences = sentenceSpans(text)
  const words: Word[] = []
  let s = 0
  for (const m of text.matchAll(WORD)) {
    while (s + 1 < sentences.length && m.index >= sentences[s].end) s++
    const l = m[0].toLowerCase().replace(/\u2019/g, "'")
    const lemma = lemmaOf(l)
    words.push({ l, lemma, stem: stemOfLemma(lemma), start: m.index, end: m.index + m[0].length, sentence: s })
  }
  return { para, words, sentences }
}

export const buildTextIndex = (paragraphs: ReadonlyArray<SpecParagraph>): TextIndex => {
  const indexed = paragraphs.map(indexParagraph)
  const byStem = new Map<string, Occurrence[]>()
  indexed.forEach((ip, p) =>
    ip.words.forEach((w, i) => {
      let list = byStem.get(w.stem)
      if (!list) byStem.set(w.stem, (list = []))
      list.push({ p, w: i })
    })
  )
  return { paragraphs: indexed, byStem }
}
