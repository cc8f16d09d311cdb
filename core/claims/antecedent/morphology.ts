/**
 * Derivational morphology for implicit basis: a claim that recites "receiving a signal" has said
 * what "the reception" is, and "comparing the values" what "the comparison" is. Porter stems join
 * inflections ("rotating" / "rotation") but not derivations whose spelling changes, so the noun is
 * mapped back to candidate roots of the verb (or adjective) it was formed from.
 */
import { BASE_VERBS, ED_NOT_VERB, ING_NOUNS, IRREGULAR_PARTICIPLES, VERB_S } from "./lexicon.ts"
import { isPlural, stem } from "./lemma.ts"

/** Noun ending → ending of the verb it nominalises, before stemming. */
const NOMINAL_SUFFIXES: ReadonlyArray<readonly [RegExp, string]> = [
  [/ception$/, "ceive"],
  [/sumption$/, "sume"],
  [/scription$/, "scribe"],
  [/sorption$/, "sorb"],
  [/version$/, "vert"],
  [/mission$/, "mit"],
  [/cision$/, "cide"],
  [/vision$/, "vide"],
  [/tension$/, "tend"],
  [/pansion$/, "pand"],
  [/pulsion$/, "pel"],
  [/lusion$/, "lude"],
  [/hesion$/, "here"],
  [/uction$/, "uce"],
  [/lysis$/, "lyze"],
  [/lysis$/, "lyse"],
  [/ison$/, "e"],
  [/ication$/, "y"],
  [/ation$/, "ate"],
  [/ion$/, ""],
  [/ment$/, ""],
  [/ance$|ence$/, ""],
  [/al$/, ""],
  [/ure$/, ""]
]

const rootsMemo = new Map<string, ReadonlyArray<string>>()

/** Stems a (singular, lower-case) noun may be derived from; empty when no derivation applies. */
export const derivedRoots = (noun: string): ReadonlyArray<string> => {
  let out = rootsMemo.get(noun)
  if (out) return out
  const roots: string[] = []
  for (const [ending, verb] of NOMINAL_SUFFIXES) {
    if (!ending.test(noun)) continue
    const base = noun.replace(ending, verb)
    const s = stem(base)
    // Short roots ("adh" of "adhesion" by the general rule) match unrelated words.
    if (s.length >= 4 && !roots.includes(s)) roots.push(s)
  }
  out = roots
  if (rootsMemo.size < 50_000) rootsMemo.set(noun, out)
  return out
}

/** A word that reads as a verb after a noun (lower case, as written): a phrase may have run into its predicate. */
export const looksVerbal = (w: string): boolean =>
  VERB_S.has(w) || BASE_VERBS.has(w) || IRREGULAR_PARTICIPLES.has(w) || isPlural(w) ||
  (w.length > 4 && w.endsWith("ed") && !ED_NOT_VERB.has(w)) || (w.length > 5 && w.endsWith("ing") && !ING_NOUNS.has(w))
