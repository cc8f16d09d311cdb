/**
 * Whether an introduction ("a X") recites a further element of the claim. Members of a list of
 * alternatives, predicates, picks from a recited plurality, objects of a purpose, counts and
 * values of what is recited, and words said again from the chain do not.
 */
import { type Mention, pastReferenceSigns, qualifierAt, type Reading } from "./chunker.ts"
import type { ClaimScan } from "./claim-scan.ts"
import { ORIGIN_SPAN } from "./intro-index.ts"
import { ARTICLES } from "./qualifiers.ts"
import { repeatsParentText, repeatsParentWording, restatesStep } from "./restatement.ts"
import type { Token } from "./tokens.ts"

/** "adapted to", "configured to": the verb after them states a function. */
const FUNCTION_WORDS = new Set(["adapted", "configured", "operable", "arranged", "designed", "capable", "able", "used", "constructed", "programmed", "intended"])

/** Verbs after which a count says how many of a recited element there are. */
const STATING_VERBS = new Set(["has", "have", "having", "contains", "containing", "comprises", "comprising", "includes", "including", "is", "are"])
/** "of about 5 to 7", "of from 35", "of at least 24": the phrase gives a value. */
const VALUE_AFTER = /^of (?:(?:about|approximately|from|at least|at most|less than|more than|greater than|between|up to|not more than|not less than) |\d)/

/** First words after "of" that VALUE_AFTER can match: the qualifier is built and matched only after one of them or a digit. */
const VALUE_FIRST = new Set(["about", "approximately", "from", "at", "less", "more", "greater", "between", "up", "not"])

/** Whether the word after the "of" at token `of` may open a value ("of about 5", "of 35"). */
const valueWordAfterOf = (tokens: ReadonlyArray<Token>, of: number): boolean => {
  const x = tokens[of + 1]
  if (x === undefined || !x.word) return false
  const c = x.l.charCodeAt(0)
  return (c >= 48 && c <= 57) || VALUE_FIRST.has(x.l)
}

export const addsElement = (scan: ClaimScan, m: Mention, r0: Reading): boolean =>
  !m.alternative && !m.predicative && !pickFromRecited(scan, m, r0) && !restatesStep(scan, m) && !specifiesRecited(scan, m, r0) &&
  !purposeObject(scan, m) && !identifiesOwner(scan, m) && !statesCountOrValue(scan, m, r0) && !repeatsParentWording(scan, m, r0) && !(scan.view.hasKey(r0.key) && repeatsParentText(scan, m))

/** "at least one superabrasive cutter of the plurality", "one of said cutters": a member of what is recited. */
const pickFromRecited = (scan: ClaimScan, m: Mention, r: Reading): boolean => {
  if (m.next !== "of" || m.ofNext === undefined) return false
  const of = scan.mentions[m.ofNext]
  const ofKey = of.readings[0]?.key
  return of.kind === "ref" && (of.collective !== undefined || ofKey === r.key || ofKey === "plurality" || of.readings[0]?.head === r.head)
}

/** "wherein the at least one cutter comprises a plurality of cutters": says what the recited element is made of. */
const specifiesRecited = (scan: ClaimScan, m: Mention, r: Reading): boolean => {
  const before = scan.mentions[m.index - 1]
  if (!before || before.kind !== "ref" || m.detTok - before.tokEnd > 2) return false
  return before.readings.some((x) => x.key === r.key) || (before.readings[0]?.head === r.head && r.plural)
}

/** Participles that attach a part to the element just named. */
const DESCRIBING = new Set(["comprising", "having", "including", "containing", "with"])

/**
 * "the layer comprising a charge transport material" after "a layer comprising a charge transport
 * material": the description that says which layer is meant, said again; it adds nothing.
 */
const identifiesOwner = (scan: ClaimScan, m: Mention): boolean => {
  const before = scan.mentions[m.index - 1]
  if (m.owner === undefined || !before || before.kind !== "ref" || !DESCRIBING.has(scan.tokens[m.detTok - 1]?.l ?? "")) return false
  return (scan.view.key(m.readings[0].key) ?? []).some((i) => i.owner === m.owner && i.counting && i.origin < scan.number * ORIGIN_SPAN + m.detStart)
}

/**
 * "adapted to mount a middle mounted implement", "a fan for supplying air to a tray": the object
 * of a function or purpose says what the element works on, it does not add one; it is still a
 * basis for "the implement".
 */
const purposeObject = (scan: ClaimScan, m: Mention): boolean => {
  const tokens = scan.tokens
  let k = m.detTok - 1
  if (k >= 0 && tokens[k].word && tokens[k].l.length > 4 && tokens[k].l.endsWith("ly")) k--
  const verb = tokens[k]
  const before = tokens[k - 1]
  if (!verb || !before || !verb.word || ARTICLES.has(verb.l)) return false
  if (before.l === "to") return FUNCTION_WORDS.has(tokens[k - 2]?.l ?? "")
  return before.l === "for" && verb.l.endsWith("ing")
}

/**
 * "wherein the package contains more than one napkin", "has at least two inflection points",
 * "has a glass transition temperature of from about 35° C.": a count or a value of what the
 * chain recites, not a further element.
 */
const statesCountOrValue = (scan: ClaimScan, m: Mention, r: Reading): boolean => {
  const tokens = scan.tokens
  // "has a glass transition temperature (Tg) of from about 35° C.": past the label.
  const labelled = tokens[m.tokEnd]?.l === "(" && tokens[m.tokEnd + 2]?.l === ")" && tokens[m.tokEnd + 3]?.l === "of"
  if ((m.next === "of" || labelled) && valueWordAfterOf(tokens, labelled ? m.tokEnd + 3 : pastReferenceSigns(tokens, m.tokEnd)) &&
    VALUE_AFTER.test(qualifierAt(tokens, labelled ? m.tokEnd + 3 : m.tokEnd))) return scan.view.hasKey(r.key)
  const counted = m.det !== "a" && m.det !== "a single" && m.det !== "a further" && m.det !== "another" && m.det !== "a plurality of"
  return counted && m.detNumber !== undefined && m.detNumber !== "sg" && STATING_VERBS.has(m.prev) && scan.view.hasKey(r.key)
}
