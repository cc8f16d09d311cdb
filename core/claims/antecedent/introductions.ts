/**
 * Introductions ("a lever", "a plurality of hooks"): recorded as bases for later references, and
 * checked for double inclusion (an element of the claim or its chain recited again).
 */
import type { Mention } from "./chunker.ts"
import type { ClaimScan } from "./claim-scan.ts"
import { addsElement } from "./element-recital.ts"
import { distinctOrigins, type Intro } from "./intro-index.ts"
import { singular } from "./lemma.ts"
import type { Token } from "./tokens.ts"

const QUOTES = new Set(['"', "'", "\u201c", "\u201d", "\u2018", "\u2019"])

export const scanIntroduction = (scan: ClaimScan, m: Mention) => {
  const r0 = m.readings[0]
  const tokens = scan.tokens
  // "wherein only one server instance in a machine is active at a time": a limit on how many, not one more server instance.
  const limit = m.det === "one" && isLimit(tokens, m.detTok)
  const adds = !limit && addsElement(scan, m, r0)
  if (m.region === "body" && !m.another && m.elementStart && adds) reportDoubleInclusion(scan, m)
  // "a plurality of contacts each having …", "during each of at least several cycles": later singular references are to each of them.
  const lead = tokens[m.detTok - 1]?.l === "least" && tokens[m.detTok - 2]?.l === "at" ? m.detTok - 3 : m.detTok - 1
  if (m.next === "each" || (tokens[lead]?.l === "of" && tokens[lead - 1]?.l === "each")) scan.distributive.add(r0.key)
  // "each retention member rotates about a respective axis … said axis": one axis per member, whichever is meant.
  if (r0.words.length > 1 && r0.words[0] === "respective") scan.distributive.add(r0.words.slice(1).join(" "))
  // "for respectively transmitting a plurality of first scan signals": one signal to each line, so a later "the first scan signal" is each one's.
  if ((m.detNumber === "pl" || r0.plural) && respectivelyBefore(tokens, m.detTok)) scan.pairedRespectively.add(r0.key)
  const subject = scan.parsed.isIndependent && m.region === "preamble" && !scan.sawPreambleIntro
  if (m.region === "preamble") scan.sawPreambleIntro = true
  m.readings.forEach((r, n) => scan.register(m, r, { counting: n === 0 && adds, weak: n > 0, subject }))
  for (const t of m.tails) scan.register(m, t, { counting: false, weak: true })
  // "first and second scaffold structures": each modifier names one structure.
  for (const k of m.coordinated ?? []) scan.register(m, r0, { counting: adds, weak: false, key: k, number: r0.plural ? "any" : undefined })
  // "A proximity communication device ("PCD")": the label names the same element.
  const label = labelAfter(scan, m)
  if (label) scan.register(m, r0, { counting: false, weak: false, key: label, subject })
  if (m.collective) {
    // "a set of hooks … the set": the collection itself is one thing.
    scan.register(m, r0, { counting: false, weak: true, key: m.collective, number: "sg" })
    scan.register(m, r0, { counting: false, weak: true, key: `${m.collective} of ${r0.key}` })
  }
  if (!subject && m.region === "body" && !scan.introducedKeys.has(r0.key)) {
    scan.introducedKeys.add(r0.key)
    scan.introducedTerms.push(scan.termOf(r0))
  }
}

/** An element the claim or its chain already recited, introduced again with nothing telling the two apart. */
const reportDoubleInclusion = (scan: ClaimScan, m: Mention) => {
  const r0 = m.readings[0]
  const { view, parsed } = scan
  // "a second switch having a control terminal" after "a first switch having a control terminal": parts of different things.
  // Parts of an element recited more than once ("a body having a coefficient …" for each of several bodies) belong to different things.
  const ownerRecitedTwice = m.owner !== undefined && distinctOrigins((view.key(m.owner) ?? []).filter((i) => i.counting)).length > 1
  // Items of the lists of parts of two different elements are parts of different things.
  const listedIn = m.elementStart ? m.scope : undefined
  // "a plurality of datapoints, each datapoint comprising: …; an intent": parts of each member, one per member.
  const whole = m.owner ?? listedIn
  if (whole !== undefined && scan.distributive.has(whole)) return
  const recited = view.key(r0.key) ?? []
  const same = recited.filter((i) => i.counting && !i.preamble && !i.weak && i.elementStart && sameThing(m, listedIn, ownerRecitedTwice, i))
  const own = same.filter((i) => i.claim === scan.number)
  const inherited = parsed.isIndependent ? [] : same.filter((i) => i.claim !== scan.number)
  const inheritedAny = parsed.isIndependent ? [] : recited.filter((i) => i.counting && !i.preamble && !i.weak && i.claim !== scan.number && sameThing(m, listedIn, ownerRecitedTwice, i))
  if (unqualified(m, own) || unqualified(m, inherited) || (inheritedAny.length > 0 && m.qualifier === "")) {
    scan.ambiguityReported.add(r0.key)
    scan.issue("double-inclusion", "medium", scan.termOf(r0), r0.start, r0.end)
  }
}

/** "only one", "at most one", "no more than one": the words before "one" bound a number instead of reciting a thing. */
const isLimit = (tokens: ReadonlyArray<Token>, detTok: number): boolean => {
  const prev = tokens[detTok - 1]?.l
  if (prev === "only") return true
  const before = tokens[detTok - 2]?.l
  return (prev === "most" && before === "at") || (prev === "than" && (before === "more" || before === "fewer"))
}

/**
 * "respectively" among the three words before a determiner, with no punctuation between: the phrase pairs its
 * members with those of another plurality ("…, respectively; two arbiters" closes another clause's list).
 */
const respectivelyBefore = (tokens: ReadonlyArray<Token>, detTok: number): boolean => {
  for (let k = detTok - 1; k >= 0 && k >= detTok - 3 && tokens[k].word; k--) if (tokens[k].l === "respectively") return true
  return false
}

/** Whether a recitation may be the same thing as the introduction: nothing says they are parts or list items of different things. */
const sameThing = (m: Mention, listedIn: string | undefined, ownerRecitedTwice: boolean, i: Intro): boolean =>
  !ownerRecitedTwice && (m.owner === undefined || i.owner === m.owner) &&
  ((m.owner ?? listedIn) === undefined || (i.owner ?? i.listedIn) === undefined || (i.owner ?? i.listedIn) === (m.owner ?? listedIn))

/** Recitations the introduction repeats with nothing after it, or with the same words after it. */
const unqualified = (m: Mention, list: Intro[]): boolean => list.length > 0 && (m.qualifier === "" || list.some((i) => i.qualifier === m.qualifier))

/** `("PCD")`, `(PCD)` right after a phrase: an abbreviation the claim goes on to use. */
const labelAfter = (scan: ClaimScan, m: Mention): string | undefined => {
  const { tokens, text } = scan
  let k = m.tokEnd
  if (tokens[k]?.l !== "(") return undefined
  k++
  if (tokens[k] && !tokens[k].word && QUOTES.has(tokens[k].l)) k++
  const word = tokens[k]
  if (!word || !word.word || !/[a-z]/i.test(word.l) || text.slice(word.start, word.end) !== text.slice(word.start, word.end).toUpperCase()) return undefined
  k++
  if (tokens[k] && !tokens[k].word && QUOTES.has(tokens[k].l)) k++
  return tokens[k]?.l === ")" ? singular(word.l) : undefined
}
