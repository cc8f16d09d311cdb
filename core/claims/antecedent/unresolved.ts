/**
 * A reference with no recitation to rest on: excused under an implicit-basis rule (kept for
 * includeSuppressed), or reported with the severity its wording earns. Before a finding an
 * attorney must weigh, the tagger says where the phrase ends.
 */
import { type Mention, type Reading, reading } from "./chunker.ts"
import type { ClaimScan } from "./claim-scan.ts"
import { BASE_VERBS, VERB_S } from "./lexicon.ts"
import { type Graded, severityOf } from "./severity.ts"
import { type SuppressionContext, suppressionFor } from "./suppression.ts"
import { taggedPhraseLength } from "./tagger.ts"
import type { SuppressionRule } from "./types.ts"

/** What the implicit-basis rules may ask about one unresolved reference of a claim. */
class UnresolvedContext implements SuppressionContext {
  readonly text: string
  readonly mentions: ReadonlyArray<Mention>
  readonly beforePrev: string
  readonly formalClaim: boolean

  constructor(private readonly scan: ClaimScan, m: Mention) {
    this.text = scan.text
    this.mentions = scan.mentions
    this.beforePrev = m.detTok >= 2 ? scan.tokens[m.detTok - 2].l : ""
    this.formalClaim = scan.formalClaim
  }

  verbRootBefore(word: string): boolean {
    return this.scan.verbRootBefore(word)
  }

  methodClaim(): boolean {
    return this.scan.stemBefore("step")
  }
}

/** A suppressed candidate's severity is only ever shown under includeSuppressed. */
const grade = (scan: ClaimScan, m: Mention, x: Reading, rule: SuppressionRule | undefined): Graded | undefined =>
  rule && !scan.set.includeSuppressed ? undefined : severityOf(scan, m, x)

export const reportUnresolved = (scan: ClaimScan, m: Mention, r: Reading) => {
  const tokens = scan.tokens
  const ctx = new UnresolvedContext(scan, m)
  let said = r
  let rule = suppressionFor(m, said, ctx)
  let graded = grade(scan, m, said, rule)
  // "the light emission layer arranged close to said anode", "the wing create aerodynamic forces":
  // the tagger is too slow to ask for every phrase.
  const verbCut = m.coordinated ? undefined : verbBeforeObject(scan, m) ?? verbInside(scan, m)
  const cut = verbCut ?? (!rule && graded!.severity !== "low" && !m.coordinated ? taggerReading(scan, m) : undefined)
  const cutFound = cut ? scan.resolve(cut) : undefined
  // Report the phrase the tagger reads ("the battery cell", not "the battery cell varies"), but keep
  // "said water conducting pipe" whole: an -ing word inside a compound is as often a modifier as a verb.
  const cutAt = cut ? tokens.slice(m.tokStart, m.tokEnd).findIndex((w) => w.start > cut.end) : -1
  if (cut && !cutFound && !tokens[m.tokStart + cutAt]?.l.endsWith("ing")) {
    said = cut
    rule = suppressionFor(m, said, ctx)
    graded = grade(scan, m, said, rule)
  }
  if (cutFound) said = cut!
  else if (rule) {
    if (graded) scan.suppress(rule, graded.severity, scan.termOf(said), said.start, said.end)
  } else scan.issue("no-antecedent-basis", graded!.severity, scan.termOf(said), said.start, said.end, graded!.informational)
  scan.register(m, said, { counting: false, weak: true })
}

/** Words that open a noun phrase: a word between a phrase and one of them is a verb taking it as object. */
const OBJECT_OPENERS = new Set(["the", "a", "an", "said"])

/**
 * "the second gain adjustment attenuate the downlink signal": a phrase that runs right into an
 * article ended a word earlier, its last word being the verb (two nouns never meet an article
 * that way); the shorter phrase is taken when it names a recitation.
 */
const verbBeforeObject = (scan: ClaimScan, m: Mention): Reading | undefined => {
  const tokens = scan.tokens
  if (m.tokEnd - m.tokStart < 2 || !OBJECT_OPENERS.has(tokens[m.tokEnd]?.l ?? "")) return undefined
  const shorter = reading(tokens.slice(m.tokStart, m.tokEnd - 1))
  return shorter && scan.resolve(shorter) ? shorter : undefined
}

/**
 * "the axial direction provide fluid pathways", "the lock arms engage the …": a verb the lexicon knows inside the phrase
 * ends it, when the words before it name a recitation.
 */
const verbInside = (scan: ClaimScan, m: Mention): Reading | undefined => {
  const tokens = scan.tokens
  for (let k = m.tokStart + 1; k < m.tokEnd; k++) {
    const l = tokens[k].l
    if (!BASE_VERBS.has(l) && !VERB_S.has(l)) continue
    const shorter = reading(tokens.slice(m.tokStart, k))
    return shorter && scan.resolve(shorter) ? shorter : undefined
  }
  return undefined
}

/** The phrase cut where the tagger ends it, when that is shorter than every reading the chunker made. */
const taggerReading = (scan: ClaimScan, m: Mention): Reading | undefined => {
  const tokens = scan.tokens
  const words = tokens.slice(m.tokStart, m.tokEnd)
  if (words.length < 2 || !words.every((w) => w.word)) return undefined
  const after = tokens.slice(m.tokEnd, m.tokEnd + 4).map((t) => t.l)
  const n = taggedPhraseLength(words.map((w) => w.l), after)
  if (n >= words.length) return undefined
  return m.readings.find((x) => x.end === words[n - 1].end) ?? reading(words.slice(0, n))
}
