/**
 * Part-of-speech tags from wink-nlp's English model, for the phrase boundaries the hand lexicon
 * cannot settle ("the light emission layer arranged close to", "the wing create aerodynamic
 * forces", "the first direction orthogonal to"). The model ships as an npm package and is read
 * from node_modules once per process, on the first call. Tagging a claim costs about a hundred
 * times the rest of the check, so the checker asks only about a reference it could not resolve,
 * and only about that phrase and the few words after it.
 */
import { createRequire } from "node:module"

type Tagger = (text: string) => ReadonlyArray<readonly [token: string, pos: string]>

let tagger: Tagger | undefined

const load = (): Tagger => {
  const require = createRequire(import.meta.url)
  const winkNLP = require("wink-nlp") as (model: unknown, pipe?: string[]) => {
    readDoc: (t: string) => { tokens: () => { out: (f?: unknown) => string[] } }
    its: { pos: unknown; value: unknown }
  }
  const nlp = winkNLP(require("wink-eng-lite-web-model"), ["pos"])
  return (text) => {
    const tokens = nlp.readDoc(text).tokens()
    const values = tokens.out(nlp.its.value)
    const tags = tokens.out(nlp.its.pos)
    return values.map((v, i) => [v, tags[i]] as const)
  }
}

/** Tags that cannot continue a noun phrase once it has a noun. */
const ENDS_PHRASE = new Set(["VERB", "AUX", "ADV", "ADP", "SCONJ", "PART", "PRON", "DET", "CCONJ"])
const NOUNISH = new Set(["NOUN", "PROPN", "NUM", "X", "SYM"])

/**
 * How many of the phrase's words the tagger reads as its noun phrase, given the words after it
 * for context; `words.length` when it sees no earlier end. The phrase keeps at least its first
 * noun: a cut is only ever after a noun.
 */
export const taggedPhraseLength = (words: ReadonlyArray<string>, after: ReadonlyArray<string>): number => {
  tagger ??= load()
  const text = [...words, ...after].join(" ")
  const tagged = tagger(text)
  // Each of our words takes the tag of the last model token inside it ("time-stamped" → "stamped").
  const tagOf: string[] = []
  let cursor = 0
  let w = 0
  let wordEnd = words[0]?.length ?? 0
  for (const [token, pos] of tagged) {
    const at = text.indexOf(token, cursor)
    if (at < 0) continue
    cursor = at + token.length
    while (w < words.length && at >= wordEnd) {
      w++
      wordEnd += 1 + (words[w]?.length ?? 0)
    }
    if (w >= words.length) break
    tagOf[w] = pos
  }
  let sawNoun = false
  for (let k = 0; k < words.length; k++) {
    const pos = tagOf[k] ?? "NOUN"
    if (sawNoun && ENDS_PHRASE.has(pos)) return k
    // "the first direction orthogonal to": an adjective after the head, before a preposition or the end.
    if (sawNoun && pos === "ADJ" && (k === words.length - 1 || tagOf[k + 1] === "ADP" || tagOf[k + 1] === "ADV")) return k
    if (NOUNISH.has(pos)) sawNoun = true
  }
  return words.length
}
