/**
 * Noun-phrase chunker for claim text. Finds every phrase opened by an indefinite form ("a",
 * "one or more", "a plurality of" → an introduction), a definite form ("the", "said", "each of the"
 * → a reference) or no determiner at all (a bare phrase: "receiving data"). Without a tagger some
 * words are either a verb or part of the phrase ("the lever pivots", "a light emitting diode"):
 * the phrase keeps them and records a possible cut, and the checker tries the readings in order.
 */
import {
  AFTER_HEAD_BOUNDARY, BASE_VERBS, BOUNDARY, COLLECTIVES, COORDINABLE, ED_NOT_VERB, ING_NOUNS, IRREGULAR_PARTICIPLES,
  LEADING_ADVERB, LY_NOT_ADVERB, NUMBER_WORDS, ORDINALS, VERB_S
} from "./lexicon.ts"
import { isPlural, singular } from "./lemma.ts"
import type { Token } from "./tokens.ts"

export type MentionKind = "intro" | "ref" | "bare" | "each"
export type GrammaticalNumber = "sg" | "pl" | "any"
export type Region = "skip" | "preamble" | "body"

/** One reading of a phrase: its words up to a cut, as a matching key. */
export interface Reading {
  readonly key: string
  readonly head: string
  /** Content words (singular head) used for the "same words appear earlier" test. */
  readonly words: ReadonlyArray<string>
  readonly start: number
  readonly end: number
  readonly plural: boolean
}

export interface Mention {
  readonly index: number
  readonly kind: MentionKind
  /** Normalised determiner: "a", "the", "the at least one", "each of the", "" for a bare phrase. */
  readonly det: string
  /** Number the determiner implies, when it implies one. */
  readonly detNumber?: GrammaticalNumber
  readonly detStart: number
  /** Token index of the determiner (of the first word for a bare phrase). */
  readonly detTok: number
  /** Readings in order of preference; the first is the primary one. */
  readonly readings: ReadonlyArray<Reading>
  /** Words after a possible cut, a phrase of their own under that reading ("instructions" in "memory storing instructions"). */
  readonly tails: ReadonlyArray<Reading>
  /** "first and second gears" → ["first gear", "second gear"]. */
  readonly coordinated?: ReadonlyArray<string>
  /** "set" in "a set of feet": the collective noun the phrase was reached through. */
  readonly collective?: string
  readonly another: boolean
  /** Index of the mention right after "of" ("the outer surface of the sphere"). */
  ofNext?: number
  /** Followed by "thereof", "therein" … */
  thereof: boolean
  /** Lower-case token before the determiner ("" at the start). */
  readonly prev: string
  /** Opens a claim element (after ":", ";", ",", "and", "comprising" …). */
  readonly elementStart: boolean
  /** Words after the phrase up to the next punctuation: tells re-introductions apart. */
  readonly qualifier: string
  /** Token after the phrase (lower case), "" at the end. */
  readonly next: string
  /**
   * For an introduction: the key of the element it is recited as a part of ("an inflatable member
   * having a proximal end, a distal end" → "inflatable member" for both ends).
   */
  readonly owner?: string
  /**
   * The element whose own list the mention stands in: "c) a second ceramic substrate comprising: a
   * body …, a lower side …; a plurality of pads bonded to the upper side of the body" → "second
   * ceramic substrate" for each of them, until the next labelled item ("d)").
   */
  readonly scope?: string
  readonly region: Region
  /**
   * An introduction among alternatives: after or before "or", or in a Markush group ("selected
   * from the group consisting of A, B and C"): a member that may be chosen, not a further element.
   */
  readonly alternative: boolean
  /** After "is", "are", "being" …: the phrase says what a thing is ("wherein the agent is an antimetabolite"). */
  readonly predicative: boolean
  readonly tokStart: number
  readonly tokEnd: number
}

const ARTICLE_LIKE = new Set(["the", "a", "an", "said", "its", "their", "each", "this", "these", "those", "it", "them", "that", "his", "her", "our", "every", "any", "such"])
const ELEMENT_OPENERS = new Set([":", ";", ",", "and", "or", "and/or", "comprising", "including", "having", "comprises", "includes", "has", "further", "containing", "contains"])
const ABLE_NOUNS = new Set(["table", "cable", "variable", "vegetable", "turntable", "timetable", "syllable", "consumable", "deliverable", "wearable", "receivable", "collectible", "stable", "constable", "portable", "disposable", "rechargeable"])

/** "a member having a distal end", "a valve with a seat": what follows is a part of that member. */
const POSSESSION = new Set(["having", "has", "have", "with"])

const INCLUDING = new Set(["including", "includes", "comprising", "comprises", "containing", "contains"])

/** Coordinable words that are also nouns: "the voltage source varies" may end at "source". */
const COORDINABLE_NOUNS = new Set(["source", "target", "input", "output", "inlet", "outlet", "front", "rear", "back", "top", "bottom", "inside", "outside", "start", "end", "minimum", "maximum"])

/** Past participles spelled like nouns ("a set", "a cut"): a participle only when "by" follows. */
const NOUN_PARTICIPLES = new Set(["set", "cut", "put", "fit", "split", "spread", "cast", "shut", "fed", "laid", "sold"])

/** Adjectives by their endings ("conductive", "electrical", "flexible"), never a noun on their own in a claim. */
const ADJECTIVE_ENDING = /(?:[^r]ive|ous|ical|ible|[^g]ic)$/
const ADJECTIVES = new Set(["thermal", "rigid", "resilient", "thin", "thick", "flat", "hollow", "annular", "tubular", "circular", "planar", "linear", "rectangular", "cylindrical", "transparent", "opaque", "elongate", "solid", "smooth", "rough"])
const looksAdjectival = (l: string) => ADJECTIVES.has(l) || (l.length > 4 && ADJECTIVE_ENDING.test(l) && !ADJECTIVE_NOUNS.has(l))
/** Nouns with an adjective's ending ("the adhesive contacts the skin"). */
const ADJECTIVE_NOUNS = new Set(["adhesive", "additive", "explosive", "objective", "derivative", "sedative", "preservative", "representative", "executive", "alternative", "relative", "incentive", "narrative", "initiative",
  "music", "traffic", "topic", "fabric", "plastic", "mechanic", "clinic", "arithmetic", "ceramic", "epic", "critic", "republic", "attic", "mimic", "static", "rubric", "tunic", "arsenic", "garlic", "relic", "metric", "matric"])

/** "such that", "such as": after a noun, the start of a clause or an example. */
const SUCH_CLAUSE = new Set(["that", "as"])

const THEREOF = new Set(["thereof", "therein", "thereon", "thereat", "thereto", "therefor"])
const isWord = (t: Token | undefined): t is Token => t !== undefined && t.word
/** /^\d+$/ read code unit by code unit: asked of nearly every word of every phrase. */
const isDigits = (l: string): boolean => {
  const n = l.length
  if (n === 0) return false
  for (let k = 0; k < n; k++) {
    const c = l.charCodeAt(k)
    if (c < 48 || c > 57) return false
  }
  return true
}
export const isAdverb = (l: string) => l.length > 4 && l.endsWith("ly") && !LY_NOT_ADVERB.has(l)
const isEd = (l: string) => l.length > 4 && l.endsWith("ed") && !ED_NOT_VERB.has(l) && !l.endsWith("eed")
const isIng = (l: string) => l.length > 5 && l.endsWith("ing") && !ING_NOUNS.has(l)
const isAble = (l: string) => l.length > 5 && (l.endsWith("able") || l.endsWith("ible")) && !ABLE_NOUNS.has(l)
const isThereWord = (l: string) => l.startsWith("there") && l.length > 5

/** Adjectives that end a phrase after its head ("free of", "lower than", "adjacent the") but modify one before it. */
const ATTRIBUTIVE = new Set(["free", "lower", "higher", "greater", "smaller", "larger", "different", "identical", "similar", "equal", "opposite", "adjacent",
  "upstream", "downstream", "inside", "outside", "nearest", "closest", "less", "more"])
/** Position and side words that only modify ("a remote free end", "a distal lower edge"). */
const POSITION_ADJECTIVES = new Set(["remote", "distal", "proximal", "lateral", "medial", "central", "upper", "inner", "outer", "free"])
const isModifier = (l: string): boolean => ORDINALS.has(l) || POSITION_ADJECTIVES.has(l) || ATTRIBUTIVE.has(l) || looksAdjectival(l) || isAble(l)

/** "door opening and closing drive unit": at token k an "and" between -ing words, in mid-phrase, before a further noun. */
const pairedGerund = (t: ReadonlyArray<Token>, k: number, words: ReadonlyArray<Token>): boolean => {
  const before = words[words.length - 1]?.l ?? ""
  const after = t[k + 1]
  const head = t[k + 2]
  return words.length >= 2 && before.length > 5 && before.endsWith("ing") && isWord(after) && isIng(after.l) &&
    isWord(head) && !BOUNDARY.has(head.l) && !AFTER_HEAD_BOUNDARY.has(head.l) && !ARTICLE_LIKE.has(head.l) && !isIng(head.l) && !isEd(head.l)
}

interface Cut {
  /** Word position the phrase would end before. */
  readonly at: number
  readonly preferred: boolean
}

interface Phrase {
  readonly end: number
  readonly words: ReadonlyArray<Token>
  readonly cuts: ReadonlyArray<Cut>
}

/** The cuts of a phrase without any: shared, never written to. */
const NO_CUTS: Cut[] = []

/**
 * Read a noun phrase starting at token i. After a plural determiner ("two", "a plurality of") an
 * -s word is the head, not a verb: a verb agreeing with a plural subject has no -s.
 */
const parsePhrase = (t: ReadonlyArray<Token>, i: number, pluralDet = false, coordinated = false): Phrase => {
  const words: Token[] = []
  // Most phrases have no cut: they share one empty list, and a list is made at the first cut.
  let cuts = NO_CUTS
  let k = i
  while (k < t.length && words.length < 8) {
    const tok = t[k]
    if (tok.l === "," && words.length > 0 && words.every((w) => (classes(w) & C_ORDINAL) !== 0) && isWord(t[k + 1]) && (classes(t[k + 1]) & C_BOUNDARY) === 0) {
      k++
      continue
    }
    if (!tok.word) break
    const l = tok.l
    const f = classes(tok)
    if (f & C_BOUNDARY) {
      // "a door opening and closing drive unit": two -ing words joined before a head are one modifier.
      if (!((l === "and" || l === "or") && pairedGerund(t, k, words))) break
      words.push(tok)
      k++
      continue
    }
    const n = words.length
    if (n > 0) {
      const prevTok = words[n - 1]
      const pf = classes(prevTok)
      const nextTok: Token | undefined = t[k + 1]
      // A word token's text is never empty: "no next word" is what next === "" said.
      const hasNext = isWord(nextTok)
      const nf = hasNext ? classes(nextTok) : 0
      const plainNext = hasNext && (nf & (C_BOUNDARY | C_AFTER_HEAD | C_ADVERB | C_DIGITS | C_THERE)) === 0
      // "a first lower portion", "a remote free first end", "a second upstream valve": after a modifier, an adjective that
      // can also follow a head ("free of", "lower than") still modifies the noun it stands before.
      const attributive = (f & C_ATTRIBUTIVE) !== 0 && plainNext && (pf & C_MODIFIER) !== 0
      if ((f & (C_AFTER_HEAD | C_IRREGULAR_PARTICIPLE)) !== 0 && !((f & (C_ED | C_IRREGULAR_PARTICIPLE)) !== 0 && plainNext) && !attributive) break
      if (f & (C_DIGITS | C_THERE)) break
      // "the AHB meeting an address condition", "the connector enclosure housing at least one fiber": an -ing noun before an article is the verb.
      if ((f & C_ING_NOUN) !== 0 && hasNext && (nextTok.l === "a" || nextTok.l === "an" || nextTok.l === "the" || nextTok.l === "said" || (nextTok.l === "at" && t[k + 2]?.l === "least"))) break
      if ((f & C_ABLE) !== 0 && !plainNext) break
      if ((f & C_ADVERB) !== 0 && (pf & (C_ORDINAL | C_LEADING_ADVERB | C_ADVERB)) === 0) break
      const strongVerbContext = !hasNext || (nf & (C_ARTICLE_LIKE | C_ADVERB)) !== 0
      const nextIsBoundary = hasNext && (nf & (C_BOUNDARY | C_AFTER_HEAD)) !== 0
      // "the frequency set by the controller": a participle that is also a noun, told apart by its agent.
      if ((f & C_NOUN_PARTICIPLE) !== 0 && hasNext && nextTok.l === "by") break
      if (f & (C_ED | C_ING | C_IRREGULAR_PARTICIPLE)) {
        const endsClause = !hasNext && (nextTok === undefined || /[,;.:]/.test(t[k + 1].l))
        if (strongVerbContext && !((f & C_ING) !== 0 && endsClause)) break
        (cuts === NO_CUTS ? (cuts = []) : cuts).push({ at: n, preferred: nextIsBoundary })
      } else if ((f & C_BASE_VERB) !== 0 && hasNext && (nf & (C_ARTICLE_LIKE | C_ADVERB | C_BOUNDARY)) !== 0) {
        // "an ohmic contact wherein", "a thin cover each": after an adjective the word is the head noun.
        if ((pf & C_ADJECTIVAL) === 0) break
        (cuts === NO_CUTS ? (cuts = []) : cuts).push({ at: n, preferred: false })
      } else if (pluralDet && tok.plural && !words.some((w) => w.plural)) {
        // The plural head itself ("two angled front faces downwardly extending").
      } else if (((f & C_VERB_S) !== 0 || tok.plural) && (pf & C_ADJECTIVAL) !== 0) {
        // "the conductive contacts on …", "optical apertures each …": after an adjective the -s word is the head.
        if (f & C_VERB_S) (cuts === NO_CUTS ? (cuts = []) : cuts).push({ at: n, preferred: false })
        // A plural rarely modifies a further noun: "the conductive pads second ceramic …" (a word lost) ends at "pads".
        if (tok.plural && hasNext && !nextIsBoundary) (cuts === NO_CUTS ? (cuts = []) : cuts).push({ at: n + 1, preferred: true })
      } else if ((f & C_VERB_S) !== 0 || tok.plural) {
        // "of said ring oscillating units such that …": "such that" opens a clause, it is no object of a verb.
        if (hasNext && (nf & (C_ARTICLE_LIKE | C_ADVERB)) !== 0 && !(nextTok.l === "such" && (f & C_VERB_S) === 0 && SUCH_CLAUSE.has(t[k + 2]?.l ?? ""))) break
        if ((f & C_VERB_S) !== 0 && hasNext) break
        if (!prevTok.plural && (pf & C_ORDINAL) === 0 && ((pf & C_COORDINABLE_SET) === 0 || (pf & C_COORDINABLE_NOUN) !== 0) && (pf & (C_DIGITS | C_ED | C_ING)) === 0) {
          // A plural in mid-phrase followed by more words is more likely a verb ("the step occurs multiple times").
          (cuts === NO_CUTS ? (cuts = []) : cuts).push({ at: n, preferred: (f & C_VERB_S) !== 0 || (hasNext && !nextIsBoundary) })
        }
      } else if (prevTok.plural && hasNext && ((nf & (C_ARTICLE_LIKE | C_ADVERB)) !== 0 || ((nf & C_BOUNDARY) !== 0 && (nf & C_ARTICLE_LIKE) === 0))) {
        // Plural subject + base verb: "the balls reach an …", "the arms slide along …".
        break
      } else if (prevTok.plural && !hasNext && (nextTok === undefined || /^[,;.:]$/.test(t[k + 1].l))) {
        // … and at the end of a clause: "wherein the levers rotate." (a plural modifier closing a noun phrase is rare).
        break
      } else if (coordinated && hasNext && (nextTok.l === "a" || nextTok.l === "an" || nextTok.l === "the" || nextTok.l === "said")) {
        // "said first and second DAS cable share an OTDR": coordinated modifiers make the subject plural, so the word
        // between its noun and an article is the verb, as after a plural noun ("the balls reach an …").
        break
      }
    }
    words.push(tok)
    k++
    if (l.endsWith("'s")) break
  }
  return { end: k, words, cuts }
}

/** A word's key words and whether it is a leading adverb, worked out once per word (kept on its info). */
const keyPartsOf = (w: Token): ReadonlyArray<string> => {
  const info = w.info
  let parts = info.keyParts
  if (parts === undefined) {
    const l = w.l.endsWith("'s") ? w.l.slice(0, -2) : w.l
    info.leadSkip = LEADING_ADVERB.has(l) || isAdverb(l)
    if (l.indexOf("-") < 0) parts = [l]
    else {
      const split: string[] = []
      for (const part of l.split("-")) if (part) split.push(part)
      parts = split
    }
    info.keyParts = parts
  }
  return parts
}

/** Key words of words[from, to). */
const keyWords = (words: ReadonlyArray<Token>, from: number, to: number): string[] => {
  const out: string[] = []
  for (let k = from; k < to; k++) {
    const w = words[k]
    const parts = keyPartsOf(w)
    if (out.length === 0 && w.info.leadSkip) continue
    for (let j = 0; j < parts.length; j++) out.push(parts[j])
  }
  if (out.length > 0) out[out.length - 1] = singular(out[out.length - 1])
  return out
}

/** The reading of words[from, to): a phrase's cuts are read without copying its words. */
const readingIn = (words: ReadonlyArray<Token>, from: number, to: number): Reading | undefined => {
  if (to > words.length) to = words.length
  if (from >= to) return undefined
  // A cut after the "and" of "door opening and closing drive unit" ends at "opening".
  const lastL = words[to - 1].l
  if (lastL === "and" || lastL === "or") to--
  const kw = keyWords(words, from, to)
  if (kw.length === 0) return undefined
  const lastTok = words[to - 1]
  const last = lastTok.l
  return {
    // (One word is its own key: no join.)
    key: kw.length === 1 ? kw[0] : kw.join(" "),
    head: kw[kw.length - 1],
    words: kw,
    start: words[from].start,
    end: lastTok.end,
    plural: last.indexOf("-") < 0 ? lastTok.plural : isPlural(last.slice(last.lastIndexOf("-") + 1))
  }
}

/** The reading of a run of phrase words (the checker's tagger retry cuts a phrase shorter). */
export const reading = (words: ReadonlyArray<Token>): Reading | undefined => readingIn(words, 0, words.length)

/** Readings: the whole phrase and each cut, preferred cut first. */
/** Shared by every phrase without a cut (most of them): never written to. */
const NO_TAILS: Reading[] = []

const readingsOf = (p: Phrase): { readings: Reading[]; tails: Reading[] } => {
  const full = reading(p.words)
  if (p.cuts.length === 0) return { readings: full ? [full] : [], tails: NO_TAILS }
  const cutReadings: Reading[] = []
  const tails: Reading[] = []
  const cutAt: Array<Reading | undefined> = new Array(p.cuts.length)
  for (let c = p.cuts.length - 1; c >= 0; c--) {
    const r = readingIn(p.words, 0, p.cuts[c].at)
    cutAt[c] = r
    if (r) cutReadings.push(r)
    const tail = readingIn(p.words, p.cuts[c].at + 1, p.words.length)
    if (tail) tails.push(tail)
  }
  // The preferred cut's reading was read above (cutReadings holds it, in reverse order of the cuts).
  const readings: Reading[] = []
  for (let c = 0; c < p.cuts.length; c++) {
    if (!p.cuts[c].preferred) continue
    const r = cutAt[c]
    if (r) readings.push(r)
    break
  }
  if (full && !readings.some((x) => x.key === full.key && x.end === full.end)) readings.push(full)
  for (const r of cutReadings) if (!readings.some((x) => x.key === r.key && x.end === r.end)) readings.push(r)
  return { readings, tails }
}

interface Determiner {
  readonly kind: MentionKind
  readonly det: string
  readonly detNumber?: GrammaticalNumber
  readonly next: number
  readonly collective?: string
  readonly another?: boolean
}

const QUANTIFIER_AFTER_THE: ReadonlyArray<readonly [ReadonlyArray<string>, GrammaticalNumber]> = [
  [["at", "least", "one"], "any"],
  [["one", "or", "more"], "any"],
  [["two", "or", "more"], "pl"],
  [["at", "least", "two"], "pl"],
  [["plurality", "of"], "pl"],
  [["multiple"], "pl"],
  [["several"], "pl"]
]

const TRANSPARENT_AFTER_THE = new Set(["plurality", "set", "pair", "group", "series", "array", "multitude", "collection", "sequence", "stack", "bundle", "batch", "bank", "cluster", "multiplicity"])

/** Match a determiner at token i. */
const wordAt = (t: ReadonlyArray<Token>, k: number): string => {
  const x = t[k]
  return x !== undefined && x.word ? x.l : ""
}
const theLike = (x: string) => x === "the" || x === "said"

/** After "the" / "said" / "each of the": an optional quantifier ("at least one", "plurality of", "set of"). */
/** First words of the quantifiers above: after most "the"s none of them follows, and none is tried. */
const QUANTIFIER_STARTS = new Set(QUANTIFIER_AFTER_THE.map(([seq]) => seq[0]))

const afterThe = (t: ReadonlyArray<Token>, start: number, det: string, detNumber: GrammaticalNumber | undefined): Determiner => {
  if (QUANTIFIER_STARTS.has(wordAt(t, start))) for (const [seq, num] of QUANTIFIER_AFTER_THE) {
    let hit = true
    for (let j = 0; j < seq.length && hit; j++) hit = wordAt(t, start + j) === seq[j]
    if (hit && wordAt(t, start + seq.length) !== "of") {
      const label = seq[seq.length - 1] === "of" ? seq.slice(0, -1) : seq
      return { kind: "ref", det: `${det} ${label.join(" ")}`, detNumber: num, next: start + seq.length }
    }
  }
  const q = wordAt(t, start)
  const q1 = wordAt(t, start + 1)
  if (NUMBER_WORDS.has(q) && q1 !== "of" && !BOUNDARY.has(q1) && q1 !== "") return { kind: "ref", det: `${det} ${q}`, detNumber: "pl", next: start + 1 }
  // "selected from the group of A, B and C" is a Markush group: its members are alternatives, not references.
  const markush = q === "group" && (/^consist/.test(wordAt(t, start + 2)) || wordAt(t, start - 2) === "from")
  if (TRANSPARENT_AFTER_THE.has(q) && q1 === "of" && !markush) {
    return { kind: "ref", det: `${det} ${q} of`, detNumber: "pl", next: start + 2, collective: q }
  }
  return { kind: "ref", det, detNumber, next: start }
}

const DETERMINER_STARTS = new Set(["the", "said", "each", "every", "one", "any", "all", "both", "some", "either", "neither",
  "none", "several", "many", "most", "certain", "at", "a", "an", "plurality", "multiple", "numerous", "plural", "another", "more",
  ...NUMBER_WORDS.keys()])
const OF_THE_QUANTIFIERS = new Set(["each", "one", "any", "all", "both", "some", "either", "neither", "none", "two", "several", "many", "most", "certain", "every"])

/** Match a determiner at token i. */
const matchDeterminer = (t: ReadonlyArray<Token>, i: number): Determiner | undefined => {
  const x = t[i]
  if (x === undefined || !x.word || (classes(x) & C_DETERMINER_START) === 0) return undefined
  const a = x.l
  const b = wordAt(t, i + 1)
  const c = wordAt(t, i + 2)
  const d = wordAt(t, i + 3)
  const e = wordAt(t, i + 4)
  // "one of the A and the B" is as common as "one of the Bs": these take either number.
  if (b === "of" && theLike(c) && OF_THE_QUANTIFIERS.has(a)) return afterThe(t, i + 3, `${a} of the`, "any")
  if ((a === "each" || a === "every") && theLike(b)) return afterThe(t, i + 2, `${a} said`, "any")
  if (a === "any" && b === "one" && c === "of" && theLike(d)) return afterThe(t, i + 4, "any one of the", "any")
  if (a === "at" && b === "least" && (c === "one" || c === "some" || c === "two") && d === "of" && theLike(e)) return afterThe(t, i + 5, `at least ${c} of the`, "any")
  if (a === "one" && b === "or" && c === "more" && d === "of" && theLike(e)) return afterThe(t, i + 5, "one or more of the", "any")
  if (theLike(a)) return afterThe(t, i + 1, "the", undefined)
  if (a === "each" || a === "every") return { kind: "each", det: a, next: i + 1 }
  if (a === "a" || a === "an") {
    // "… of the plurality" later names the recited plurality itself.
    if (b === "plurality" && c === "of") return { kind: "intro", det: "a plurality of", detNumber: "pl", next: i + 3, collective: "plurality" }
    if (COLLECTIVES.has(b) && c === "of" && d !== "") return { kind: "intro", det: `a ${b} of`, detNumber: "pl", next: i + 3, collective: b }
    if (b === "single" || b === "further") return { kind: "intro", det: `a ${b}`, detNumber: "sg", next: i + 2, another: b === "further" }
    return { kind: "intro", det: "a", detNumber: "sg", next: i + 1 }
  }
  if (a === "at" && b === "least") {
    if (c === "one" && d !== "of") return { kind: "intro", det: "at least one", detNumber: "any", next: i + 3 }
    if ((c === "two" || NUMBER_WORDS.has(c)) && d !== "of") return { kind: "intro", det: `at least ${c}`, detNumber: "pl", next: i + 3 }
    if (c === "a" || c === "an") return { kind: "intro", det: "at least a", detNumber: "sg", next: i + 3 }
    if ((c === "several" || c === "multiple" || c === "many") && d !== "of") return { kind: "intro", det: `at least ${c}`, detNumber: "pl", next: i + 3 }
    return undefined
  }
  if (a === "one" && b === "or" && c === "more" && d !== "of") return { kind: "intro", det: "one or more", detNumber: "any", next: i + 3 }
  if (NUMBER_WORDS.has(a) && b === "or" && c === "more" && d !== "of") return { kind: "intro", det: `${a} or more`, detNumber: "pl", next: i + 3 }
  if (a === "more" && b === "than" && c === "one") return { kind: "intro", det: "more than one", detNumber: "pl", next: i + 3 }
  if (a === "plurality" && b === "of") return { kind: "intro", det: "plurality of", detNumber: "pl", next: i + 2 }
  if (a === "multiple" || a === "several" || a === "numerous" || a === "plural") return { kind: "intro", det: a, detNumber: "pl", next: i + 1 }
  if (a === "another") return { kind: "intro", det: "another", detNumber: "sg", next: i + 1, another: true }
  if (a === "one" && b !== "" && b !== "of" && b !== "or" && !BOUNDARY.has(b)) return { kind: "intro", det: "one", detNumber: "sg", next: i + 1 }
  // "two lower lands": a position word opens the phrase; "two connected" does not.
  if (NUMBER_WORDS.has(a) && b !== "" && b !== "of" && !BOUNDARY.has(b) && (!AFTER_HEAD_BOUNDARY.has(b) || COORDINABLE.has(b))) return { kind: "intro", det: a, detNumber: "pl", next: i + 1 }
  return undefined
}

const PREDICATE_VERBS = new Set(["is", "are", "was", "were", "be", "being", "been", "becomes", "become"])
const ALTERNATIVE_LEAD = new Set(["or", "and/or", "either", "nor"])
/** "selected from the group consisting of", "one of", "at least one of": a list of alternatives follows. */
const CHOICE_OPENER = /\b(?:selected|chosen)\s+from\b|\bgroup\s+(?:consisting|comprising)\s+(?:essentially\s+)?of\b|\b(?:one|any|each|either)\s+of\b/

/**
 * The words after a phrase up to the next punctuation ("within the knee joint"): they tell
 * re-introductions apart, and pick among them for a reference that repeats them.
 */
export const qualifierAt = (t: ReadonlyArray<Token>, end: number): string => {
  const after = pastReferenceSigns(t, end)
  // "a cyclic carbonate (I-1)" and "a cyclic carbonate (I-2)": a label with letters tells them apart; "(36)" does not.
  let qualifier = after > end && t.slice(end + 1, after - 1).some((x) => /[a-z]/.test(x.l)) ? t.slice(end, after).map((x) => x.l).join("") : ""
  for (let k = after, n = 0; k < t.length && n < 10; k++, n++) {
    const x = t[k]
    if (!x.word) break
    // "connected at or near its leading edge": an "or" inside the qualifier does not end it; one before a new phrase does.
    if ((x.l === "and" || x.l === "or") && (qualifier === "" || !isWord(t[k + 1]) || ARTICLE_LIKE.has(t[k + 1].l))) break
    qualifier = qualifier === "" ? x.l : `${qualifier} ${x.l}`
  }
  return qualifier
}

const CHOICE_BEFORE_OF = new Set(["one", "any", "each", "either", "consisting", "comprising", "essentially"])

/** Words a list of alternatives may hold between its opener and a member. */
const IN_LIST = new Set(["a", "an", "the", "and", "or", "and/or", "thereof", "said"])

/** Whether the introduction at token i (phrase ending at token end) is one of several alternatives. */
const isAlternative = (t: ReadonlyArray<Token>, i: number, end: number): boolean => {
  const prev = t[i - 1]?.l ?? ""
  if (ALTERNATIVE_LEAD.has(prev)) return true
  const next = t[end]?.l ?? ""
  if (next === "or" || next === "and/or" || (next === "," && t[end + 1]?.l === "or")) return true
  // Back to the list opener: a Markush group or "one of" list still running (phrases, commas and "and" only).
  for (let k = i - 1, n = 0; k >= 0 && n < 40; k--, n++) {
    const l = t[k].l
    if (l === "of" && k >= 1 && CHOICE_BEFORE_OF.has(t[k - 1].l)) {
      const two = k >= 2 ? `${t[k - 2].l} ${t[k - 1].l}` : t[k - 1].l
      if (CHOICE_OPENER.test(`${two} of`)) return true
    }
    if (l === "from" && (t[k - 1]?.l === "selected" || t[k - 1]?.l === "chosen")) return true
    if (t[k].word ? (classes(t[k]) & C_BOUNDARY) !== 0 && !IN_LIST.has(l) : l !== "," && l !== "(" && l !== ")") return false
  }
  return false
}

/** Words that may stand, coordinated, before a shared head: "open and closed positions", "heated and cooled plates". */
const coordinable = (l: string) => COORDINABLE.has(l) || looksAdjectival(l) || l === "open" || l === "closed"

/*
 * Word classes of a token's text as bits, worked out once per distinct word and kept on the token: a phrase's
 * words are asked a dozen set lookups each, some of them several times (as the word, as the next, as the previous).
 */
const C_BOUNDARY = 1
const C_AFTER_HEAD = 1 << 1
const C_IRREGULAR_PARTICIPLE = 1 << 2
const C_ADVERB = 1 << 3
const C_DIGITS = 1 << 4
const C_THERE = 1 << 5
const C_ED = 1 << 6
const C_ING = 1 << 7
const C_ABLE = 1 << 8
const C_ING_NOUN = 1 << 9
const C_ORDINAL = 1 << 10
const C_ARTICLE_LIKE = 1 << 11
const C_VERB_S = 1 << 12
const C_BASE_VERB = 1 << 13
const C_ATTRIBUTIVE = 1 << 14
const C_NOUN_PARTICIPLE = 1 << 15
const C_ADJECTIVAL = 1 << 16
const C_MODIFIER = 1 << 17
const C_COORDINABLE_SET = 1 << 18
const C_COORDINABLE_NOUN = 1 << 19
const C_LEADING_ADVERB = 1 << 20
const C_COORDINABLE = 1 << 21
const C_DETERMINER_START = 1 << 22

const classMemo = new Map<string, number>()

const computeClasses = (l: string): number =>
  (BOUNDARY.has(l) ? C_BOUNDARY : 0) | (AFTER_HEAD_BOUNDARY.has(l) ? C_AFTER_HEAD : 0) | (IRREGULAR_PARTICIPLES.has(l) ? C_IRREGULAR_PARTICIPLE : 0) |
  (isAdverb(l) ? C_ADVERB : 0) | (isDigits(l) ? C_DIGITS : 0) | (isThereWord(l) ? C_THERE : 0) | (isEd(l) ? C_ED : 0) | (isIng(l) ? C_ING : 0) |
  (isAble(l) ? C_ABLE : 0) | (ING_NOUNS.has(l) ? C_ING_NOUN : 0) | (ORDINALS.has(l) ? C_ORDINAL : 0) | (ARTICLE_LIKE.has(l) ? C_ARTICLE_LIKE : 0) |
  (VERB_S.has(l) ? C_VERB_S : 0) | (BASE_VERBS.has(l) ? C_BASE_VERB : 0) | (ATTRIBUTIVE.has(l) ? C_ATTRIBUTIVE : 0) |
  (NOUN_PARTICIPLES.has(l) ? C_NOUN_PARTICIPLE : 0) | (looksAdjectival(l) ? C_ADJECTIVAL : 0) | (isModifier(l) ? C_MODIFIER : 0) |
  (COORDINABLE.has(l) ? C_COORDINABLE_SET : 0) | (COORDINABLE_NOUNS.has(l) ? C_COORDINABLE_NOUN : 0) | (LEADING_ADVERB.has(l) ? C_LEADING_ADVERB : 0) |
  (coordinable(l) ? C_COORDINABLE : 0) | (DETERMINER_STARTS.has(l) ? C_DETERMINER_START : 0)

/** The word classes of a token's text (of any token; callers ask word tokens only where the lookups they replace did). */
const classes = (x: Token): number => {
  const info = x.info
  let c = info.classes
  if (c < 0) {
    const l = x.l
    const known = classMemo.get(l)
    if (known !== undefined) c = known
    else {
      c = computeClasses(l)
      if (classMemo.size < 200_000) classMemo.set(l, c)
    }
    info.classes = c
  }
  return c
}

/** "first and second", "upper, middle and lower": coordinated modifiers before a shared head. */
const coordination = (t: ReadonlyArray<Token>, p: number): { mods: string[]; restStart: number } | undefined => {
  if (!isWord(t[p]) || (classes(t[p]) & C_COORDINABLE) === 0) return undefined
  const mods = [t[p].l]
  let q = p + 1
  let joined = false
  while (q < t.length) {
    let r = q
    if (t[r]?.l === ",") r++
    if (isWord(t[r]) && (t[r].l === "and" || t[r].l === "or" || t[r].l === "and/or")) {
      joined = true
      r++
      // "said fourth and said fifth gas passages"
      if (isWord(t[r]) && ["the", "said", "a", "an"].includes(t[r].l) && isWord(t[r + 1]) && coordinable(t[r + 1].l)) r++
    }
    if (r === q || !isWord(t[r]) || (classes(t[r]) & C_COORDINABLE) === 0) break
    mods.push(t[r].l)
    q = r + 1
  }
  return joined && mods.length >= 2 ? { mods, restStart: q } : undefined
}

export interface ChunkRegions {
  /** Mentions before this offset are not checked (leading number, dependent preamble). */
  readonly skipUntil: number
  /** Independent claims: the preamble ends here. */
  readonly preambleEnd: number
  readonly bodyStart: number
}

/** Bare phrases cannot open with these: a verb, an adverb, a numeral. */
const bareCanStart = (t: ReadonlyArray<Token>, i: number): boolean => {
  const l = t[i].l
  const f = classes(t[i])
  if (f & (C_BOUNDARY | C_AFTER_HEAD | C_IRREGULAR_PARTICIPLE | C_VERB_S)) return false
  if (f & (C_DIGITS | C_ADVERB | C_THERE)) return false
  const next = t[i + 1]
  const nf = isWord(next) ? classes(next) : 0
  // "respectively define first and second flow paths", "divided into separate first and second compartments": a word
  // before a coordination of ordinals opens no phrase of its own; the coordination does.
  if ((nf & C_ORDINAL) !== 0 && (f & C_COORDINABLE) === 0 && coordination(t, i + 1) !== undefined) return false
  // A single letter opens a phrase only as a count or label: "N masking layers".
  if (l.length < 2 && !(isWord(next) && (nf & (C_BOUNDARY | C_AFTER_HEAD)) === 0)) return false
  if (f & (C_ING | C_ED)) {
    // "providing two plates": the gerund is a step verb and "two" opens the phrase.
    if (!isWord(next) || (nf & (C_BOUNDARY | C_AFTER_HEAD)) !== 0 || NUMBER_WORDS.has(next.l)) return false
  }
  return true
}

/**
 * Reference signs in parentheses ("the bead (36) of the piston") have no effect on the claim
 * (MPEP 608.01(m)): the phrase's next word is the one after them.
 */
export const pastReferenceSigns = (t: ReadonlyArray<Token>, k: number): number => {
  if (t[k]?.l !== "(") return k
  let j = k + 1
  for (let n = 0; j < t.length && n < 8; j++, n++) {
    const l = t[j].l
    if (l === ")") return n > 0 && /\d/.test(t[k + 1].l) ? j + 1 : k
    if (!(l === "," || (t[j].word && (/\d/.test(l) || l.length === 1)))) return k
  }
  return k
}

/**
 * The element an introduction at token i is a part of: the phrase right before "having" / "with",
 * kept through a list ("having a proximal end, a distal end, and a lumen").
 */
const ownerOf = (t: ReadonlyArray<Token>, mentions: ReadonlyArray<Mention>, i: number): string | undefined => {
  const before = mentions[mentions.length - 1]
  if (!before) return undefined
  let k = pastReferenceSigns(t, before.tokEnd)
  const between: string[] = []
  for (; k < i && between.length < 4; k++) between.push(t[k].l)
  if (k < i) return undefined
  const linker = between.join(" ")
  // "each solid state device comprising a body": a part of that device, as with "having".
  if (between.length === 1 && (POSSESSION.has(linker) || INCLUDING.has(linker))) return before.readings[0]?.key
  if (between.length === 2 && (between[0] === "each" || between[0] === "which" || between[0] === "that") && POSSESSION.has(between[1])) return before.readings[0]?.key
  // "a second deflection device disposed behind the first one and including a plurality of fins": the fins are the element's being recited.
  if (between.length === 2 && between[0] === "and" && (POSSESSION.has(between[1]) || INCLUDING.has(between[1]))) {
    for (let k = mentions.length - 1, n = 0; k >= 0 && n < 6; k--, n++) if (mentions[k].kind === "intro" && mentions[k].elementStart) return mentions[k].readings[0]?.key
  }
  if (before.kind === "intro" && before.owner !== undefined && (linker === "," || linker === "and" || linker === ", and" || linker === "or" || linker === ", or")) return before.owner
  return undefined
}

/** "the first ceramic substrate comprising:", "said first tube further comprises:": the element a colon opens a list of parts for. */
const listOwnerAt = (t: ReadonlyArray<Token>, mentions: ReadonlyArray<Mention>, colon: number): string | undefined => {
  let k = colon - 1
  if (!INCLUDING.has(t[k]?.l ?? "")) return undefined
  if (t[k - 1]?.l === "further") k--
  const last = mentions[mentions.length - 1]
  // "the method comprising the steps of: a) providing a second ceramic substrate comprising: a body …": where the
  // preamble was read up to the step's own colon, a list already opened before it still makes this one a part list.
  const inStep = last?.region === "preamble" && t.slice(0, last.detTok).some((x) => x.l === ":")
  if (!last || (last.region !== "body" && !inStep) || pastReferenceSigns(t, last.tokEnd) !== k) return undefined
  return last.readings[0]?.key
}

/** "; c)", "; and (d)", ", ii)": the label of the next item of an enumerated list. */
const isItemLabel = (t: ReadonlyArray<Token>, close: number): boolean => {
  const label = t[close - 1]
  if (!label?.word || !/^(?:[a-z]|[ivx]{1,4}|\d{1,2})$/.test(label.l)) return false
  const before = t[close - 2]?.l === "(" ? t[close - 3] : t[close - 2]
  return before !== undefined && (before.l === ";" || before.l === ":" || before.l === "and" || before.l === ",")
}

export const chunk = (t: ReadonlyArray<Token>, regions: ChunkRegions): Mention[] => {
  const mentions: Mention[] = []
  let linkOfAt = -1
  let linkOfFrom = -1
  let listOwner: string | undefined
  for (let i = 0; i < t.length; i++) {
    const tok = t[i]
    if (!tok.word) {
      if (tok.l === ":") listOwner = listOwnerAt(t, mentions, i) ?? listOwner
      else if (tok.l === ")" && listOwner !== undefined && isItemLabel(t, i)) listOwner = undefined
      continue
    }
    const det = matchDeterminer(t, i)
    let phraseStart: number
    let phrase: Phrase
    let coord: { mods: string[]; restStart: number } | undefined
    if (det) {
      if (det.next >= t.length) break
      coord = coordination(t, det.next)
      phraseStart = coord ? coord.restStart : det.next
      phrase = parsePhrase(t, phraseStart, det.kind === "intro" && det.detNumber === "pl", coord !== undefined)
      if (phrase.words.length === 0) {
        coord = undefined
        i = det.next - 1
        continue
      }
    } else {
      if (!bareCanStart(t, i)) continue
      // "having central and peripheral regions": each modifier names one of the things.
      coord = coordination(t, i)
      phraseStart = coord ? coord.restStart : i
      phrase = parsePhrase(t, phraseStart)
      if (phrase.words.length === 0) {
        coord = undefined
        continue
      }
    }
    const { readings, tails } = readingsOf(phrase)
    if (readings.length === 0) {
      i = phrase.end - 1
      continue
    }
    if (det && isDigits(phrase.words[0].l)) {
      // "within the 800 MHz band" names a measure, not an element; "the 2 mm slot" may rest on "a slot".
      if (phrase.words.length <= 2) {
        i = phrase.end - 1
        continue
      }
      const measured = readingIn(phrase.words, 2, phrase.words.length)
      if (measured) readings.push(measured)
    }
    let bareReadings = readings
    if (!det && phrase.words.length > 1 && (isIng(phrase.words[0].l) || isEd(phrase.words[0].l))) {
      // "receiving data": the gerund is a step verb, the rest is the phrase.
      const rest = readingIn(phrase.words, 1, phrase.words.length)
      if (rest) bareReadings = [rest, ...readings]
    }
    const first = coord ? t[det ? det.next : i] : det ? t[i] : phrase.words[0]
    const prevTok = t[i - 1]
    const prev = prevTok ? prevTok.l : ""
    const detStart = det ? t[i].start : phrase.words[0].start
    // Tells re-introductions apart (references work theirs out only when several recitations compete).
    const qualifier = det && det.kind === "intro" ? qualifierAt(t, phrase.end) : ""
    const after = pastReferenceSigns(t, phrase.end)
    const nextTok = t[after]
    const elementStart = prev === "" || ELEMENT_OPENERS.has(prev)
    const owner = det && det.kind === "intro" ? ownerOf(t, mentions, i) : undefined
    const nextL = nextTok ? nextTok.l : ""
    const mention: Mention = {
      index: mentions.length,
      kind: det ? det.kind : "bare",
      det: det ? det.det : "",
      detNumber: det ? det.detNumber : undefined,
      detStart,
      detTok: det ? i : phraseStart,
      readings: coord ? readings.map((r) => ({ ...r, start: first.start })) : det ? readings : bareReadings,
      alternative: det !== undefined && det.kind === "intro" && isAlternative(t, i, pastReferenceSigns(t, phrase.end)),
      predicative: PREDICATE_VERBS.has(prev) || (prev === "both" || prev === "either") && PREDICATE_VERBS.has(t[i - 2]?.l ?? ""),
      tails,
      coordinated: coord ? coord.mods.map((m) => `${m} ${readings[0].key}`) : undefined,
      collective: det ? det.collective : undefined,
      another: det !== undefined && det.another === true,
      thereof: nextL.length > 5 && nextL.startsWith("there") && THEREOF.has(nextL),
      prev,
      elementStart,
      qualifier,
      next: nextL,
      owner,
      scope: listOwner,
      region: detStart < regions.skipUntil ? "skip" : detStart < regions.preambleEnd ? "preamble" : "body",
      tokStart: phraseStart,
      tokEnd: phrase.end,
      // Set when the "of" phrase after it is read; present from the start, so every mention has one shape.
      ofNext: undefined
    }
    if (linkOfAt === i && linkOfFrom >= 0) mentions[linkOfFrom].ofNext = mention.index
    mentions.push(mention)
    if (isWord(nextTok) && nextTok.l === "of") {
      linkOfAt = after + 1
      linkOfFrom = mention.index
    }
    i = phrase.end - 1
  }
  return mentions
}
