/**
 * The patent tokeniser: one function shared by the pipeline (encoder training, lexical index)
 * and the hub (query encoding), driven by a settings object that is saved as JSON beside every
 * model trained with it, so a model is always read with the exact rules it was trained with.
 *
 * Text → lower-case (accents folded) → words and clause breaks → drop stop words, reference
 * numerals and too-short/too-long words → Porter stems (the `stemmer` package).
 * Each kept stem remembers whether it directly follows the previous kept stem; only such
 * adjacent pairs can form bigrams, so a bigram never spans a stop word or a clause break
 * ("heat exchanger" yes, "rotor of the turbine" no).
 */
import { stemmer } from "stemmer"

export interface PatentTokenizerSettings {
  readonly lowercase: boolean
  /** Words shorter than this (after lower-casing) are dropped: "a", single-letter variables. */
  readonly minTokenLength: number
  /** Longer words are dropped: sequences, chemical strings and OCR junk carry no topic. */
  readonly maxTokenLength: number
  /** Drop reference numerals and plain numbers: "12", "14a", "2005" ("co2", "h264" stay). */
  readonly dropNumerals: boolean
  readonly stemmer: "porter"
  /** Compared against the lower-cased surface word, before stemming. */
  readonly stopWords: ReadonlyArray<string>
}

/** A kept stem; `joined` says it directly follows the previous kept stem (bigram-eligible). */
export interface PatentToken {
  readonly stem: string
  readonly joined: boolean
}

/** General English function words (the usual short list used by search engines). */
const englishStopWords = [
  "a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any",
  "are", "as", "at", "be", "because", "been", "before", "being", "below", "between", "both",
  "but", "by", "can", "could", "did", "do", "does", "doing", "down", "during", "each", "either",
  "else", "etc", "ever", "every", "few", "for", "from", "further", "had", "has", "have", "having",
  "he", "her", "here", "hers", "herself", "him", "himself", "his", "how", "however", "i", "if",
  "in", "into", "is", "it", "its", "itself", "just", "may", "me", "might", "more", "most", "must",
  "my", "myself", "neither", "no", "nor", "not", "of", "off", "on", "once", "only", "or", "other",
  "otherwise", "our", "ours", "ourselves", "out", "over", "own", "same", "shall", "she", "should",
  "so", "some", "such", "than", "that", "the", "their", "theirs", "them", "themselves", "then",
  "there", "these", "they", "this", "those", "through", "thus", "to", "too", "under", "until",
  "up", "upon", "us", "very", "was", "we", "were", "what", "when", "where", "whereas", "whether", "which",
  "while", "who", "whom", "whose", "why", "will", "with", "within", "without", "would", "yet",
  "you", "your", "yours", "yourself", "yourselves"
]

/**
 * Patent drafting boilerplate: words present in nearly every claim or abstract whatever the
 * technology. Deliberately NOT listed, because they carry meaning an examiner searches on:
 * method, system, apparatus, device, means (35 U.S.C. 112(f)), member, portion, element, unit,
 * composition, via (a via hole). Ordinals are listed because "a first member and a second
 * member" only numbers parts; "plurality" and "at least one" only count them.
 */
const patentBoilerplate = [
  "said", "wherein", "whereby", "wherefrom", "thereof", "therein", "thereon", "thereto",
  "therefrom", "therewith", "therebetween", "thereby", "thereafter", "therefor", "herein", "hereof",
  "hereto", "hereby", "hereinafter", "hereinabove", "hereinbelow", "aforementioned", "aforesaid",
  "comprising", "comprise", "comprises", "comprised", "consisting", "consist", "consists",
  "including", "include", "includes", "included", "plurality", "least", "one", "first", "second",
  "third", "fourth", "respective", "respectively", "invention", "inventive", "embodiment",
  "embodiments", "exemplary", "present", "disclosure", "disclosed", "discloses", "disclose",
  "claim", "claims", "claimed", "according", "accordance", "fig", "figs", "figure", "figures",
  "provide", "provided", "provides", "providing", "configured", "adapted", "operable",
  "substantially", "predetermined", "described", "describes", "describe", "wherewith"
]

export const defaultPatentTokenizerSettings: PatentTokenizerSettings = {
  lowercase: true,
  minTokenLength: 2,
  maxTokenLength: 40,
  dropNumerals: true,
  stemmer: "porter",
  stopWords: [...new Set([...englishStopWords, ...patentBoilerplate])].sort()
}

/**
 * Words, plus what ends a clause (a bigram never crosses it): punctuation, and the separator
 * markers placed between an abstract and its first claim ("[SEP]"), which are not words.
 */
const wordOrBreak = /\[(?:sep|cls|pad|unk|mask)\]|([\p{L}\p{N}]+)|[.,;:!?()[\]{}"]/giu
const combiningMarks = /\p{M}+/gu
const numeral = /^\d+[a-z]?$/

/** Porter stems are re-used across documents; the cache is cleared when it grows too large. */
const stemCache = new Map<string, string>()
const stem = (word: string) => {
  let s = stemCache.get(word)
  if (s === undefined) {
    if (stemCache.size > 500_000) stemCache.clear()
    s = stemmer(word)
    stemCache.set(word, s)
  }
  return s
}

const stopSets = new WeakMap<PatentTokenizerSettings, ReadonlySet<string>>()
const stopSetOf = (settings: PatentTokenizerSettings) => {
  let set = stopSets.get(settings)
  if (!set) stopSets.set(settings, (set = new Set(settings.stopWords)))
  return set
}

const foldedOf = (text: string, settings: PatentTokenizerSettings) => {
  const folded = text.normalize("NFKD").replace(combiningMarks, "")
  return settings.lowercase ? folded.toLowerCase() : folded
}

/** Whether a matched word (undefined: a clause break) is one the tokeniser keeps. */
const kept = (word: string | undefined, settings: PatentTokenizerSettings, stop: ReadonlySet<string>): word is string =>
  word !== undefined &&
  !stop.has(word) &&
  word.length >= settings.minTokenLength &&
  word.length <= settings.maxTokenLength &&
  !(settings.dropNumerals && numeral.test(word))

/** Splits patent text into stems, in order, with bigram adjacency. */
export const tokenizePatentText = (
  text: string,
  settings: PatentTokenizerSettings = defaultPatentTokenizerSettings
): PatentToken[] => {
  const stop = stopSetOf(settings)
  const tokens: PatentToken[] = []
  let joined = false
  for (const [, word] of foldedOf(text, settings).matchAll(wordOrBreak)) {
    if (!kept(word, settings, stop)) {
      joined = false
      continue
    }
    tokens.push({ stem: stem(word), joined })
    joined = true
  }
  return tokens
}

/**
 * How many words tokenizePatentText would keep, counting no further than `upTo` (no stemming):
 * what a caller needs that only asks whether a text is short.
 */
export const countPatentWords = (text: string, upTo: number, settings: PatentTokenizerSettings = defaultPatentTokenizerSettings): number => {
  const stop = stopSetOf(settings)
  const count = (part: string) => {
    let n = 0
    for (const [, word] of foldedOf(part, settings).matchAll(wordOrBreak)) if (kept(word, settings, stop) && ++n >= upTo) break
    return n
  }
  // An abstract is folded whole only when its opening (cut at a space, so no word is split) falls
  // short: folding is most of the cost, and the embed stage asks this of every application.
  const cut = text.length > 64 * upTo ? text.lastIndexOf(" ", 64 * upTo) : -1
  if (cut > 0) {
    const n = count(text.slice(0, cut))
    if (n >= upTo) return n
  }
  return count(text)
}

/** The vocabulary key of a bigram: two stems joined by a space (a space never occurs in a stem). */
export const bigramTerm = (left: string, right: string) => `${left} ${right}`

/** Unigram and bigram terms of a token sequence, in text order (bigram after its second word). */
export const termsOf = (tokens: ReadonlyArray<PatentToken>, bigrams: boolean): string[] => {
  const terms: string[] = []
  for (let i = 0; i < tokens.length; i++) {
    terms.push(tokens[i].stem)
    if (bigrams && tokens[i].joined && i > 0) terms.push(bigramTerm(tokens[i - 1].stem, tokens[i].stem))
  }
  return terms
}

/** Reads settings saved as JSON, filling anything missing from the defaults. */
export const parsePatentTokenizerSettings = (json: unknown): PatentTokenizerSettings => {
  const o = (json ?? {}) as Partial<PatentTokenizerSettings>
  const d = defaultPatentTokenizerSettings
  if (o.stemmer !== undefined && o.stemmer !== "porter") throw new Error(`unknown stemmer "${String(o.stemmer)}"`)
  return {
    lowercase: typeof o.lowercase === "boolean" ? o.lowercase : d.lowercase,
    minTokenLength: typeof o.minTokenLength === "number" ? o.minTokenLength : d.minTokenLength,
    maxTokenLength: typeof o.maxTokenLength === "number" ? o.maxTokenLength : d.maxTokenLength,
    dropNumerals: typeof o.dropNumerals === "boolean" ? o.dropNumerals : d.dropNumerals,
    stemmer: "porter",
    stopWords: Array.isArray(o.stopWords) ? o.stopWords.map(String) : d.stopWords
  }
}
