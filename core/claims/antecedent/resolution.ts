/**
 * Which recitations a reference ("the lever", "said first and second gears") rests on, and under
 * which of its readings: exact words first, then a longer recitation it shortens, then readings
 * without a modifier that restricts nothing, an acronym, the collection, a slash alternative.
 */
import type { Mention, Reading } from "./chunker.ts"
import type { ClaimScan, Resolution } from "./claim-scan.ts"
import { singular } from "./lemma.ts"
import { ED_NOT_VERB } from "./lexicon.ts"

/** Leading modifiers that say which of the recited things, or all of it, rather than name a new one. */
export const NON_RESTRICTIVE = new Set(["entire", "whole", "other", "associated", "corresponding", "respective", "resulting", "resultant", "total", "overall", "remaining", "same", "particular", "given", "specific", "individual", "complete", "full"])

export interface ResolvedReference {
  /** The reading the reference is taken in (the first one when nothing resolved). */
  readonly reading: Reading
  readonly found?: Resolution
  /** Found only past a leading participle ("the received request signal" after "a request signal"): a result of a step. */
  readonly viaParticiple?: true
}

/** "received", "determined", "sensed", "ignited", "dried": a past participle before a noun names a state the claim's steps bring about. */
const LEADING_PARTICIPLE = /^[a-z]{3,}ed$/

export const resolveReference = (scan: ClaimScan, m: Mention): ResolvedReference => {
  const r0 = m.readings[0]
  if (m.coordinated) {
    // "the first and second diffuser elements maintain …": each reading with each modifier ("first diffuser element").
    const mods = m.coordinated.map((k) => k.slice(0, k.length - r0.key.length - 1))
    for (const r of m.readings) {
      const parts = mods.map((mod) => scan.resolve({ key: `${mod} ${r.key}`, head: r.head }))
      if (parts.every((x) => x !== undefined)) return { reading: r, found: { intros: parts.flatMap((x) => x!.intros), how: "exact" } }
    }
    return { reading: r0, found: scan.resolve(r0) }
  }
  let first: ResolvedReference | undefined
  for (const r of m.readings) {
    const x = scan.resolve(r)
    if (x && x.how === "exact") return { reading: r, found: x }
    if (x && !first) first = { reading: r, found: x }
  }
  if (first) return first
  // "the entire tower", "the other regulating member", "the associated photoreceptor": the modifier restricts nothing.
  for (const r of m.readings) {
    if (r.words.length < 2 || !NON_RESTRICTIVE.has(r.words[0])) continue
    const x = scan.resolve({ key: r.words.slice(1).join(" "), head: r.head })
    if (x) return { reading: r, found: x }
  }
  // "forwarding the received location information request signal" after "upon reception of a location information request
  // signal", "the ignited fuel/air mixture": the thing the step acted on, an antecedent examiners accept through the verb.
  for (const r of m.readings) {
    if (r.words.length < 2 || !LEADING_PARTICIPLE.test(r.words[0]) || ED_NOT_VERB.has(r.words[0]) || NON_RESTRICTIVE.has(r.words[0])) continue
    const x = scan.resolve({ key: r.words.slice(1).join(" "), head: r.head })
    if (x) return { reading: r, found: x, viaParticiple: true }
  }
  // "said dome plate inner portion" after "a dome plate having an inner portion" or "an inner portion of the dome plate": the
  // part named with its owner in front.
  for (const r of m.readings) {
    const x = ownedPart(scan, r)
    if (x) return { reading: r, found: x }
  }
  // "the second electric blender motor of the at least one electric blender motor": a member of what the chain recites.
  const member = memberOfRecited(scan, m)
  if (member) return { reading: r0, found: member }
  // "the TTS model" after "a text-to-speech model": an acronym of the words it stands for.
  const acronym = acronymResolution(scan, r0)
  if (acronym) return { reading: r0, found: acronym }
  if (m.collective) {
    const x = scan.resolve({ key: m.collective, head: m.collective })
    if (x) return { reading: r0, found: x }
  }
  // "the LED die/dice", "the nut/bolt": either alternative may carry the basis.
  if (r0.key.includes("/")) {
    for (const alt of slashAlternatives(r0)) {
      const x = scan.resolve(alt)
      if (x) return { reading: r0, found: x }
    }
  }
  return { reading: r0 }
}

/** The owner as recited or shortened ("dome plate" for "an annular dome plate having an inner portion"). */
const names = (key: string | undefined, owner: string): boolean => key !== undefined && (key === owner || key.endsWith(` ${owner}`))

/** "dome plate inner portion": a recitation of "inner portion" whose owner (or "of" phrase) is the recited "dome plate". */
const ownedPart = (scan: ClaimScan, r: Reading): Resolution | undefined => {
  for (let k = 1; k < r.words.length; k++) {
    const owner = r.words.slice(0, k).join(" ")
    const parts = scan.view.key(r.words.slice(k).join(" "))
    if (!parts) continue
    const intros = parts.filter((i) => names(i.owner, owner) || names(i.ofKey, owner))
    if (intros.length > 0) return { intros, how: "exact" }
  }
  return undefined
}

/** Determiners of a recited plurality a member is named from. */
const PLURAL_REFS = new Set(["the at least one", "the plurality of", "the one or more", "said at least one", "said plurality of", "the", "said"])

/** "the second X of the at least one X", "the first electrode of the electrodes": one member of a recited plurality. */
const memberOfRecited = (scan: ClaimScan, m: Mention): Resolution | undefined => {
  if (m.ofNext === undefined || m.next !== "of") return undefined
  const of = scan.mentions[m.ofNext]
  const r0 = m.readings[0]
  if (!of || of.kind !== "ref" || !PLURAL_REFS.has(of.det) || of.readings[0]?.head !== r0.head) return undefined
  if (of.det === "the" || of.det === "said") {
    if (!of.readings[0].plural) return undefined
  }
  return scan.resolve(of.readings[0])
}

const acronymResolution = (scan: ClaimScan, r: Reading): Resolution | undefined => {
  const acronym = /^[A-Z]{2,5}\b/.exec(scan.text.slice(r.start, r.end))?.[0]
  if (!acronym || r.words.length < 2) return undefined
  const rest = ` ${r.words.slice(1).join(" ")}`
  const letters = acronym.toLowerCase()
  const intros = (scan.view.head(r.head) ?? []).filter((i) => {
    if (!i.key.endsWith(rest)) return false
    const expanded = i.key.slice(0, i.key.length - rest.length).split(" ")
    return expanded.length === letters.length && expanded.every((w, k) => w[0] === letters[k])
  })
  return intros.length > 0 ? { intros, how: "exact" } : undefined
}

/** Readings with the first "a/b" word replaced by each alternative. */
const slashAlternatives = (r: Reading): Reading[] => {
  const at = r.words.findIndex((w) => w.includes("/"))
  if (at < 0) return []
  const out: Reading[] = []
  for (const part of r.words[at].split("/")) {
    if (!part) continue
    const words = r.words.slice()
    words[at] = at === words.length - 1 ? singular(part) : part
    out.push({ ...r, words, key: words.join(" "), head: words[words.length - 1] })
  }
  return out
}
