/**
 * What the words around a found term say about how the specification supports it. Each cue is
 * read in the sentence holding the term, anchored to the term itself (a definition must define
 * *this* term, a numeral must follow *it*), and the strongest cue present decides the grade.
 */
import type { Grade, MatchKind } from "./types.ts"

export type LocationGrade = Exclude<Grade, "UNDESCRIBED" | "CLAIM_DEFINED">

export interface Cue {
  readonly grade: LocationGrade
  readonly cue?: string
}

const Q = `["'\\u201C\\u201D\\u2018\\u2019]`

/** Right after the term: "X" means …, X, as used herein, refers to …, X is defined as … */
const DEFINED_AFTER = new RegExp(
  `^${Q}?\\)?\\s*(?:\\([^)]{0,40}\\)\\s*)?,?\\s*(?:(?:as used herein|as used in this (?:specification|disclosure|application|description)|as used throughout|as used below|as used herein and in the (?:appended )?claims|in this (?:specification|disclosure|application)|herein|hereinafter|for purposes of this (?:disclosure|application|invention))\\s*,?\\s*)?` +
    `(?:(?:is|are|shall be|will be|should be|may be|can be)\\s+)?(?:(?:hereby|herein|hereinafter|generally|broadly)\\s+)?` +
    `(means(?!\\s+(?:for|of|to|by)\\b)|shall mean|is meant|are meant|defined as|defined to (?:mean|include)|(?:used|intended|understood) (?:herein )?to (?:mean|refer|denote|encompass|include|cover)|understood as|construed (?:as|to)|refers? to|denotes?)\\b`,
  "i"
)

/** Right before the term: as used herein, the term "…; the phrase "…; "…" (a quoted term opening a glossary entry). */
const DEFINED_BEFORE = new RegExp(
  `(?:(as used herein|as used in this (?:specification|disclosure|application|description)|as used throughout[^,]{0,40}|for (?:the )?purposes? of [^,]{0,40}|unless (?:otherwise )?(?:indicated|specified|stated)[^,]{0,30}),?\\s*(?:the (?:terms?|phrases?|expressions?|words?)\\s*)?|\\bthe (?:terms?|phrases?|expressions?)\\s+)${Q}?$`,
  "i"
)

/** A definitional verb somewhere after the term in its sentence (for "the term X …" openings). */
const DEFINING_VERB = /\b(?:means(?!\s+(?:for|of|to|by)\b)|refers? to|is defined|are defined|denotes?|is intended to (?:mean|refer|include|encompass)|is used to (?:mean|refer|denote)|shall mean|should be (?:understood|construed|interpreted)|is to be (?:understood|construed|interpreted)|includes? (?:any|all)|encompass(?:es)?)\b/i

/** Right after the term: an open or closed list of instances ("such as", "e.g.", "selected from", "including A, B and C"). */
const ENUM_AFTER =
  /^[\s,)\u201D"']{0,4}(?:\([^)]{0,30}\)\s*)?(?:(?:may|can|could|will|would|should)\s+(?:be|include|comprise)\s+|(?:is|are)\s+)?(?:(?:selected|chosen)\s+from(?:\s+(?:the\s+group\s+consisting\s+of|among|a\s+group))?|such\s+as(?!\s+(?:is|are|was|were|described|disclosed|shown|those|that|to)\b)|e\.\s?g\.|for\s+example(?=[\s,:]+(?:an?\s+|the\s+)?[a-z0-9-]+(?:\s*[,;]|\s+or\b|\s+and\b|\s+[a-z-]+\s*(?:,|\bor\b|\band\b)))|for\s+instance(?=[\s,:]+(?:an?\s+|the\s+)?[a-z0-9-]+(?:\s*[,;]|\s+or\b|\s+and\b))|including,?\s+(?:but\s+not\s+limited\s+to|without\s+limitation)|(?:any|either)\s+(?:one\s+)?of(?:\s+the\s+following)?|(?:including|include|includes|comprising|comprise|like)\s+(?:(?:at\s+least\s+one|one\s+or\s+more|any(?:\s+one)?|one|each|all|some|combinations?)\s+of\b|(?=(?!(?:a|an|the)\s)[\w-]+(?:\s+[\w-]+){0,2}\s*,\s*(?!(?:a|an|the)\s)[\w-]+(?:\s+[\w-]+){0,2}\s*,?\s*(?:and|or|and\/or)\s+(?!(?:a|an|the)\s)[\w-]+)))/i

/** Right before the term: "examples of X include", "various types of X, such as". */
const ENUM_BEFORE = /\b(?:examples?|instances|types|kinds|forms|varieties)\s+of\s+(?:suitable\s+|such\s+|the\s+|a\s+|an\s+)?$/i
const ENUM_BEFORE_VERB = /^\s*(?:\([^)]{0,30}\)\s*)?(?:include|includes|are|is|may include|can include|comprise|used herein include)\b/i

/** Right after the term: a reference numeral ("lever 12", "gears 14a, 14b"), not a quantity with a unit. */
const NUMERAL_AFTER = /^\s*\(?((?:\d{1,4}[a-z]?'{0,2})(?:\s*(?:,|and|or|-)\s*\d{1,4}[a-z]?'{0,2})*)\)?(?![\d.,]*\s*(?:%|°|mm\b|cm\b|nm\b|µm\b|um\b|m\b|km\b|in\b|inch|ft\b|feet|degrees?|deg\b|volts?\b|v\b|mv\b|kv\b|hz\b|khz\b|mhz\b|ghz\b|seconds?\b|sec\b|s\b|ms\b|minutes?\b|hours?\b|kg\b|g\b|mg\b|ml\b|l\b|psi\b|ohms?\b|wt\b|w\b|kw\b|a\b|ma\b|bits?\b|bytes?\b|times\b|percent|parts?\b|rpm\b|°c|k\b|x\b|mol|mm2|cm2|µl|ul\b))/i

/** Anywhere in the sentence: an embodiment or a figure. */
const EMBODIMENT_SENTENCE =
  /\b(?:in\s+(?:one|an|another|some|certain|various|other|several|many|this|these|such|alternative|further|yet another|still another|the\s+(?:illustrated|preferred|present|depicted|exemplary|first|second|third|above|foregoing|following|embodiment))\s+(?:[a-z-]+\s+)?embodiments?|(?:according\s+to|in\s+accordance\s+with)\s+(?:an?|one|the|another|some|this)\s+(?:[a-z-]+\s+)?embodiments?|(?:the|this|an|one)\s+(?:illustrated|preferred|exemplary|depicted|present|first|second|third|alternative)\s+embodiments?|FIGS?\.\s*\d+[A-Za-z]?|FIGURES?\s+\d+|Fig\.\s*\d+|embodiment\s+(?:of|shown|illustrated|depicted)|Example\s+\d+|example\s+embodiments?)/

/** Right after the term: what it does. */
const FUNCTIONAL_AFTER =
  /^[\s,)\u201D"']{0,3}(?:\d{1,4}[a-z]?\s*)?,?\s*(?:(?:which|that)\s+(?:is|are)\s+|(?:is|are|being|may be|can be|will be|should be|must be)\s+)?(?:(?:each|also|further|generally|preferably|specifically|particularly)\s+)?(?:(?:configured|adapted|operable|arranged|designed|programmed|constructed|structured|operative|effective|able|enabled|set\s+up|dimensioned|shaped|sized|positioned|disposed|provided|used|employed|intended)\s+(?:to|for)\b|capable\s+of\b|serv(?:es|e|ing)\s+(?:to|as)\b|functions?\s+(?:to|as)\b|acts?\s+(?:to|as)\b|operates?\s+to\b|for\s+(?:the\s+purpose\s+of\s+)?[a-z]+ing\b|(?:which|that)\s+(?:allows?|enables?|permits?|causes?|prevents?|controls?|generates?|provides?|produces?|converts?|transmits?|receives?|detects?|measures?|determines?|regulates?|supports?|holds?|secures?)\b)/i

const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n) : s)

/** The term opens its clause (a definition defines its subject, not the object of a preposition). */
const SUBJECT_START = /(?:^|[,:;(]\s*|\b(?:the|a|an|each|said|this|such|that|herein|here|further|also|wherein|where|term|terms|phrase|phrases|expression|expressions|word|words)\s+|["'\u201C\u2018]\s*)$/i
const PREPOSITION_BEFORE = /\b(?:of|in|on|to|for|with|from|by|at|between|than|into|onto|within|via|through|under|over|about|against|and|or)\s+(?:(?:the|a|an|said|each|such|this|any|its|their)\s+)?$/i
const OPEN_QUOTE = /["'\u201C\u2018]\s*$/
/** After a quoted or named term: the quotation closes, or a verb or comma follows at once. */
const TERM_ENDS = /^\s*(?:["'\u201D\u2019]|,|\(|(?:as|when|is|are|used|refers?|means|shall|denotes?|includes?|encompass(?:es)?|has|have|will|should|may|can|herein)\b)/i

/** Exact or lemma matches can be definitions; a stemmed or spread-out match cannot carry one. */
const DEFINABLE = new Set(["exact", "lemma"])

const definition = (text: string, sentence: { start: number; end: number }, start: number, end: number): string | undefined => {
  const before = text.slice(sentence.start, start)
  const near = before.slice(-120)
  const after = text.slice(end, sentence.end)
  if (!SUBJECT_START.test(near) || PREPOSITION_BEFORE.test(near)) return undefined
  const quoted = OPEN_QUOTE.test(near)
  if (quoted && !/^\s*["'\u201D\u2019]/.test(after)) return undefined
  const named = DEFINED_BEFORE.exec(near)
  const m = DEFINED_AFTER.exec(after)
  if (m) {
    // "drive means which …", "different means including …": a bare "means" after a noun is means-plus-function language.
    const strict = m[1].toLowerCase() === "means" && !(quoted || named || /herein|as used/i.test(m[0]) || /\b(?:as used herein|herein|hereinafter)\b/i.test(near))
    if (!strict) return m[1].toLowerCase()
  }
  if (named && TERM_ENDS.test(after) && DEFINING_VERB.test(after.slice(0, 200))) {
    return named[0].replace(/["'\u201C\u201D\u2018\u2019,]/g, "").trim().replace(/\s+/g, " ").toLowerCase()
  }
  return undefined
}

/** Grade one found occurrence from its sentence; `match` is how the term was found. */
export const gradeLocation = (
  text: string,
  sentence: { start: number; end: number },
  start: number,
  end: number,
  match: MatchKind = "exact"
): Cue => {
  // Words spread over a sentence are found, not anchored: no cue can be read off them.
  if (match === "scattered") return { grade: "DESCRIBED" }
  const after = text.slice(end, sentence.end)
  const before = text.slice(Math.max(sentence.start, start - 120), start)
  if (DEFINABLE.has(match)) {
    const d = definition(text, sentence, start, end)
    if (d !== undefined) return { grade: "FORMALLY_DEFINED", cue: d }
  }
  let m = ENUM_AFTER.exec(clip(after, 220))
  // "The settings of the device include …": a verb-led list belongs to the clause's subject, not to a prepositional object.
  if (m && /^[\s,)\u201D"']*(?:\([^)]*\)\s*)?(?:(?:may|can|could|will|would|should|is|are)\s+)?(?:include|includes|including\s|comprising|comprise|consisting|selected|chosen|like)/i.test(m[0]) && PREPOSITION_BEFORE.test(before)) m = null
  if (m) return { grade: "ENUMERATED", cue: m[0].replace(/^[\s,)\u201D"']+/, "").replace(/\s+/g, " ").trim().toLowerCase() }
  if (ENUM_BEFORE.test(before) && ENUM_BEFORE_VERB.test(after)) return { grade: "ENUMERATED", cue: /\b(\w+\s+of)\s+\S*\s*$/.exec(before)?.[1]?.toLowerCase() ?? "examples of" }
  m = NUMERAL_AFTER.exec(clip(after, 40))
  if (m && !/^\s*\d+\s*(?:to|-)\s*\d/.test(after)) return { grade: "EMBODIMENT", cue: m[1] }
  m = EMBODIMENT_SENTENCE.exec(text.slice(sentence.start, sentence.end))
  if (m) return { grade: "EMBODIMENT", cue: m[0].replace(/\s+/g, " ") }
  m = FUNCTIONAL_AFTER.exec(clip(after, 120))
  if (m) return { grade: "FUNCTIONAL", cue: m[0].replace(/^[\s,)\u201D"']*(?:\d{1,4}[a-z]?\s*)?,?\s*/, "").trim().toLowerCase() }
  return { grade: "DESCRIBED" }
}
