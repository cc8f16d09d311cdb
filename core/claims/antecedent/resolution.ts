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
    const parts = m.coordinated.map((k) => scan.resolve({ key: k, head: r0.head }))
    if (parts.every((x) => x !== undefined)) return { reading: r0, found: { intros: parts.flatMap((x) => x!.intros), how: "exact" } }
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
