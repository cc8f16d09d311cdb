/** Phrases without a determiner ("receiving data", "wherein air circulation unit is …"): weak bases, and a missing article. */
import type { Mention } from "./chunker.ts"
import type { ClaimScan } from "./claim-scan.ts"
import { VERB_S } from "./lexicon.ts"
import { isMass } from "./lemma.ts"

const SUBJECT_OPENERS = new Set(["wherein", "whereby", "where", "when", "while", "that", ",", ";", ":", "and", "if", "whereupon"])
const FINITE = new Set(["is", "are", "was", "were", "has", "have", "comprises", "includes", "contains", "can", "may", "will", "shall", "must", "should", "being", "does", "defines", "forms", "further"])

export const scanBarePhrase = (scan: ClaimScan, m: Mention) => {
  const r0 = m.readings[0]
  // "wherein air circulation unit is configured": a recited element referred to without its article.
  if (m.region === "body" && SUBJECT_OPENERS.has(m.prev) && (FINITE.has(m.next) || VERB_S.has(m.next)) && !isMass(r0.head) && !r0.plural) {
    const basis = scan.view.key(r0.key)?.filter((i) => i.counting && !i.weak && i.number === "sg")
    if (basis && basis.length > 0) scan.issue("missing-article", "low", scan.termOf(r0), r0.start, r0.end)
  }
  // "in which pixels each having a predetermined width are arranged": a later "the pixel" is each of them.
  if (m.next === "each" && r0.plural) scan.distributive.add(r0.key)
  // "a floating gate formed on respective active regions … the active region": the region of each gate.
  if (r0.words.length > 1 && r0.words[0] === "respective") scan.distributive.add(r0.words.slice(1).join(" "))
  for (const r of m.readings) scan.register(m, r, { counting: false, weak: true })
  for (const t of m.tails) scan.register(m, t, { counting: false, weak: true })
  for (const k of m.coordinated ?? []) scan.register(m, r0, { counting: false, weak: true, key: k, number: "any" })
}
