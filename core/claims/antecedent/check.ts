/**
 * The antecedent-basis check (§112(b), MPEP 2173.05(e)): deterministic, no model, no network.
 *
 * Every claim is chunked into introductions ("a lever"), references ("the lever") and bare
 * phrases; references are resolved against what the claim recited before them plus everything
 * its dependency chain recited (never a sibling claim). What does not resolve is either excused
 * under an implicit-basis rule (reported only with includeSuppressed) or reported with a severity
 * saying how plausible an antecedent under other wording is. Each kind of mention has its module:
 * introductions.ts, bare-phrases.ts, references.ts (resolution.ts, resolved-reference.ts,
 * ambiguity.ts, unresolved.ts, modification.ts); claim-scan.ts holds a claim's state.
 */
import { type ParsedClaim, parseClaims } from "../parse.ts"
import { scanBarePhrase } from "./bare-phrases.ts"
import { chunk, type Mention } from "./chunker.ts"
import { type ClaimState, ClaimScan, type SetContext } from "./claim-scan.ts"
import { reportImproperDependencies } from "./dependency.ts"
import { scanIntroduction } from "./introductions.ts"
import { scanReference } from "./references.ts"
import { assembleResult } from "./result.ts"
import { type Token, tokenize } from "./tokens.ts"
import type { AntecedentOptions, AntecedentResult } from "./types.ts"

/** A dependent claim that opens with an indefinite article and names its parent only after its transition word. */
const OWN_PREAMBLE = /^\s*(?:a|an)\s/i
const TRANSITION = /\b(?:comprising|comprises|consisting|including|includes)\b/i

/** Check a claim set. Claims without a number take their 1-based position. */
export const checkAntecedentBasis = (
  claims: ReadonlyArray<{ readonly number?: number; readonly text: string }>,
  options: AntecedentOptions = {}
): AntecedentResult => {
  const parsed = parseClaims(claims, { elements: false })
  const byNumber = new Map<number, ParsedClaim>()
  for (const p of parsed) if (!byNumber.has(p.number)) byNumber.set(p.number, p)

  // First pass: chunk every claim.
  const chunked = new Map<number, { tokens: Token[]; mentions: Mention[] }>()
  for (const p of byNumber.values()) {
    if (p.canceled) continue
    const tokens = tokenize(p.text)
    // "A method of preparing a cleanser, detergent or … composition, comprising adding the derivative according to claim 1":
    // a claim of another category that names its parent recites what its own preamble introduces.
    const ownPreamble = p.isIndependent || (OWN_PREAMBLE.test(p.text.slice(p.contentStart)) && TRANSITION.test(p.text.slice(0, p.references[0]?.start ?? 0)))
    const skipUntil = ownPreamble ? p.contentStart : p.preamble.end
    const mentions = chunk(tokens, { skipUntil, preambleEnd: ownPreamble ? p.preamble.end : skipUntil, bodyStart: p.body.start })
    chunked.set(p.number, { tokens, mentions })
  }

  const states = new Map<number, ClaimState>()
  const set = new SetScope(byNumber, chunked, states, options)
  const inProgress = new Set<number>()

  // Second pass: each claim after the claims it depends on, its mentions in order.
  const analyse = (p: ParsedClaim): ClaimState => {
    const done = states.get(p.number)
    if (done) return done
    inProgress.add(p.number)
    const ancestors: ClaimState[] = []
    for (const n of p.dependsOn) {
      const parent = byNumber.get(n)
      if (!parent || parent.canceled || n === p.number || inProgress.has(n)) continue
      const ps = analyse(parent)
      for (const a of [ps, ...ps.ancestors]) if (!ancestors.includes(a)) ancestors.push(a)
    }
    const { tokens, mentions } = chunked.get(p.number) ?? { tokens: [], mentions: [] }
    const scan = new ClaimScan(set, p, tokens, mentions, ancestors)
    reportImproperDependencies(scan)
    for (const m of mentions) {
      if (m.region === "skip") continue
      scan.position = m.detStart
      if (m.kind === "intro") scanIntroduction(scan, m)
      else if (m.kind === "bare") scanBarePhrase(scan, m)
      else scanReference(scan, m)
    }
    const state = scan.toState()
    inProgress.delete(p.number)
    states.set(p.number, state)
    return state
  }

  for (const p of byNumber.values()) if (!p.canceled) analyse(p)
  return assembleResult(parsed, byNumber, states, options)
}

/** Questions a set answers by reading its mentions before it builds a table of what they recite. */
const ASKED_BEFORE_TABLE = 4

/** What every claim's scan may ask of the set, each part worked out on first need. */
class SetScope implements SetContext {
  readonly includeSuppressed: boolean
  /**
   * Heads and keys recited in the set. A set asks a few of them at most: the first few are answered by reading
   * its mentions until one recites them (a table of every key of a long set, two hundred claims, cost more than
   * all its questions); a set that asks more gets the table.
   */
  private setHeads: Set<string> | undefined
  private setKeys: Set<string> | undefined
  private headsAsked = 0
  private keysAsked = 0
  private readonly lowered = new Map<ClaimState, string>()

  constructor(
    readonly byNumber: ReadonlyMap<number, ParsedClaim>,
    private readonly chunked: ReadonlyMap<number, { mentions: Mention[] }>,
    readonly states: ReadonlyMap<number, ClaimState>,
    options: AntecedentOptions
  ) {
    this.includeSuppressed = options.includeSuppressed === true
  }

  /** Is the head noun recited anywhere in the set ("high" means nowhere)? */
  recitedAnywhere(head: string): boolean {
    if (this.setHeads === undefined) {
      if (++this.headsAsked <= ASKED_BEFORE_TABLE) return this.recites(head, true)
      this.setHeads = new Set<string>()
      for (const { mentions } of this.chunked.values()) {
        for (const m of mentions) {
          if (m.kind === "ref") continue
          for (const r of m.readings) this.setHeads.add(r.head)
          for (const r of m.tails) this.setHeads.add(r.head)
        }
      }
    }
    return this.setHeads.has(head)
  }

  keyRecitedAnywhere(key: string): boolean {
    if (this.setKeys === undefined) {
      if (++this.keysAsked <= ASKED_BEFORE_TABLE) return this.recites(key, false)
      this.setKeys = new Set<string>()
      for (const { mentions } of this.chunked.values()) for (const m of mentions) if (m.kind !== "ref") for (const r of m.readings) this.setKeys.add(r.key)
    }
    return this.setKeys.has(key)
  }

  /** Whether a mention other than a reference has a reading with this head (or a tail with it), or this key. */
  private recites(word: string, byHead: boolean): boolean {
    for (const { mentions } of this.chunked.values()) {
      for (const m of mentions) {
        if (m.kind === "ref") continue
        const readings = m.readings
        for (let k = 0; k < readings.length; k++) if ((byHead ? readings[k].head : readings[k].key) === word) return true
        if (byHead) {
          const tails = m.tails
          for (let k = 0; k < tails.length; k++) if (tails[k].head === word) return true
        }
      }
    }
    return false
  }

  lowerText(st: ClaimState): string {
    let t = this.lowered.get(st)
    if (t === undefined) this.lowered.set(st, (t = st.parsed.text.toLowerCase()))
    return t
  }
}
