/**
 * Claim terms to be mapped: the noun phrases each claim recites, from the antecedent checker's
 * chunker. A dependent claim lists only what it adds: a term its parents already recited is
 * charted under the parent. The claimed subject ("A method") and drafting words ("step", "claim")
 * are left out; they say nothing about written-description support.
 */
import { chunk, type Mention, pastReferenceSigns, type Reading } from "../antecedent/chunker.ts"
import { BASE_VERBS, IRREGULAR_PARTICIPLES, ORDINALS, VERB_S } from "../antecedent/lexicon.ts"
import { type Token, tokenize } from "../antecedent/tokens.ts"
import { type ParsedClaim, parseClaims } from "../parse.ts"

export interface ClaimTerm {
  /** Lemmatised key words joined by spaces ("locking lever"). */
  readonly key: string
  readonly words: ReadonlyArray<string>
  readonly display: string
  readonly start: number
  readonly end: number
}

export interface ClaimTerms {
  readonly claim: ParsedClaim
  readonly terms: ReadonlyArray<ClaimTerm>
}

/** Heads that name the claim's category or a drafting device, not a claimed feature. */
const GENERIC = new Set(`method process system apparatus device article composition machine product kit assembly
  step steps claim claims invention embodiment thereof same one ones plurality number set group amount manner way
  means member element unit portion part thing item use combination example case time times wherein whereby
  least most other others first second third following foregoing respect order result basis type kind form
  accordance response addition regard relation connection dependence reference provided extent`.trim().split(/\s+/))

/** Whole phrases that name a claim category ("The ornamental design for a chair"). */
const GENERIC_PHRASES = new Set(["ornamental design", "new design", "present invention"])

/** A term worth charting: at least one content word that is not generic, not a lone letter or number. */
const chartable = (r: Reading): boolean => {
  const content = r.words.filter((w) => !ORDINALS.has(w) && !/^\d/.test(w) && w.length > 1)
  if (content.length === 0) return false
  if (content.length === 1 && (GENERIC.has(content[0]) || content[0].length < 3)) return false
  if (r.words.length > 6 || GENERIC_PHRASES.has(r.key)) return false
  return true
}

/** Words after which a lone bare word is a predicate ("is done", "are dependent upon"). */
const BE = new Set(["is", "are", "be", "being", "been", "was", "were"])
const OBJECT_STARTS = new Set(["the", "a", "an", "said", "it", "its", "their", "them", "this", "these", "those"])

/**
 * A lone bare word the chunker kept that reads as a verb or a predicate, not a claimed feature:
 * right after a noun phrase ("two probes extend into", "the ring lands (8, 10) overlap"), before
 * its object ("and carry the sensors"), or after "is" when it has a participle's or an
 * adjective's ending ("is done", "is dependent upon").
 */
const looksLikeVerb = (m: Mention, previous: Mention | undefined, tokens: ReadonlyArray<Token>, text: string): boolean => {
  const r = m.readings[0]
  if (!r || r.words.length !== 1) return false
  if (OBJECT_STARTS.has(m.next)) return true
  if (previous && previous.kind !== "bare" && pastReferenceSigns(tokens, previous.tokEnd) === m.tokStart) {
    // "two probes extend", "the antenna features": a verb agreeing with the phrase before it. A split
    // phrase ("a CMOS inverter", "the male threads") leaves a noun that does not agree.
    const w = r.words[0]
    // "a telecommunications network", "a CMOS inverter": a singular determiner or an acronym is no plural subject.
    const last = tokens[previous.tokEnd - 1]
    const subjectPlural = previous.readings[0]?.plural === true && previous.detNumber !== "sg" && !(last && /^[A-Z0-9]+$/.test(text.slice(last.start, last.end)))
    if (VERB_S.has(tokens[m.tokStart].l) || BASE_VERBS.has(w) || (subjectPlural && !r.plural)) return true
  }
  return BE.has(m.prev) && (IRREGULAR_PARTICIPLES.has(r.words[0]) || r.words[0] === "done" || /(?:ed|ent|ant|ive|ous|ible|able)$/.test(r.words[0]))
}

const readingOf = (m: Mention): Reading | undefined => m.readings.find(chartable)

/** Terms of every claim, in claim order; numbers missing from the input come from the position. */
export const claimTerms = (claims: ReadonlyArray<{ readonly number?: number; readonly text: string }>): ClaimTerms[] => {
  const parsed = parseClaims(claims, { elements: false })
  const keysByClaim = new Map<number, Set<string>>()
  const byNumber = new Map(parsed.map((p) => [p.number, p]))
  const inheritedKeys = (p: ParsedClaim, seen = new Set<number>()): Set<string> => {
    const out = new Set<string>()
    for (const n of p.dependsOn) {
      if (n === p.number || seen.has(n)) continue
      seen.add(n)
      for (const k of keysByClaim.get(n) ?? []) out.add(k)
      const parent = byNumber.get(n)
      if (parent) for (const k of inheritedKeys(parent, seen)) out.add(k)
    }
    return out
  }
  return parsed.map((p) => {
    if (p.canceled) {
      keysByClaim.set(p.number, new Set())
      return { claim: p, terms: [] }
    }
    const tokens = tokenize(p.text)
    const skipUntil = p.isIndependent ? p.contentStart : p.preamble.end
    const mentions = chunk(tokens, { skipUntil, preambleEnd: p.isIndependent ? p.preamble.end : skipUntil, bodyStart: p.body.start })
    const inherited = inheritedKeys(p)
    const own = new Set<string>()
    const terms: ClaimTerm[] = []
    const add = (key: string, words: ReadonlyArray<string>, start: number, end: number) => {
      if (own.has(key) || inherited.has(key)) return
      own.add(key)
      terms.push({ key, words, display: p.text.slice(start, end), start, end })
    }
    let before: Mention | undefined
    for (const m of mentions) {
      const previous = before
      before = m
      if (m.region === "skip") continue
      // "the hub and the ring each feature a land": "each" before a verb reads like a determiner.
      if ((m.kind === "bare" || (m.kind === "each" && m.det === "each")) && looksLikeVerb(m, previous, tokens, p.text)) continue
      // "configured to illuminate": a bare word after "to" is a verb, not a term.
      if (m.kind === "bare" && (m.prev === "to" || m.prev === "not")) continue
      // A lone participle ("used", "connected") is a verb the chunker could not rule out.
      if (m.kind === "bare" && m.readings[0]?.words.length === 1 && /^[a-z]{3,}ed$/.test(m.readings[0].words[0])) continue
      const r = readingOf(m)
      if (!r) continue
      // The claimed subject of an independent claim ("A vehicle seat comprising") is charted like any term,
      // but a lone category word ("A method") was already dropped as generic.
      if (m.coordinated && m.coordinated.length > 1 && r === m.readings[0]) {
        for (const c of m.coordinated) {
          const words = c.split(" ")
          add(c, words, m.detStart, r.end)
        }
        continue
      }
      add(r.key, r.words, r.start, r.end)
    }
    keysByClaim.set(p.number, own)
    return { claim: p, terms }
  })
}
