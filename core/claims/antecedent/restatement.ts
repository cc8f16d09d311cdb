/**
 * Words a dependent claim says again from its chain: a step named again, a thing mentioned in
 * passing in the parent's words, a clause repeated word for word. They recite nothing new.
 */
import type { Mention, Reading } from "./chunker.ts"
import type { ClaimScan } from "./claim-scan.ts"
import { ARTICLES, firstWords } from "./qualifiers.ts"

/** Gerunds that link a part to its whole rather than name a step. */
const LINKING_GERUNDS = new Set(["having", "including", "comprising", "containing", "being", "according", "consisting", "defining", "forming", "carrying"])

/** Words before a gerund that add its step to the claim. */
const ADDING = new Set(["comprising", "including", "comprises", "includes", "further", "of", "step"])

/**
 * "wherein generating a composite image comprises …" after "generating a composite image": the
 * step is named again, its object is not recited anew.
 */
export const restatesStep = (scan: ClaimScan, m: Mention): boolean => {
  const { tokens, text } = scan
  const verb = tokens[m.detTok - 1]
  // "to locate a pool having a desired goal state" named again from the parent claim.
  if (verb?.word && tokens[m.detTok - 2]?.l === "to" && !ARTICLES.has(verb.l)) {
    const said = text.slice(tokens[m.detTok - 2].start, tokens[Math.min(m.tokEnd + 2, tokens.length - 1)].end).toLowerCase()
    if (said.length > 16 && scan.saidInChain(said)) return true
  }
  if (!verb || !verb.l.endsWith("ing") || verb.l.length < 5 || LINKING_GERUNDS.has(verb.l)) return false
  // "further comprising administering a dose" adds a step, even one like the parent's.
  if (ADDING.has(tokens[m.detTok - 2]?.l ?? "")) return false
  const said = text.slice(verb.start, m.readings[0].end).toLowerCase().replace(/^(\S+) said /, "$1 the ")
  return scan.saidInChain(said)
}

/**
 * "the end of a pause in the reference signal" in claim 6 after "the ending of a pause in the
 * reference signal" in claim 5: a thing mentioned in passing, in the parent's words, is the
 * parent's. (A new element of the claim, "further comprising a fastener", is still counted.)
 */
export const repeatsParentWording = (scan: ClaimScan, m: Mention, r: Reading): boolean =>
  scan.ancestors.length > 0 && !m.elementStart && m.qualifier.includes(" ") &&
  (scan.view.key(r.key) ?? []).some((i) => i.claim !== scan.number && firstWords(i.qualifier, 3) === firstWords(m.qualifier, 3))

/**
 * "cycling through the pools to locate a pool having a desired goal state" said again, word for
 * word, from the parent: the words around an introduction repeat the parent's, so nothing new is recited.
 */
export const repeatsParentText = (scan: ClaimScan, m: Mention): boolean => {
  if (scan.ancestors.length === 0) return false
  const from = scan.tokens[Math.max(0, m.detTok - 4)].start
  const said = scan.text.slice(from, m.readings[0].end).toLowerCase()
  return said.length > 24 && scan.saidInChain(said)
}
