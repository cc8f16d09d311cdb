/**
 * How plausible an antecedent under other wording is, for a definite reference that resolved to
 * nothing and was not excused. high: nothing like it anywhere; medium: the words are recited in
 * another claim only, or the head noun or the element the phrase opens with is recited outside the
 * chain; low: every word is there under other wording, the chain recites something under the same
 * head noun, or the term is a part or property of something that is (a tied attribute, a part of a
 * recited body).
 * Demoting instead of suppressing keeps the finding visible: recall does not depend on this.
 */
import type { Mention, Reading } from "./chunker.ts"
import { ANATOMY, COORDINABLE, ORDINALS, PROCESS_NOUNS } from "./lexicon.ts"
import { singular, singularStem, stem } from "./lemma.ts"
import { derivedRoots, looksVerbal } from "./morphology.ts"
import { NON_RESTRICTIVE } from "./resolution.ts"
import { INHERENT_ATTRIBUTES, isTied } from "./suppression.ts"
import type { Severity } from "./types.ts"

export const SEVERITY_RANK: Record<Severity, number> = { high: 3, medium: 2, low: 1 }

export interface SeverityContext {
  readonly text: string
  /** Whether a Porter stem was said earlier in the claim or anywhere in its chain. */
  stemBefore(s: string): boolean
  /** Whether a key is recited (claim so far and chain). */
  hasKey(key: string): boolean
  /** Whether a head noun is recited in the chain or anywhere in the set. */
  hasHead(head: string): boolean
  /** Whether the claim or its chain recites something under the reading's head noun, none of it the reading's own words less modifiers. */
  chainRecitesOtherwise(r: Reading): boolean
  /** Whether a key is recited (not only referred to) anywhere in the set. */
  setHasKey(key: string): boolean
}

/** "which is the HMG-CoA reductase inhibitor": a predicate says what a thing is rather than pointing back. */
const PREDICATIVE = new Set(["is", "are", "was", "were", "be", "being", "becomes"])

/** "the metals to be contained in …", "the region to be treated": a description of what the thing will be. */
const TO_BE_DESCRIBED = /^\s*to\s+be\s+[a-z]+(?:ed|en)\b/

/** "the tension T", "the maximum valley depth Rv": the phrase names a quantity and gives it a symbol. */
const SYMBOL_AT_END = /\s(?:[A-Z][a-z]?\d*|[\u0370-\u03ff])$/

/** Stems that say a living body is claimed: a user, a patient, an animal, a named organ. */
const BEING_STEMS = [...ANATOMY, ...`user wearer patient person human individual mammal animal infant recipient consumer
  occupant rider pedestrian passenger`.split(/\s+/)].map((w) => stem(w))

export interface Graded {
  readonly severity: Severity
  /** The term names what a recited step produced ("the determined characteristic"): listed, marked informational. */
  readonly informational: boolean
}

/** A method of treating a condition speaks of a body without reciting it. */
const TREATING = ["treat", "treatment", "therapy", "prevent"].map((w) => stem(w))

/** "divided by the voltage divider", "selected by the user": a past participle and its agent right after the phrase pick one thing out. */
export const DEFINED_BY = /^\s*(?:\([^)]{1,12}\)\s*)?(?:[a-z]+ed|made|chosen|given|taken|set|sent|held|built|done|drawn|shown|known|written)\s+by\b/

export const severityOf = (ctx: SeverityContext, m: Mention, r: Reading): Graded => {
  if (saidBefore(ctx, r.words)) return { severity: "low", informational: verbDerived(ctx, r) }
  return { severity: plainSeverity(ctx, m, r), informational: false }
}

/**
 * "determining a characteristic … the determined characteristic", "receiving inputs … the
 * received inputs": a participle whose verb was recited earlier names that step's object or
 * result, which an examiner accepts as its basis.
 */
const verbDerived = (ctx: SeverityContext, r: Reading): boolean => {
  const raw = ctx.text.slice(r.start, r.end).toLowerCase().split(/[\s-]+/)
  return raw.slice(0, -1).some((w) => PARTICIPLE.test(w) || RESULT_WORDS.has(w))
}

const PARTICIPLE = /^[a-z]{3,}(?:ed|ing)$|^(?:made|held|built|sent|kept|found|known|shown|given|taken|drawn|grown|chosen|written|driven|set|cut|fed|led|sold|spun|sewn|bound)$/
/** "the resulting film", "the obtained mixture": the product of the step just recited. */
const RESULT_WORDS = new Set(["resulting", "resultant", "obtained", "produced", "formed", "generated", "treated", "combined"])

const plainSeverity = (ctx: SeverityContext, m: Mention, r: Reading): Severity => {
  if (isTied(m) || INHERENT_ATTRIBUTES.has(r.head)) return "low"
  // "the synovial membrane", "the pain" in a method of treating an individual: parts and states of a recited body.
  if (r.words.some((w) => ANATOMY.has(w)) && (BEING_STEMS.some((s) => ctx.stemBefore(s)) || TREATING.some((s) => ctx.stemBefore(s)))) return "low"
  // "which is the HMG-CoA reductase inhibitor …", "the transcoded stream being the output media stream": a predicate names what a thing is.
  if (PREDICATIVE.has(m.prev)) return "low"
  // "at least one of the metals to be contained in a ferroelectric film": the words after it say what it is to be.
  if (TO_BE_DESCRIBED.test(ctx.text.slice(r.end, r.end + 30))) return "low"
  // "said bulk substrate" after "a semiconductor substrate", "the camper device" after "a damper device": the chain recites the
  // thing under other wording (SPEC 2.6: low). A modifier added to what was recited ("said aluminum lever" after "a lever",
  // MPEP 2173.05(e)) narrows it without a basis and stays medium, as does wording recited only in another claim.
  if (ctx.chainRecitesOtherwise(r) && !ctx.setHasKey(r.key)) return "low"
  if (ctx.hasHead(r.head)) return "medium"
  // "the wing create aerodynamic forces": the phrase opens with a recited element and ran on into its predicate.
  if (recitedPrefix(ctx, r.words, rawWords(ctx.text, r)) || m.coordinated?.some((k) => recitedPrefix(ctx, k.split(" ")))) return "medium"
  if (r.words.length > 1 && SYMBOL_AT_END.test(ctx.text.slice(r.start, r.end))) return "medium"
  // "the stage", "the cycle" of a claimed process.
  if (r.words.length === 1 && PROCESS_NOUNS.has(r.head) && (ctx.stemBefore("method") || ctx.stemBefore("process") || ctx.stemBefore("step"))) return "medium"
  return "high"
}

/** The phrase's words as written (plural last word kept), aligned with its key words; undefined when they do not align. */
const rawWords = (text: string, r: Reading): string[] | undefined => {
  const raw = text.slice(r.start, r.end).toLowerCase().split(/[\s-]+/).filter((w) => w !== "")
  return raw.length === r.words.length ? raw : undefined
}

/**
 * Every word of the phrase was said earlier: as written, split or joined ("work piece" after
 * "workpiece"), or as the verb or adjective it derives from ("the photoelectric conversion" after
 * "photoelectrically converting"). A generic process head ("the milking procedure" after
 * "milking") needs no words of its own, unless an ordinal tells it apart ("the first stage").
 */
const saidBefore = (ctx: SeverityContext, words: ReadonlyArray<string>): boolean => {
  for (let i = 0; i < words.length; i++) {
    // "the overall attenuation" after "to attenuate …": a modifier that restricts nothing needs no basis of its own.
    if (i === 0 && words.length > 1 && NON_RESTRICTIVE.has(words[0])) continue
    const w = singular(words[i])
    if (ctx.stemBefore(singularStem(words[i]))) continue
    if (i + 1 < words.length && ctx.stemBefore(singularStem(words[i] + words[i + 1]))) {
      i++
      continue
    }
    if (i > 0 && i === words.length - 1 && PROCESS_NOUNS.has(w) && !words.some((x) => ORDINALS.has(x) || COORDINABLE.has(x))) continue
    if (derivedRoots(w).some((root) => ctx.stemBefore(root))) continue
    return false
  }
  return true
}

/**
 * Whether the phrase opens with a recited element (a proper prefix ending in a noun), or with
 * several words said earlier followed by a verb ("the reverse withstand voltage overlaps with"
 * after "a reverse withstand voltage element").
 */
const recitedPrefix = (ctx: SeverityContext, words: ReadonlyArray<string>, raw?: ReadonlyArray<string>): boolean => {
  for (let k = words.length - 1; k >= 1; k--) {
    const last = words[k - 1]
    if (ORDINALS.has(last) || COORDINABLE.has(last)) continue
    const key = k === 1 ? singular(last) : `${words.slice(0, k - 1).join(" ")} ${singular(last)}`
    if (ctx.hasKey(key)) return true
    if (raw && k >= 2 && looksVerbal(raw[k]) && saidBefore(ctx, words.slice(0, k))) return true
  }
  return false
}
