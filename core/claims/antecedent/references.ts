/** References ("the lever", "said hooks", "each of the cells", "each gear"): resolved, then checked either way. */
import type { Mention } from "./chunker.ts"
import type { ClaimScan } from "./claim-scan.ts"
import { trackModification } from "./modification.ts"
import { resolveReference } from "./resolution.ts"
import { checkResolvedReference } from "./resolved-reference.ts"
import { reportUnresolved } from "./unresolved.ts"

/** Determiners that pick a single member of a recited plurality. */
const PICK_ONE = new Set(["one of the", "any one of the", "either of the", "at least one of the"])

export const scanReference = (scan: ClaimScan, m: Mention) => {
  const { reading: r, found, viaParticiple } = resolveReference(scan, m)
  if (m.kind === "each" || m.det.startsWith("each") || m.det.startsWith("every")) scan.distributive.add(r.key)
  if (m.kind === "each") {
    // "each gear" with no gear recited: each is a recitation of its own.
    if (!found) for (const x of m.readings) scan.register(m, x, { counting: false, weak: true })
    return
  }
  // Listed at the low floor, marked informational: the basis is the recited thing, the participle says what a step did to it
  // (and which of several it was: "said received signal" is the one received).
  if (found && viaParticiple) {
    if (m.region === "body") scan.issue("no-antecedent-basis", "low", scan.termOf(r), r.start, r.end, true)
  } else if (found) checkResolvedReference(scan, m, r, found)
  else reportUnresolved(scan, m, r)
  for (const t of m.tails) scan.register(m, t, { counting: false, weak: true })
  // "one of the ridges so that a shearing of the ridge": the member picked is one thing a later "the ridge" names.
  if (PICK_ONE.has(m.det)) scan.distributive.add(r.key)
  trackModification(scan, m, r)
}
