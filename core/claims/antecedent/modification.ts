/**
 * "modifying the original component included in the thing": later references to the component or
 * the thing are to something a step changed (modified-reference, low).
 */
import type { Mention, Reading } from "./chunker.ts"
import type { ClaimScan } from "./claim-scan.ts"
import { restatesStep } from "./restatement.ts"

const MODIFY_VERBS = new Set(["modifying", "altering", "changing", "editing", "transforming", "converting", "updating", "revising", "amending", "rewriting", "mutating"])
const MODIFY_LINKERS = new Set(["included", "contained", "in", "of", "within", "from", "on", "associated", "with", "comprised", "stored"])

/** After a reference: whether a step just changed what it names, or the thing it sits in. */
export const trackModification = (scan: ClaimScan, m: Mention, r: Reading) => {
  const tokens = scan.tokens
  const before = tokens[m.detTok - 1]
  // "wherein converting the display address …" names the parent's step again: nothing is changed anew.
  if (before && MODIFY_VERBS.has(before.l) && !restatesStep(scan, m)) {
    scan.modified.add(r.key)
    scan.pendingModifyEnd = m.tokEnd
  } else if (scan.pendingModifyEnd >= 0) {
    const between = tokens.slice(scan.pendingModifyEnd, m.detTok)
    if (between.length > 0 && between.length <= 3 && between.every((t) => MODIFY_LINKERS.has(t.l))) scan.modified.add(r.key)
    scan.pendingModifyEnd = -1
  }
}

/** Inside a parent's modifying step named again ("wherein converting the display address of the selected portion …"). */
export const inRestatedStep = (scan: ClaimScan, m: Mention): boolean => {
  const tokens = scan.tokens
  const verb = tokens[m.detTok - 1]
  if (verb && MODIFY_VERBS.has(verb.l) && restatesStep(scan, m)) {
    scan.restatedStepEnd = m.tokEnd
    return true
  }
  const between = scan.restatedStepEnd >= 0 ? tokens.slice(scan.restatedStepEnd, m.detTok) : []
  return between.length > 0 && between.length <= 3 && between.every((t) => MODIFY_LINKERS.has(t.l))
}
