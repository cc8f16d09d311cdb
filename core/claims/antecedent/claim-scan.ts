/**
 * The state of one claim while its mentions are read in order: what it and its chain recited so
 * far, what it has reported, and the lookups every phase of the check shares.
 */
import type { ParsedClaim } from "../parse.ts"
import type { GrammaticalNumber, Mention, Reading } from "./chunker.ts"
import { numberOfIntro } from "./grammatical-number.ts"
import { ChainView, type Intro, IntroIndex, ofChain, ORIGIN_SPAN } from "./intro-index.ts"
import { singularStem } from "./lemma.ts"
import type { SeverityContext } from "./severity.ts"
import { normalise, snippetOf } from "./snippet.ts"
import { StemTable } from "./stem-table.ts"
import { ACTION_NOUN, isFormalClaim } from "./suppression.ts"
import type { Token } from "./tokens.ts"
import type { AntecedentIssue, IssueType, Severity, SuppressedCandidate, SuppressionRule } from "./types.ts"

/** What a claim leaves behind for the claims that depend on it, and for the result. */
export interface ClaimState {
  readonly parsed: ParsedClaim
  readonly tokens: ReadonlyArray<Token>
  readonly mentions: ReadonlyArray<Mention>
  readonly index: IntroIndex
  /** Porter stems of this claim's own words, filled on demand. */
  readonly stemTable: StemTable
  /** Every claim whose recitations this claim inherits. */
  readonly ancestors: ReadonlyArray<ClaimState>
  readonly preambleReported: Set<string>
  readonly ambiguityReported: Set<string>
  readonly distributive: Set<string>
  readonly pairedRespectively: Set<string>
  readonly modified: Set<string>
  readonly issues: AntecedentIssue[]
  readonly suppressed: SuppressedCandidate[]
  readonly introducedTerms: string[]
}

/** What the claim set offers every claim's scan. */
export interface SetContext {
  readonly byNumber: ReadonlyMap<number, ParsedClaim>
  readonly states: ReadonlyMap<number, ClaimState>
  readonly includeSuppressed: boolean
  /** Whether a head noun is recited (not only referred to) anywhere in the set. */
  recitedAnywhere(head: string): boolean
  /** Whether a key is recited anywhere in the set. */
  keyRecitedAnywhere(key: string): boolean
  /** A claim's text in lower case, made once. */
  lowerText(st: ClaimState): string
}

export interface Resolution {
  readonly intros: Intro[]
  readonly how: "exact" | "suffix"
}

export interface RegisterOptions {
  readonly counting: boolean
  readonly weak: boolean
  readonly key?: string
  readonly subject?: boolean
  readonly number?: GrammaticalNumber
}

const NOTHING_INHERITED: ReadonlySet<string> = new Set()

/** Also the severity context of its unresolved references: its lookups are methods, so a scan makes no closures. */
export class ClaimScan implements SeverityContext {
  readonly text: string
  readonly number: number
  readonly index = new IntroIndex()
  readonly stemTable: StemTable
  readonly view: ChainView
  readonly formalClaim: boolean
  readonly issues: AntecedentIssue[] = []
  readonly suppressed: SuppressedCandidate[] = []
  readonly introducedTerms: string[] = []
  readonly introducedKeys = new Set<string>()
  /** Keys quantified with "each" in this claim or its chain: "said guard" after "each guard" is one of them. */
  readonly distributive: Set<string>
  /** Keys of pluralities recited "respectively" paired with another ("for respectively transmitting a plurality of data signals"). */
  readonly pairedRespectively: Set<string>
  readonly preambleReported: Set<string>
  readonly modified: Set<string>
  /** Keys already reported as doubly recited or ambiguous up the chain: said once, where it arose. */
  readonly ambiguityReported: Set<string>
  readonly inheritedAmbiguity: ReadonlySet<string>
  /** Offset of the mention being read: the claim's own stems count up to it ("earlier" means earlier). */
  position = 0
  sawPreambleIntro = false
  /** Token end of the object of a modifying step ("modifying the original component"), while its linkers may follow. */
  pendingModifyEnd = -1
  /** Token end of a parent's modifying step named again. */
  restatedStepEnd = -1
  private readonly seenIssue = new Set<string>()

  constructor(
    readonly set: SetContext,
    readonly parsed: ParsedClaim,
    readonly tokens: ReadonlyArray<Token>,
    readonly mentions: ReadonlyArray<Mention>,
    readonly ancestors: ReadonlyArray<ClaimState>
  ) {
    this.text = parsed.text
    this.number = parsed.number
    this.stemTable = new StemTable(tokens)
    this.view = new ChainView(this.index, ancestors)
    this.formalClaim = parsed.isIndependent && isFormalClaim(parsed.text)
    this.preambleReported = new Set()
    this.modified = new Set()
    this.ambiguityReported = new Set()
    this.distributive = new Set()
    this.pairedRespectively = new Set()
    let inherited: Set<string> | undefined
    for (const a of ancestors) {
      // Only the direct parents' sets: each already holds its own chain's.
      if (!parsed.dependsOn.includes(a.parsed.number)) continue
      for (const k of a.preambleReported) this.preambleReported.add(k)
      for (const k of a.modified) this.modified.add(k)
      for (const k of a.distributive) this.distributive.add(k)
      for (const k of a.pairedRespectively) this.pairedRespectively.add(k)
      for (const k of a.ambiguityReported) {
        this.ambiguityReported.add(k)
        if (inherited === undefined) inherited = new Set()
        inherited.add(k)
      }
    }
    // Read only after this: a claim that inherits nothing shares one empty set.
    this.inheritedAmbiguity = inherited ?? NOTHING_INHERITED
  }

  hasKey(key: string): boolean {
    return this.view.hasKey(key)
  }

  hasHead(head: string): boolean {
    return this.view.hasHead(head) || this.set.recitedAnywhere(head)
  }

  chainRecitesOtherwise(r: Reading): boolean {
    const same = this.view.head(r.head)
    if (same === undefined || same.length === 0) return false
    for (const i of same) if (i.key === r.key || r.key.endsWith(` ${i.key}`)) return false
    return true
  }

  setHasKey(key: string): boolean {
    return this.set.keyRecitedAnywhere(key)
  }

  issue(type: IssueType, severity: Severity, term: string, start: number, end: number, informational = false) {
    const k = `${type}|${term}`
    if (this.seenIssue.has(k)) return
    this.seenIssue.add(k)
    const found: AntecedentIssue = { claimNumber: this.number, term, display: this.text.slice(start, end), type, severity, start, end, snippet: snippetOf(this.text, start, end) }
    this.issues.push(informational && severity === "low" ? { ...found, informational: true } : found)
  }

  suppress(rule: SuppressionRule, severity: Severity, term: string, start: number, end: number) {
    // Suppressed candidates are only ever read back under includeSuppressed: skip their snippets otherwise.
    if (!this.set.includeSuppressed) return
    const k = `suppressed|${rule}|${term}`
    if (this.seenIssue.has(k)) return
    this.seenIssue.add(k)
    const text = this.text
    this.suppressed.push({ claimNumber: this.number, term, display: text.slice(start, end), type: "no-antecedent-basis", severity, start, end, snippet: snippetOf(text, start, end), rule })
  }

  /** The written words of a reading, normalised. */
  termOf(r: Reading): string {
    return normalise(this.text.slice(r.start, r.end))
  }

  /** Whether a Porter stem was said earlier in the claim or anywhere in its chain. */
  stemBefore(st: string): boolean {
    this.stemTable.fill(this.position)
    if (this.stemTable.stems.has(st)) return true
    for (const a of this.ancestors) {
      a.stemTable.fill(Number.POSITIVE_INFINITY)
      if (a.stemTable.stems.has(st)) return true
    }
    return false
  }

  /** "rotating … the rotation", "administering … said administration": a step named by its noun. */
  verbRootBefore(word: string): boolean {
    const s = singularStem(word)
    if (s.length < 4) return false
    if (!ACTION_NOUN.test(word)) return false
    this.stemTable.fill(this.position)
    for (const a of this.ancestors) a.stemTable.fill(Number.POSITIVE_INFINITY)
    for (const set of [this.stemTable.verbStems, ...this.ancestors.map((a) => a.stemTable.verbStems)]) {
      if (set.has(s)) return true
      for (const v of set) if (v.length >= 5 && (s.startsWith(v) || v.startsWith(s))) return true
    }
    return false
  }

  register(m: Mention, r: Reading, opts: RegisterOptions) {
    const key = opts.key ?? r.key
    this.index.add({
      key,
      // A reading's head is its key's last word already (the same string, its hash worked out).
      head: opts.key === undefined ? r.head : key.slice(key.lastIndexOf(" ") + 1),
      claim: this.number,
      counting: opts.counting,
      weak: opts.weak,
      preamble: m.region === "preamble",
      subject: opts.subject === true,
      number: opts.number ?? numberOfIntro(m, r),
      elementStart: m.elementStart,
      clauseStart: m.prev === ";" || m.prev === ":" || (m.prev === "and" && (this.tokens[m.detTok - 2]?.l === ";" || this.tokens[m.detTok - 2]?.l === ":")),
      qualifier: m.qualifier,
      ofKey: ofChain(this.mentions, m),
      owner: m.owner,
      listedIn: m.elementStart ? m.scope : undefined,
      another: m.another,
      origin: this.number * ORIGIN_SPAN + m.detStart
    })
  }

  /** Intros a reading resolves to: exact key first, then a longer recitation it shortens ("the handle" ← "a display handle"). */
  resolve(r: { readonly key: string; readonly head: string }): Resolution | undefined {
    const exact = this.view.key(r.key)
    if (exact && exact.length > 0) return { intros: exact, how: "exact" }
    const sameHead = this.view.head(r.head)
    if (!sameHead) return undefined
    const suffix = ` ${r.key}`
    const longer = sameHead.filter((i) => i.key.endsWith(suffix))
    return longer.length > 0 ? { intros: longer, how: "suffix" } : undefined
  }

  /** The claims in one line of dependency with claim `c` (it and what it inherits). */
  private lineOf(c: number): ReadonlySet<number> {
    const st = c === this.number ? undefined : this.set.states.get(c)
    return new Set([c, ...(st ? st.ancestors : this.ancestors).map((a) => a.parsed.number)])
  }

  /** Recitations in alternative parents ("claim 1 or claim 2") are never both in force: one of them is the basis. */
  inOneLine(intros: Intro[]): Intro[] {
    // Most often every recitation is one claim's: nothing to choose, and no set made to find that out.
    let oneClaim = true
    for (let k = 1; k < intros.length && oneClaim; k++) oneClaim = intros[k].claim === intros[0].claim
    if (oneClaim) return intros
    const claimsOf = new Set(intros.map((i) => i.claim))
    if (claimsOf.size < 2) return intros
    for (const a of claimsOf) {
      const line = this.lineOf(a)
      for (const b of claimsOf) if (a !== b && (line.has(b) || this.lineOf(b).has(a))) return intros
    }
    return intros.length > 0 ? [intros[0]] : intros
  }

  /** Whether some claim of the chain says these (lower-case) words. */
  saidInChain(words: string): boolean {
    return this.ancestors.some((a) => this.set.lowerText(a).includes(words))
  }

  toState(): ClaimState {
    return {
      parsed: this.parsed, tokens: this.tokens, mentions: this.mentions, index: this.index, stemTable: this.stemTable, ancestors: this.ancestors,
      preambleReported: this.preambleReported, ambiguityReported: this.ambiguityReported, distributive: this.distributive, pairedRespectively: this.pairedRespectively, modified: this.modified,
      issues: this.issues.sort((a, b) => a.start - b.start), suppressed: this.suppressed, introducedTerms: this.introducedTerms
    }
  }
}
