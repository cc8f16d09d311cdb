/**
 * A claim can define its own term: "a fastener selected from the group consisting of …",
 * "the polymer being defined as …", or a later claim saying "wherein the fastener is a screw".
 * Such a term is bounded by the claim language itself, whatever the specification says.
 */
import { lemmaOf, stemOfLemma } from "./text-index.ts"

/** Right after the term in the claim. */
const AFTER_TERM =
  /^\s*(?:\([^)]{0,30}\)\s*)?,?\s*(?:(?:which|that)\s+(?:is|are)\s+|being\s+|is\s+|are\s+)?(selected\s+from(?:\s+the\s+group\s+consist(?:ing|s)\s+of|\s+among)?|chosen\s+from|consisting\s+(?:essentially\s+)?of|defined\s+as|defined\s+by|i\.\s?e\.|that\s+is,|namely|meaning|in\s+the\s+form\s+of|(?<=(?:being|is|are)\s+)(?:one|any(?:\s+one)?)\s+of)\b/i

/** "wherein the X is/are …" in any claim of the set: the verb and what follows must name or bound X. */
const WHEREIN_OPENERS = /\b(?:wherein|whereby|where|in which|such that)\s+(?:each\s+of\s+)?(?:the|said|each)\s+/gi
const WHEREIN_AFTER =
  /^\s*(?:\([^)]{0,30}\)\s*)?(?:(?:is|are)\s+(?:(?:a|an)\s+(?!plurality\b)|one\s+of|any\s+(?:one\s+)?of|selected\s+from|chosen\s+from|defined\s+(?:as|by)|of\s+(?:the\s+)?(?:type|group)|at\s+least\s+one\s+of|a\s+member\s+of)|(?:consists|consist)\s+(?:essentially\s+)?of)/i

const WORD = /[A-Za-z0-9\u00C0-\u024F]+/g

interface ClaimText {
  readonly number: number
  readonly text: string
}

/** Stems of the words in `text` with their offsets. */
const stemsOf = (text: string) => [...text.matchAll(WORD)].map((m) => ({ s: stemOfLemma(lemmaOf(m[0].toLowerCase())), start: m.index, end: m.index + m[0].length }))

/** The claim words that define the term, or undefined. `at` is the term's own place in its claim. */
export const claimDefinition = (
  termWords: ReadonlyArray<string>,
  own: ClaimText & { readonly start: number; readonly end: number },
  claims: ReadonlyArray<ClaimText>
): { readonly claimNumber: number; readonly cue: string } | undefined => {
  const m = AFTER_TERM.exec(own.text.slice(own.end, own.end + 120))
  if (m) return { claimNumber: own.number, cue: m[1].replace(/\s+/g, " ").toLowerCase() }
  const want = termWords.map((w) => stemOfLemma(lemmaOf(w)))
  for (const c of claims) {
    for (const o of c.text.matchAll(WHEREIN_OPENERS)) {
      const from = o.index + o[0].length
      const words = stemsOf(c.text.slice(from, from + 160))
      // The term's words, all of them, right after "wherein the".
      let k = 0
      let j = 0
      while (j < want.length && k < words.length && words[k].s === want[j]) {
        j++
        k++
      }
      if (j < want.length) continue
      const afterAt = from + words[k - 1].end
      const w = WHEREIN_AFTER.exec(c.text.slice(afterAt, afterAt + 120))
      if (w) return { claimNumber: c.number, cue: `${o[0].trim()} … ${w[0].trim()}`.replace(/\s+/g, " ").toLowerCase() }
    }
  }
  return undefined
}
