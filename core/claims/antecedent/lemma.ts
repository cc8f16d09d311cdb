/**
 * A small lemmatiser for claim nouns: enough to match "the widgets" with "a widget" and to tell a
 * plural recitation from a singular one. Porter stems are used only for the looser "the same words
 * appear earlier" test ("the received message" after "receiving a message").
 */
import { stemmer } from "stemmer"
import { IRREGULAR_PLURALS, MASS_NOUNS, S_SINGULAR } from "./lexicon.ts"

const SINGULAR_OF_IRREGULAR = new Set(IRREGULAR_PLURALS.values())

/** What the checker asks of a word, worked out once per distinct word (claims reuse a small vocabulary). */
interface WordForms {
  readonly singular: string
  readonly plural: boolean
  /** Porter stem of the singular, filled on first use. */
  singularStem?: string
}

const forms = new Map<string, WordForms>()

const formsOf = (w: string): WordForms => {
  let f = forms.get(w)
  if (f === undefined) {
    const s = singularOf(w)
    f = { singular: s, plural: MASS_NOUNS.has(w) ? false : IRREGULAR_PLURALS.has(w) ? w !== "data" : s !== w }
    if (forms.size < 200_000) forms.set(w, f)
  }
  return f
}

/** Most words do not end in "s" and are no irregular plural: they are their own singular, looked up nowhere. */
const plainSingular = (w: string): boolean => w.charCodeAt(w.length - 1) !== 115 && !IRREGULAR_PLURALS.has(w)

/** Singular form of a (lower-case) noun; words that are not plural come back unchanged. */
export const singular = (w: string): string => (plainSingular(w) ? w : formsOf(w).singular)

const singularOf = (w: string): string => {
  const irregular = IRREGULAR_PLURALS.get(w)
  if (irregular !== undefined) return irregular
  if (w.length < 4 || !w.endsWith("s") || S_SINGULAR.has(w) || SINGULAR_OF_IRREGULAR.has(w)) return w
  if (w.endsWith("ss") || w.endsWith("us") || w.endsWith("is") || w.endsWith("ous") || w.endsWith("'s")) return w
  if (w.endsWith("ies") && w.length > 4) return w.slice(0, -3) + "y"
  if (/(?:ch|sh|sses|x)es$/.test(w) || w.endsWith("sses")) return w.slice(0, -2)
  if (w.endsWith("zzes")) return w.slice(0, -3)
  return w.slice(0, -1)
}

/** Whether a (lower-case) noun is plural in form. Mass nouns are neither. */
export const isPlural = (w: string): boolean => !plainSingular(w) && formsOf(w).plural

/** "the polyolefin" after "polyolefins": a named class of polymer is a material, counted or not. */
const POLYMER = /(?:olefin|polymer|elastomer|monomer|oligomer)s?$|^poly(?:ethylene|propylene|ester|amide|imide|urethane|carbonate|styrene|siloxane)s?$/

const massMemo = new Map<string, boolean>()

/** Memoised per word (asked of every recitation's head). */
export const isMass = (w: string): boolean => {
  let m = massMemo.get(w)
  if (m === undefined) {
    m = MASS_NOUNS.has(w) || MASS_NOUNS.has(singular(w)) || POLYMER.test(w)
    if (massMemo.size < 200_000) massMemo.set(w, m)
  }
  return m
}

const stems = new Map<string, string>()

/** Porter stem, memoised (claims reuse a small vocabulary). */
export const stem = (w: string): string => {
  let s = stems.get(w)
  if (s === undefined) {
    s = stemmer(w)
    if (stems.size < 200_000) stems.set(w, s)
  }
  return s
}

/** Porter stem of the singular form: the key of the "same words appear earlier" test. */
export const singularStem = (w: string): string => {
  const f = formsOf(w)
  return (f.singularStem ??= stem(f.singular))
}
