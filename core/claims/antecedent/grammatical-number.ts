/** The grammatical number a recitation gives its element, and the one a reference asks for. */
import type { GrammaticalNumber, Mention, Reading } from "./chunker.ts"
import { isMass } from "./lemma.ts"

export const numberOfIntro = (m: Mention, r: Reading): GrammaticalNumber => {
  // "two insulating materials": a mass noun counted in the plural is a plural recitation.
  if (isMass(r.head)) return m.kind === "intro" && m.detNumber === "pl" && r.plural ? "pl" : "any"
  if (m.kind === "bare") return r.plural ? "pl" : "any"
  if (m.detNumber === "sg") return r.plural ? "any" : "sg"
  return m.detNumber ?? (r.plural ? "pl" : "sg")
}

export const numberOfReference = (m: Mention, r: Reading): GrammaticalNumber => {
  if (isMass(r.head)) return m.det === "the" && !r.plural && !m.coordinated ? "sg" : "any"
  if (m.detNumber) return m.detNumber
  if (m.coordinated) return "pl"
  return r.plural ? "pl" : "sg"
}
