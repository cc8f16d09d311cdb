/**
 * A reference that rests on recitations of its chain: a basis only in the preamble (informational),
 * a plural/singular mismatch, an ambiguous pick, a reference to a thing a step changed.
 */
import type { Mention, Reading } from "./chunker.ts"
import type { ClaimScan, Resolution } from "./claim-scan.ts"
import { checkAmbiguity, EACH_AFTER } from "./ambiguity.ts"
import { numberOfReference } from "./grammatical-number.ts"
import { distinctOrigins, type Intro } from "./intro-index.ts"
import { inRestatedStep } from "./modification.ts"
import { NON_RESTRICTIVE } from "./resolution.ts"
import { VERB_S } from "./lexicon.ts"
import { isTied, USER_TERMS } from "./suppression.ts"

/** A participle, a relative clause or "having" right after a singular reference: the description picks one of several. */
const PICKED_BY = /^\s*(?:[a-z]+ed\b|(?:into|in|at|by|from|to|for) which\b|which\b|that\b|where\b|having\b|located\b|corresponding to\b)/

const PER_PREPOSITIONS = new Set(["for", "of", "in", "at", "to", "from", "on", "with", "during"])

export const checkResolvedReference = (scan: ClaimScan, m: Mention, r: Reading, found: Resolution) => {
  const intros = found.intros
  const body = keep(intros, false, true)
  if (body.length === 0 && !intros.some((i) => i.subject) && m.region === "body" && !USER_TERMS.has(r.head) && !r.words.includes("step")) {
    if (!scan.preambleReported.has(r.key)) {
      scan.preambleReported.add(r.key)
      // A preamble that gives the basis is read as limiting: worth a look, not an error (cases.json preamble_basis).
      scan.issue("preamble-only-basis", "low", scan.termOf(r), r.start, r.end, true)
    }
    return
  }
  if (m.region !== "body") return
  const firm = keep(body, true, false)
  const candidates = firm.length > 0 ? firm : body
  const refNumber = numberOfReference(m, r)
  const counting = distinctOrigins(body.filter((i) => i.counting))
  const { text, distributive } = scan
  // "the other array", "the corresponding scan line", "the following condition": one of those recited.
  const numberMatters = !m.coordinated && !r.words.includes("step") && !NON_RESTRICTIVE.has(r.words[0]) && !(m.ofNext === undefined && r.words[0] === "following")
  if (!numberMatters) {
    // Coordinations and method steps are counted loosely.
  } else if (
    refNumber === "sg" && candidates.length > 0 && candidates.every((i) => i.number === "pl") && !distributive.has(r.key) &&
    !candidates.some((i) => distributive.has(i.key)) && !intros.some((i) => i.preamble && i.number !== "pl")
  ) {
    // (A single one in the preamble, "a visitor to a webpage", is what "the webpage" names.)
    // "the end of the lanyard" after "two ends": a part of one thing is often meant, so only low.
    // "the device isolation region disposed at the source line region", "the category into which …": a description picks one; only low.
    // "for each of a plurality of time steps: … the reference phone label for the time step": one per step.
    // "for respectively transmitting a plurality of first scan signals … the first scan signal": the pairing says which one; only low.
    const picked = isTied(m) || PICKED_BY.test(text.slice(r.end, r.end + 30)) || EACH_AFTER.test(text.slice(r.end, r.end + 40)) || perMember(scan, m) ||
      candidates.some((i) => scan.pairedRespectively.has(i.key)) || modifiesPluralHead(scan, m, r)
    scan.issue("plural-singular-mismatch", picked ? "low" : "medium", scan.termOf(r), r.start, r.end)
  } else if (refNumber === "pl" && !isTied(m) && candidates.length > 0 && candidates.every((i) => i.number === "sg") && counting.length <= 1 && found.how === "exact") {
    // "said first tabs" after "a first tab … of each swirler": often distributive, so only low.
    scan.issue("plural-singular-mismatch", "low", scan.termOf(r), r.start, r.end)
  } else if (refNumber !== "pl" && !m.coordinated && !USER_TERMS.has(r.head) && !m.prev.endsWith("'s") && !text.slice(r.start, r.end).endsWith("'s")) {
    checkAmbiguity(scan, m, r, found, counting)
  }
  if (scan.modified.has(r.key) && !inRestatedStep(scan, m)) scan.issue("modified-reference", "low", scan.termOf(r), r.start, r.end)
}

/**
 * The intros that are not weak (`dropWeak`) or not in the preamble (`dropPreamble`): the list itself when it has
 * none to drop, as most have (no copy made per reference).
 */
const keep = (intros: Intro[], dropWeak: boolean, dropPreamble: boolean): Intro[] => {
  let k = 0
  while (k < intros.length && !dropped(intros[k], dropWeak, dropPreamble)) k++
  if (k === intros.length) return intros
  const out = intros.slice(0, k)
  for (k++; k < intros.length; k++) if (!dropped(intros[k], dropWeak, dropPreamble)) out.push(intros[k])
  return out
}

const dropped = (i: Intro, dropWeak: boolean, dropPreamble: boolean): boolean => (dropWeak && i.weak) || (dropPreamble && i.preamble)

/** "the reference phone label for the time step": the phrase after one preposition is one of a plurality taken each in turn. */
const perMember = (scan: ClaimScan, m: Mention): boolean => {
  const next = scan.mentions[m.index + 1]
  if (!next || next.kind !== "ref" || next.detTok !== m.tokEnd + 1 || !PER_PREPOSITIONS.has(scan.tokens[m.tokEnd]?.l ?? "")) return false
  return next.readings.some((x) => scan.distributive.has(x.key))
}

/**
 * "the web session events include …", "the elastic yarn lengths in …": the reading was cut before a plural
 * noun ending the phrase, which is its head; the singular before it is a modifier ("web session" of "web
 * sessions"), not a singular reference to the recited plurality.
 */
const modifiesPluralHead = (scan: ClaimScan, m: Mention, r: Reading): boolean => {
  const last = scan.tokens[m.tokEnd - 1]
  const cutBefore = scan.tokens[m.tokEnd - 2]
  return m.tokEnd - m.tokStart >= 2 && cutBefore !== undefined && cutBefore.end === r.end && last.word && last.plural && !VERB_S.has(last.l)
}
