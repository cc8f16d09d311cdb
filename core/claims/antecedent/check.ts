/**
 * The antecedent-basis check (§112(b), MPEP 2173.05(e)): deterministic, no model, no network.
 *
 * Every claim is chunked into introductions ("a lever"), references ("the lever") and bare
 * phrases; references are resolved against what the claim recited before them plus everything
 * its dependency chain recited (never a sibling claim). What does not resolve is either excused
 * under an implicit-basis rule (reported only with includeSuppressed) or reported with a severity
 * saying how plausible an antecedent under other wording is.
 */
import { type ParsedClaim, parseClaims } from "../parse.ts"
import { chunk, type GrammaticalNumber, type Mention, qualifierAt, type Reading, reading } from "./chunker.ts"
import { VERB_S } from "./lexicon.ts"
import { isMass, singular, singularStem } from "./lemma.ts"
import { DEFINED_BY, type SeverityContext, severityOf } from "./severity.ts"
import { taggedPhraseLength } from "./tagger.ts"
import { ACTION_NOUN, isFormalClaim, isTied, suppressionFor, USER_TERMS } from "./suppression.ts"
import { type Token, tokenize } from "./tokens.ts"
import type {
  AntecedentIssue, AntecedentOptions, AntecedentResult, ClaimReport, DependencyInfo, IssueType, Severity,
  SuppressedCandidate, SuppressionRule
} from "./types.ts"

/** A recitation a later reference can rest on. */
interface Intro {
  readonly id: number
  readonly key: string
  readonly head: string
  readonly claim: number
  /** Opened by an indefinite determiner (counts for double inclusion and ambiguity). */
  readonly counting: boolean
  /** Only a bare phrase, an alternative reading, or a flagged reference: good enough as a basis, never counted. */
  readonly weak: boolean
  readonly preamble: boolean
  /** The claimed subject ("A method" of "A method of cooling …"). */
  readonly subject: boolean
  readonly number: GrammaticalNumber
  readonly elementStart: boolean
  readonly qualifier: string
  /** Key of the phrase after "of", to tell "a top of the frame" from "a top of the display". */
  readonly ofKey?: string
  /** The element it was recited as a part of ("a distal end" of "a catheter having a distal end"). */
  readonly owner?: string
  /** The element in whose list of parts it was recited ("c) a second substrate comprising: a body …"). */
  readonly listedIn?: string
  /** The mention that made it (claim and offset): several keys of one mention count once. */
  readonly origin: number
}

/** One claim's own intros, by key and by head noun; a claim sees its own plus its ancestors' (no copying). */
class IntroIndex {
  readonly byKey = new Map<string, Intro[]>()
  readonly byHead = new Map<string, Intro[]>()

  add(i: Intro) {
    push(this.byKey, i.key, i)
    push(this.byHead, i.head, i)
  }
}

/** The intros visible from a claim: its own so far, then each ancestor's. */
class ChainView {
  constructor(
    private readonly own: IntroIndex,
    private readonly ancestors: ReadonlyArray<ClaimState>
  ) {}

  key(k: string): Intro[] | undefined {
    let out = this.own.byKey.get(k)
    for (const a of this.ancestors) {
      const more = a.index.byKey.get(k)
      if (more) out = out ? out.concat(more) : more
    }
    return out
  }

  head(h: string): Intro[] | undefined {
    let out = this.own.byHead.get(h)
    for (const a of this.ancestors) {
      const more = a.index.byHead.get(h)
      if (more) out = out ? out.concat(more) : more
    }
    return out
  }
}

/** Stems of a claim's words up to a point, computed lazily: most claims never need them. */
class StemTable {
  readonly stems = new Set<string>()
  /** Stems of -ing / -ed words: a later "the rotation" may name the step "rotating". */
  readonly verbStems = new Set<string>()
  private cursor = 0

  constructor(private readonly tokens: ReadonlyArray<Token>) {}

  fill(upTo: number) {
    const t = this.tokens
    while (this.cursor < t.length && t[this.cursor].start < upTo) {
      const x = t[this.cursor++]
      if (!x.word) continue
      this.add(x.l)
      // "de-husking" says "husk", "time-stamped" says "time stamp", "die/dice" says "die".
      if (x.l.includes("-") || x.l.includes("/")) {
        for (const part of x.l.split(/[-/]/)) if (part.length > 1) this.add(part)
        this.stems.add(singularStem(x.l.replace(/[-/]/g, "")))
      }
    }
  }

  private add(w: string) {
    const s = singularStem(w)
    this.stems.add(s)
    if (w.endsWith("ing") || w.endsWith("ed")) this.verbStems.add(s)
  }
}

const push = <K, V>(m: Map<K, V[]>, k: K, v: V) => {
  const l = m.get(k)
  if (l) l.push(v)
  else m.set(k, [v])
}

interface ClaimState {
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
  readonly modified: Set<string>
  readonly issues: AntecedentIssue[]
  readonly suppressed: SuppressedCandidate[]
  readonly introducedTerms: string[]
}

/** Determiners that pick a single member of a recited plurality. */
const PICK_ONE = new Set(["one of the", "any one of the", "either of the", "at least one of the"])

/** Leading modifiers that say which of the recited things, or all of it, rather than name a new one. */
const NON_RESTRICTIVE = new Set(["entire", "whole", "other", "associated", "corresponding", "respective", "resulting", "resultant", "total", "overall", "remaining", "same", "particular", "given", "specific", "individual", "complete", "full"])

/** Gerunds that link a part to its whole rather than name a step. */
const LINKING_GERUNDS = new Set(["having", "including", "comprising", "containing", "being", "according", "consisting", "defining", "forming", "carrying"])

/** "adapted to", "configured to": the verb after them states a function. */
const FUNCTION_WORDS = new Set(["adapted", "configured", "operable", "arranged", "designed", "capable", "able", "used", "constructed", "programmed", "intended"])

/** Verbs after which a count says how many of a recited element there are. */
const STATING_VERBS = new Set(["has", "have", "having", "contains", "containing", "comprises", "comprising", "includes", "including", "is", "are"])
/** "of about 5 to 7", "of from 35", "of at least 24": the phrase gives a value. */
const VALUE_AFTER = /^of (?:(?:about|approximately|from|at least|at most|less than|more than|greater than|between|up to|not more than|not less than) |\d)/

const QUOTES = new Set(['"', "'", "\u201c", "\u201d", "\u2018", "\u2019"])

/** Words before a gerund that add its step to the claim. */
const ADDING = new Set(["comprising", "including", "comprises", "includes", "further", "of", "step"])

/** A participle, a relative clause or "having" right after a singular reference: the description picks one of several. */
const PICKED_BY = /^\s*(?:[a-z]+ed\b|(?:into|in|at|by|from|to|for) which\b|which\b|that\b|where\b|having\b|located\b)/

/** A relative clause or a "between" phrase right after a reference: it says which one by describing it. */
const DESCRIBED_BY = /^\s*(?:where|in which|at which|between|(?!(?:need|feed|seed|speed|bleed|red|bed|shed|based|used|provided|compared|followed|required|combined|determined|received)\b)[a-z]{2,}ed\b)/
/** Nouns of a relation that a "between" phrase fixes by itself ("the distance between A and B"). */
const RELATIONS = new Set(["distance", "gap", "space", "spacing", "angle", "difference", "ratio", "interval", "clearance", "relationship", "relation", "offset", "separation", "overlap", "correlation", "delay", "phase"])

const PER_PREPOSITIONS = new Set(["for", "of", "in", "at", "to", "from", "on", "with", "during"])

/** What ends the clause an element was recited in. */
const CLAUSE_BREAK = /[;:]|\bwhere(?:in|by)\b/i

const SEVERITY_RANK: Record<Severity, number> = { high: 3, medium: 2, low: 1 }
const MODIFY_VERBS = new Set(["modifying", "altering", "changing", "editing", "transforming", "converting", "updating", "revising", "amending", "rewriting", "mutating"])
const MODIFY_LINKERS = new Set(["included", "contained", "in", "of", "within", "from", "on", "associated", "with", "comprised", "stored"])
const SUBJECT_OPENERS = new Set(["wherein", "whereby", "where", "when", "while", "that", ",", ";", ":", "and", "if", "whereupon"])
const FINITE = new Set(["is", "are", "was", "were", "has", "have", "comprises", "includes", "contains", "can", "may", "will", "shall", "must", "should", "being", "does", "defines", "forms", "further"])

const snippetOf = (text: string, start: number, end: number): string => {
  let a = Math.max(0, start - 50)
  let b = Math.min(text.length, end + 50)
  if (a > 0) {
    const sp = text.indexOf(" ", a)
    if (sp >= 0 && sp < start) a = sp + 1
  }
  if (b < text.length) {
    const sp = text.lastIndexOf(" ", b)
    if (sp > end) b = sp
  }
  return `${a > 0 ? "…" : ""}${text.slice(a, b).replace(/\s+/g, " ").trim()}${b < text.length ? "…" : ""}`
}

const normalise = (s: string) => s.toLowerCase().replace(/\s+/g, " ")

const numberOfIntro = (m: Mention, r: Reading): GrammaticalNumber => {
  // "two insulating materials": a mass noun counted in the plural is a plural recitation.
  if (isMass(r.head)) return m.kind === "intro" && m.detNumber === "pl" && r.plural ? "pl" : "any"
  if (m.kind === "bare") return r.plural ? "pl" : "any"
  if (m.detNumber === "sg") return r.plural ? "any" : "sg"
  return m.detNumber ?? (r.plural ? "pl" : "sg")
}

const numberOfReference = (m: Mention, r: Reading): GrammaticalNumber => {
  if (isMass(r.head)) return m.det === "the" && !r.plural && !m.coordinated ? "sg" : "any"
  if (m.detNumber) return m.detNumber
  if (m.coordinated) return "pl"
  return r.plural ? "pl" : "sg"
}

/** Check a claim set. Claims without a number take their 1-based position. */
export const checkAntecedentBasis = (
  claims: ReadonlyArray<{ readonly number?: number; readonly text: string }>,
  options: AntecedentOptions = {}
): AntecedentResult => {
  const parsed = parseClaims(claims, { elements: false })
  const byNumber = new Map<number, ParsedClaim>()
  for (const p of parsed) if (!byNumber.has(p.number)) byNumber.set(p.number, p)

  // First pass: chunk every claim; collect every head recited anywhere (for "high" = nowhere in the set).
  const chunked = new Map<number, { tokens: Token[]; mentions: Mention[] }>()
  for (const p of byNumber.values()) {
    if (p.canceled) continue
    const tokens = tokenize(p.text)
    const skipUntil = p.isIndependent ? p.contentStart : p.preamble.end
    const mentions = chunk(tokens, { skipUntil, preambleEnd: p.isIndependent ? p.preamble.end : skipUntil, bodyStart: p.body.start })
    chunked.set(p.number, { tokens, mentions })
  }
  // Built on first need (an unresolved reference): is the head noun recited anywhere in the set?
  let setHeads: Set<string> | undefined
  const recitedAnywhere = (head: string): boolean => {
    if (!setHeads) {
      setHeads = new Set<string>()
      for (const { mentions } of chunked.values()) {
        for (const m of mentions) {
          if (m.kind === "ref") continue
          for (const r of m.readings) setHeads.add(r.head)
          for (const r of m.tails) setHeads.add(r.head)
        }
      }
    }
    return setHeads.has(head)
  }

  let nextId = 0
  const states = new Map<number, ClaimState>()
  /** Lower-case claim texts, made on first need (a restated step is looked for in the chain). */
  const lowered = new Map<ClaimState, string>()
  const lowerText = (st: ClaimState): string => {
    let t = lowered.get(st)
    if (t === undefined) lowered.set(st, (t = st.parsed.text.toLowerCase()))
    return t
  }
  const inProgress = new Set<number>()

  const analyse = (p: ParsedClaim): ClaimState => {
    const done = states.get(p.number)
    if (done) return done
    inProgress.add(p.number)
    const { tokens, mentions } = chunked.get(p.number) ?? { tokens: [], mentions: [] }
    const index = new IntroIndex()
    const stemTable = new StemTable(tokens)
    const ancestors: ClaimState[] = []
    const preambleReported = new Set<string>()
    const modified = new Set<string>()
    /** Keys already reported as doubly recited or ambiguous up the chain: said once, where it arose. */
    const ambiguityReported = new Set<string>()
    const inheritedAmbiguity = new Set<string>()
    const inheritedDistributive = new Set<string>()
    for (const n of p.dependsOn) {
      const parent = byNumber.get(n)
      if (!parent || parent.canceled || n === p.number || inProgress.has(n)) continue
      const ps = analyse(parent)
      for (const a of [ps, ...ps.ancestors]) if (!ancestors.includes(a)) ancestors.push(a)
      for (const k of ps.preambleReported) preambleReported.add(k)
      for (const k of ps.modified) modified.add(k)
      for (const k of ps.distributive) inheritedDistributive.add(k)
      for (const k of ps.ambiguityReported) {
        ambiguityReported.add(k)
        inheritedAmbiguity.add(k)
      }
    }
    const issues: AntecedentIssue[] = []
    const suppressed: SuppressedCandidate[] = []
    const introducedTerms: string[] = []
    const introducedKeys = new Set<string>()
    const seenIssue = new Set<string>()
    const text = p.text
    const formalClaim = p.isIndependent && isFormalClaim(text)

    const issue = (type: IssueType, severity: Severity, term: string, start: number, end: number, informational = false) => {
      const k = `${type}|${term}`
      if (seenIssue.has(k)) return
      seenIssue.add(k)
      const found: AntecedentIssue = { claimNumber: p.number, term, display: text.slice(start, end), type, severity, start, end, snippet: snippetOf(text, start, end) }
      issues.push(informational && severity === "low" ? { ...found, informational: true } : found)
    }
    const suppress = (rule: SuppressionRule, severity: Severity, term: string, start: number, end: number) => {
      // Suppressed candidates are only ever read back under includeSuppressed: skip their snippets otherwise.
      if (!options.includeSuppressed) return
      const k = `suppressed|${rule}|${term}`
      if (seenIssue.has(k)) return
      seenIssue.add(k)
      suppressed.push({ claimNumber: p.number, term, display: text.slice(start, end), type: "no-antecedent-basis", severity, start, end, snippet: snippetOf(text, start, end), rule })
    }

    // Improper dependency: on itself, a later claim, or a claim not in the set (or canceled).
    for (const ref of p.references) {
      let worst: Severity | undefined
      for (const n of ref.numbers) {
        const target = byNumber.get(n)
        const sev: Severity | undefined = n === p.number || !target || target.canceled ? "high" : n > p.number ? "medium" : undefined
        if (sev && (!worst || SEVERITY_RANK[sev] > SEVERITY_RANK[worst])) worst = sev
      }
      if (worst) issue("improper-dependency", worst, normalise(text.slice(ref.start, ref.end)), ref.start, ref.end)
    }

    // The claim's own stems are added as the scan moves past them: "earlier" means earlier.
    const view = new ChainView(index, ancestors)
    let position = 0
    const stemBefore = (st: string) => {
      stemTable.fill(position)
      if (stemTable.stems.has(st)) return true
      for (const a of ancestors) {
        a.stemTable.fill(Number.POSITIVE_INFINITY)
        if (a.stemTable.stems.has(st)) return true
      }
      return false
    }

    let sawPreambleIntro = false
    const register = (m: Mention, r: Reading, opts: { counting: boolean; weak: boolean; key?: string; subject?: boolean; number?: GrammaticalNumber }) => {
      const key = opts.key ?? r.key
      const ofKey = ofChain(mentions, m)
      index.add({
        id: nextId++,
        key,
        head: key.slice(key.lastIndexOf(" ") + 1),
        claim: p.number,
        counting: opts.counting,
        weak: opts.weak,
        preamble: m.region === "preamble",
        subject: opts.subject === true,
        number: opts.number ?? numberOfIntro(m, r),
        elementStart: m.elementStart,
        qualifier: m.qualifier,
        ofKey,
        owner: m.owner,
        listedIn: m.elementStart ? m.scope : undefined,
        origin: p.number * 1_000_000 + m.detStart
      })
    }

    /** Intros a reading resolves to: exact key first, then a longer recitation it shortens ("the handle" ← "a display handle"). */
    const resolve = (r: Reading): { intros: Intro[]; how: "exact" | "suffix" } | undefined => {
      const exact = view.key(r.key)
      if (exact && exact.length > 0) return { intros: exact, how: "exact" }
      const sameHead = view.head(r.head)
      if (!sameHead) return undefined
      const suffix = ` ${r.key}`
      const longer = sameHead.filter((i) => i.key.endsWith(suffix))
      return longer.length > 0 ? { intros: longer, how: "suffix" } : undefined
    }

    const severityContext: SeverityContext = {
      text,
      stemBefore,
      hasKey: (key) => view.key(key) !== undefined,
      hasHead: (head) => view.head(head) !== undefined || recitedAnywhere(head)
    }

    /** "rotating … the rotation", "administering … said administration": a step named by its noun. */
    const verbRootBefore = (word: string): boolean => {
      const s = singularStem(word)
      if (s.length < 4) return false
      if (!ACTION_NOUN.test(word)) return false
      stemTable.fill(position)
      for (const a of ancestors) a.stemTable.fill(Number.POSITIVE_INFINITY)
      for (const set of [stemTable.verbStems, ...ancestors.map((a) => a.stemTable.verbStems)]) {
        if (set.has(s)) return true
        for (const v of set) if (v.length >= 5 && (s.startsWith(v) || v.startsWith(s))) return true
      }
      return false
    }

    /** Whether two claims are in one line of dependency (one inherits the other), as this claim and its chain are. */
    const lineOf = (c: number): ReadonlySet<number> => {
      const st = c === p.number ? undefined : states.get(c)
      return new Set([c, ...(st ? st.ancestors.map((a) => a.parsed.number) : ancestors.map((a) => a.parsed.number))])
    }
    const inOneLine = (intros: Intro[]): Intro[] => {
      const claimsOf = new Set(intros.map((i) => i.claim))
      if (claimsOf.size < 2) return intros
      for (const a of claimsOf) {
        const line = lineOf(a)
        for (const b of claimsOf) if (a !== b && (line.has(b) || lineOf(b).has(a))) return intros
      }
      // Each recitation sits in a different alternative parent: any one of them is the basis.
      return intros.length > 0 ? [intros[0]] : intros
    }

    /** "at least one superabrasive cutter of the plurality", "one of said cutters": a member of what is recited. */
    const pickFromRecited = (m: Mention, r: Reading): boolean => {
      if (m.next !== "of" || m.ofNext === undefined) return false
      const of = mentions[m.ofNext]
      const ofKey = of.readings[0]?.key
      return of.kind === "ref" && (of.collective !== undefined || ofKey === r.key || ofKey === "plurality" || of.readings[0]?.head === r.head)
    }

    /**
     * "divide a parallax component image into pieces …, the parallax component image being obtained
     * by …": in the clause that recited it, "the" points at the latest recitation. A "wherein"
     * clause speaks of the whole and keeps the ambiguity ("a lever …; and a lever …, wherein the lever").
     */
    const refersToLatest = (rivals: Intro[], at: number): boolean => {
      let latest: Intro | undefined
      for (const i of rivals) if (i.claim === p.number && (!latest || i.origin > latest.origin)) latest = i
      if (!latest) return false
      const from = latest.origin - p.number * 1_000_000
      return at - from < 400 && !CLAUSE_BREAK.test(text.slice(from, at))
    }

    /**
     * "wherein generating a composite image comprises …" after "generating a composite image": the
     * step is named again, its object is not recited anew.
     */
    const restatesStep = (m: Mention): boolean => {
      const verb = tokens[m.detTok - 1]
      // "to locate a pool having a desired goal state" named again from the parent claim.
      if (verb?.word && tokens[m.detTok - 2]?.l === "to" && !ARTICLES.has(verb.l)) {
        const said = text.slice(tokens[m.detTok - 2].start, tokens[Math.min(m.tokEnd + 2, tokens.length - 1)].end).toLowerCase()
        if (said.length > 16 && ancestors.some((a) => lowerText(a).includes(said))) return true
      }
      if (!verb || !verb.l.endsWith("ing") || verb.l.length < 5 || LINKING_GERUNDS.has(verb.l)) return false
      // "further comprising administering a dose" adds a step, even one like the parent's.
      if (ADDING.has(tokens[m.detTok - 2]?.l ?? "")) return false
      const said = text.slice(verb.start, m.readings[0].end).toLowerCase().replace(/^(\S+) said /, "$1 the ")
      return ancestors.some((a) => lowerText(a).includes(said))
    }

    /** The phrase cut where the tagger ends it, when that is shorter than every reading the chunker made. */
    const taggerReading = (m: Mention): Reading | undefined => {
      const words = tokens.slice(m.tokStart, m.tokEnd)
      if (words.length < 2 || !words.every((w) => w.word)) return undefined
      const after = tokens.slice(m.tokEnd, m.tokEnd + 4).map((t) => t.l)
      const n = taggedPhraseLength(words.map((w) => w.l), after)
      if (n >= words.length) return undefined
      return m.readings.find((r) => r.end === words[n - 1].end) ?? reading(words.slice(0, n))
    }

    /** "wherein the at least one cutter comprises a plurality of cutters": says what the recited element is made of. */
    const specifiesRecited = (m: Mention, r: Reading): boolean => {
      const before = mentions[m.index - 1]
      if (!before || before.kind !== "ref" || m.detTok - before.tokEnd > 2) return false
      return before.readings.some((x) => x.key === r.key) || (before.readings[0]?.head === r.head && r.plural)
    }

    /** Inside a parent's modifying step named again ("wherein converting the display address of the selected portion …"). */
    let restatedStepEnd = -1
    const inRestatedStep = (m: Mention): boolean => {
      const verb = tokens[m.detTok - 1]
      if (verb && MODIFY_VERBS.has(verb.l) && restatesStep(m)) {
        restatedStepEnd = m.tokEnd
        return true
      }
      const between = restatedStepEnd >= 0 ? tokens.slice(restatedStepEnd, m.detTok) : []
      return between.length > 0 && between.length <= 3 && between.every((t) => MODIFY_LINKERS.has(t.l))
    }

    /**
     * "adapted to mount a middle mounted implement", "a fan for supplying air to a tray": the object
     * of a function or purpose says what the element works on, it does not add one; it is still a
     * basis for "the implement".
     */
    const purposeObject = (m: Mention): boolean => {
      let k = m.detTok - 1
      if (k >= 0 && tokens[k].word && tokens[k].l.length > 4 && tokens[k].l.endsWith("ly")) k--
      const verb = tokens[k]
      const before = tokens[k - 1]
      if (!verb || !before || !verb.word || ARTICLES.has(verb.l)) return false
      if (before.l === "to") return FUNCTION_WORDS.has(tokens[k - 2]?.l ?? "")
      return before.l === "for" && verb.l.endsWith("ing")
    }

    /**
     * "wherein the package contains more than one napkin", "has at least two inflection points",
     * "has a glass transition temperature of from about 35° C.": a count or a value of what the
     * chain recites, not a further element.
     */
    const statesCountOrValue = (m: Mention, r: Reading): boolean => {
      // "has a glass transition temperature (Tg) of from about 35° C.": past the label.
      const labelled = tokens[m.tokEnd]?.l === "(" && tokens[m.tokEnd + 2]?.l === ")" && tokens[m.tokEnd + 3]?.l === "of"
      if ((m.next === "of" || labelled) && VALUE_AFTER.test(qualifierAt(tokens, labelled ? m.tokEnd + 3 : m.tokEnd))) return view.key(r.key) !== undefined
      const counted = m.det !== "a" && m.det !== "a single" && m.det !== "a further" && m.det !== "another" && m.det !== "a plurality of"
      return counted && m.detNumber !== undefined && m.detNumber !== "sg" && STATING_VERBS.has(m.prev) && view.key(r.key) !== undefined
    }

    /** `("PCD")`, `(PCD)` right after a phrase: an abbreviation the claim goes on to use. */
    const labelAfter = (m: Mention): string | undefined => {
      let k = m.tokEnd
      if (tokens[k]?.l !== "(") return undefined
      k++
      if (tokens[k] && !tokens[k].word && QUOTES.has(tokens[k].l)) k++
      const word = tokens[k]
      if (!word || !word.word || !/[a-z]/i.test(word.l) || text.slice(word.start, word.end) !== text.slice(word.start, word.end).toUpperCase()) return undefined
      k++
      if (tokens[k] && !tokens[k].word && QUOTES.has(tokens[k].l)) k++
      return tokens[k]?.l === ")" ? singular(word.l) : undefined
    }

    /**
     * "the end of a pause in the reference signal" in claim 6 after "the ending of a pause in the
     * reference signal" in claim 5: a thing mentioned in passing, in the parent's words, is the
     * parent's. (A new element of the claim, "further comprising a fastener", is still counted.)
     */
    const repeatsParentWording = (m: Mention, r: Reading): boolean =>
      ancestors.length > 0 && !m.elementStart && m.qualifier.includes(" ") && (view.key(r.key) ?? []).some((i) => i.claim !== p.number && firstWords(i.qualifier, 3) === firstWords(m.qualifier, 3))

    const acronymReading = (r: Reading): { intros: Intro[]; how: "exact" | "suffix" } | undefined => {
      const written = text.slice(r.start, r.end)
      const acronym = /^[A-Z]{2,5}\b/.exec(written)?.[0]
      if (!acronym || r.words.length < 2) return undefined
      const rest = ` ${r.words.slice(1).join(" ")}`
      const letters = acronym.toLowerCase()
      const intros = (view.head(r.head) ?? []).filter((i) => {
        if (!i.key.endsWith(rest)) return false
        const expanded = i.key.slice(0, i.key.length - rest.length).split(" ")
        return expanded.length === letters.length && expanded.every((w, k) => w[0] === letters[k])
      })
      return intros.length > 0 ? { intros, how: "exact" } : undefined
    }

    /** "the reference phone label for the time step": the phrase after one preposition is one of a plurality taken each in turn. */
    const perMember = (m: Mention): boolean => {
      const next = mentions[m.index + 1]
      if (!next || next.kind !== "ref" || next.detTok !== m.tokEnd + 1 || !PER_PREPOSITIONS.has(tokens[m.tokEnd]?.l ?? "")) return false
      return next.readings.some((x) => distributive.has(x.key))
    }

    /**
     * "cycling through the pools to locate a pool having a desired goal state" said again, word for
     * word, from the parent: the words around an introduction repeat the parent's, so nothing new is recited.
     */
    const repeatsParentText = (m: Mention): boolean => {
      if (ancestors.length === 0) return false
      const from = tokens[Math.max(0, m.detTok - 4)].start
      const said = text.slice(from, m.readings[0].end).toLowerCase()
      return said.length > 24 && ancestors.some((a) => lowerText(a).includes(said))
    }

    /** The key of the phrase right after "in", "on", "of" or "at" following a reference: where the thing is. */
    const ownerNamedAfter = (m: Mention): string | undefined => {
      const next = mentions[m.index + 1]
      if (!next || next.kind === "bare" || next.detTok !== m.tokEnd + 1) return undefined
      const between = tokens[m.tokEnd]?.l
      return between === "in" || between === "on" || between === "of" || between === "at" ? next.readings[0]?.key : undefined
    }

    let pendingModifyEnd = -1
    /** Keys quantified with "each" in this claim or its chain: "said guard" after "each guard" is one of them. */
    const distributive = new Set<string>(inheritedDistributive)
    for (const m of mentions) {
      if (m.region === "skip") continue
      position = m.detStart
      const r0 = m.readings[0]

      if (m.kind === "intro") {
        // Members of a list of alternatives, predicates and picks from a recited plurality add no element.
        const adds = !m.alternative && !m.predicative && !pickFromRecited(m, r0) && !restatesStep(m) && !specifiesRecited(m, r0) && !purposeObject(m) && !statesCountOrValue(m, r0) && !repeatsParentWording(m, r0) && !(view.key(r0.key) !== undefined && repeatsParentText(m))
        if (m.region === "body" && !m.another && m.elementStart && adds) {
          // "a second switch having a control terminal" after "a first switch having a control terminal": parts of different things.
          // Parts of an element recited more than once ("a body having a coefficient …" for each of several bodies) belong to different things.
          const ownerRecitedTwice = m.owner !== undefined && distinctOrigins((view.key(m.owner) ?? []).filter((i) => i.counting)).length > 1
          // Items of the lists of parts of two different elements are parts of different things.
          const listedIn = m.elementStart ? m.scope : undefined
          const sameThing = (i: Intro) =>
            !ownerRecitedTwice && (m.owner === undefined || i.owner === m.owner) &&
            ((m.owner ?? listedIn) === undefined || (i.owner ?? i.listedIn) === undefined || (i.owner ?? i.listedIn) === (m.owner ?? listedIn))
          const same = view.key(r0.key)?.filter((i) => i.counting && !i.preamble && !i.weak && i.elementStart && sameThing(i)) ?? []
          const own = same.filter((i) => i.claim === p.number)
          const inherited = p.isIndependent ? [] : same.filter((i) => i.claim !== p.number)
          const unqualified = (list: Intro[]) => list.length > 0 && (m.qualifier === "" || list.some((i) => i.qualifier === m.qualifier))
          const inheritedAny = p.isIndependent ? [] : (view.key(r0.key)?.filter((i) => i.counting && !i.preamble && !i.weak && i.claim !== p.number && sameThing(i)) ?? [])
          if (unqualified(own) || unqualified(inherited) || (inheritedAny.length > 0 && m.qualifier === "")) {
            ambiguityReported.add(r0.key)
            issue("double-inclusion", "medium", normalise(text.slice(r0.start, r0.end)), r0.start, r0.end)
          }
        }
        // "a plurality of contacts each having …", "during each of at least several cycles": later singular references are to each of them.
        const lead = tokens[m.detTok - 1]?.l === "least" && tokens[m.detTok - 2]?.l === "at" ? m.detTok - 3 : m.detTok - 1
        if (m.next === "each" || (tokens[lead]?.l === "of" && tokens[lead - 1]?.l === "each")) distributive.add(r0.key)
        const subject = p.isIndependent && m.region === "preamble" && !sawPreambleIntro
        if (m.region === "preamble") sawPreambleIntro = true
        m.readings.forEach((r, n) => register(m, r, { counting: n === 0 && adds, weak: n > 0, subject }))
        for (const t of m.tails) register(m, t, { counting: false, weak: true })
        // "first and second scaffold structures": each modifier names one structure.
        for (const k of m.coordinated ?? []) register(m, r0, { counting: adds, weak: false, key: k, number: r0.plural ? "any" : undefined })
        // "A proximity communication device ("PCD")": the label names the same element.
        const label = labelAfter(m)
        if (label) register(m, r0, { counting: false, weak: false, key: label, subject })
        if (m.collective) {
          // "a set of hooks … the set": the collection itself is one thing.
          register(m, r0, { counting: false, weak: true, key: m.collective, number: "sg" })
          register(m, r0, { counting: false, weak: true, key: `${m.collective} of ${r0.key}` })
        }
        if (!subject && m.region === "body") {
          if (!introducedKeys.has(r0.key)) {
            introducedKeys.add(r0.key)
            introducedTerms.push(normalise(text.slice(r0.start, r0.end)))
          }
        }
        continue
      }

      if (m.kind === "bare") {
        // "wherein air circulation unit is configured": a recited element referred to without its article.
        if (m.region === "body" && SUBJECT_OPENERS.has(m.prev) && (FINITE.has(m.next) || VERB_S.has(m.next)) && !isMass(r0.head) && !r0.plural) {
          const basis = view.key(r0.key)?.filter((i) => i.counting && !i.weak && i.number === "sg")
          if (basis && basis.length > 0) issue("missing-article", "low", normalise(text.slice(r0.start, r0.end)), r0.start, r0.end)
        }
        // "in which pixels each having a predetermined width are arranged": a later "the pixel" is each of them.
        if (m.next === "each" && r0.plural) distributive.add(r0.key)
        for (const r of m.readings) register(m, r, { counting: false, weak: true })
        for (const t of m.tails) register(m, t, { counting: false, weak: true })
        for (const k of m.coordinated ?? []) register(m, r0, { counting: false, weak: true, key: k, number: "any" })
        continue
      }

      // References ("the", "said", "each of the" …) and "each X".
      let chosen: Reading | undefined
      let found: { intros: Intro[]; how: "exact" | "suffix" } | undefined
      if (m.coordinated) {
        const parts = m.coordinated.map((k) => resolve({ ...r0, key: k, words: k.split(" ") }))
        if (parts.every((x) => x !== undefined)) {
          chosen = r0
          found = { intros: parts.flatMap((x) => x!.intros), how: "exact" }
        } else {
          const plain = resolve(r0)
          if (plain) {
            chosen = r0
            found = plain
          }
        }
      } else {
        for (const r of m.readings) {
          const x = resolve(r)
          if (x && x.how === "exact") {
            chosen = r
            found = x
            break
          }
        }
        if (!found) {
          for (const r of m.readings) {
            const x = resolve(r)
            if (x) {
              chosen = r
              found = x
              break
            }
          }
        }
        if (!found) {
          // "the entire tower", "the other regulating member", "the associated photoreceptor": the modifier restricts nothing.
          for (const r of m.readings) {
            if (r.words.length < 2 || !NON_RESTRICTIVE.has(r.words[0])) continue
            const rest = r.words.slice(1)
            const x = resolve({ ...r, words: rest, key: rest.join(" ") })
            if (x) {
              chosen = r
              found = x
              break
            }
          }
        }
        // "the TTS model" after "a text-to-speech model": an acronym of the words it stands for.
        if (!found) {
          const x = acronymReading(r0)
          if (x) {
            chosen = r0
            found = x
          }
        }
        if (!found && m.collective) {
          const x = resolve({ ...r0, key: m.collective, head: m.collective, words: [m.collective] })
          if (x) {
            chosen = r0
            found = x
          }
        }
        // "the LED die/dice", "the nut/bolt": either alternative may carry the basis.
        if (!found && r0.key.includes("/")) {
          for (const alt of slashAlternatives(r0)) {
            const x = resolve(alt)
            if (x) {
              chosen = r0
              found = x
              break
            }
          }
        }
      }

      if (m.kind === "each" || m.det.startsWith("each") || m.det.startsWith("every")) distributive.add((chosen ?? r0).key)
      if (m.kind === "each") {
        if (!found) for (const r of m.readings) register(m, r, { counting: false, weak: true })
        continue
      }

      const r = chosen ?? r0
      const term = normalise(text.slice(r.start, r.end))
      if (found) {
        const intros = found.intros
        const body = intros.filter((i) => !i.preamble)
        if (body.length === 0 && !intros.some((i) => i.subject) && m.region === "body" && !USER_TERMS.has(r.head) && !r.words.includes("step")) {
          if (!preambleReported.has(r.key)) {
            preambleReported.add(r.key)
            // A preamble that gives the basis is read as limiting: worth a look, not an error (cases.json preamble_basis).
            issue("preamble-only-basis", "low", term, r.start, r.end, true)
          }
        } else if (m.region === "body") {
          const firm = body.filter((i) => !i.weak)
          const candidates = firm.length > 0 ? firm : body
          const refNumber = numberOfReference(m, r)
          const counting = distinctOrigins(body.filter((i) => i.counting))
          // "the other array", "the corresponding scan line", "the following condition": one of those recited.
          const numberMatters = !m.coordinated && !r.words.includes("step") && !NON_RESTRICTIVE.has(r.words[0]) && !(m.ofNext === undefined && r.words[0] === "following")
          if (!numberMatters) {
            // Coordinations and method steps are counted loosely.
          } else if (refNumber === "sg" && candidates.length > 0 && candidates.every((i) => i.number === "pl") && !distributive.has(r.key) && !candidates.some((i) => distributive.has(i.key)) && !intros.some((i) => i.preamble && i.number !== "pl")) {
            // (A single one in the preamble, "a visitor to a webpage", is what "the webpage" names.)
            // "the end of the lanyard" after "two ends": a part of one thing is often meant, so only low.
            // "the device isolation region disposed at the source line region", "the category into which …": a description picks one; only low.
            // "for each of a plurality of time steps: … the reference phone label for the time step": one per step.
            issue("plural-singular-mismatch", isTied(m) || PICKED_BY.test(text.slice(r.end, r.end + 30)) || perMember(m) ? "low" : "medium", term, r.start, r.end)
          } else if (refNumber === "pl" && !isTied(m) && candidates.length > 0 && candidates.every((i) => i.number === "sg") && counting.length <= 1 && found.how === "exact") {
            // "said first tabs" after "a first tab … of each swirler": often distributive, so only low.
            issue("plural-singular-mismatch", "low", term, r.start, r.end)
          } else if (refNumber !== "pl" && !m.coordinated && !USER_TERMS.has(r.head) && !m.prev.endsWith("'s") && !text.slice(r.start, r.end).endsWith("'s")) {
            // Recitations in alternative parents ("claim 1 or claim 2") are never both in force.
            let rivals = inOneLine(counting)
            if (rivals.length > 1 && m.ofNext !== undefined) {
              const ofKey = ofChain(mentions, m)
              // "the amount of salt" after "an amount of salt" and "an amount of sugar": the "of" phrase decides;
              // "the address of said selected portion" after addresses of other things is an attribute of its own.
              rivals = rivals.filter((i) => i.ofKey === ofKey)
            }
            if (rivals.length > 1) {
              // "the access opening in the fastening bracket" after "the fastening bracket having an access opening": its owner decides.
              const where = ownerNamedAfter(m)
              const owned = where === undefined ? [] : rivals.filter((i) => i.owner === where)
              if (owned.length === 1) rivals = owned
            }
            if (rivals.length > 1 && m.scope !== undefined) {
              // "c) a second ceramic substrate comprising: a body …; pads bonded to the upper side of the body": the body of the element whose parts are being listed.
              const listed = rivals.filter((i) => (i.owner ?? i.listedIn) === m.scope)
              if (listed.length === 1) rivals = listed
            }
            if (rivals.length > 1 && m.ofNext === undefined) {
              // "said center" after "a center of gravity" and "a center (B)": a reference without an "of" phrase names the recitation without one.
              const plain = rivals.filter((i) => i.ofKey === undefined)
              if (plain.length > 0 && plain.length < rivals.length) rivals = plain
            }
            if (rivals.length > 1) {
              // "the electromagnetic field within the knee joint" after one "… within the knee joint" and one "… within a medial area": the words after it decide.
              const own = qualifierAt(tokens, m.tokEnd)
              const same = rivals.filter((i) => sameQualifier(i.qualifier, own))
              if (same.length === 1) rivals = same
            }
            const distinctKeys = new Set(rivals.map((i) => i.key))
            // "wherein X is the amount in atomic percent of said palladium": a symbol is being defined, not a thing picked.
            const defines = (m.prev === "is" || m.prev === "are") && m.detTok >= 2 && SYMBOL_WORD.test(text.slice(tokens[m.detTok - 2].start, tokens[m.detTok - 2].end))
            // "the state where the stopping unit is brought …", "the distance between a region … and a region …": a description no recitation shares picks its own.
            const describedBy = DESCRIBED_BY.exec(text.slice(r.end, r.end + 20))?.[0].trim()
            const ownQualifier = describedBy === undefined ? "" : qualifierAt(tokens, m.tokEnd)
            const described = describedBy !== undefined && (describedBy !== "between" || RELATIONS.has(r.head)) && !rivals.some((i) => samePrefix(i.qualifier, ownQualifier))
            const ambiguous = !defines && !described && ((found.how === "exact" && rivals.length > 1) || (found.how === "suffix" && distinctKeys.size > 1 && !r.plural))
            // "each said axis" after "a respective axis": each of them, whichever.
            // "for each linear light gradient …, said linear light gradient": each of them in turn; "the voltage divided by the divider" says which.
            if (ambiguous && !m.det.startsWith("each") && !distributive.has(r.key) && !DEFINED_BY.test(text.slice(r.end, r.end + 40)) && !refersToLatest(rivals, r.start) && !inheritedAmbiguity.has(r.key)) {
              ambiguityReported.add(r.key)
              issue("ambiguous-reference", "medium", term, r.start, r.end)
            }
          }
          if (modified.has(r.key) && !inRestatedStep(m)) issue("modified-reference", "low", term, r.start, r.end)
          // "a search engine environment … said environment", "a central region … the region": one element
          // carries that name, so the shorter reference is to it (MPEP 2173.05(e) asks for reasonable certainty, not the same words).
        }
      } else {
        const ctx = { text, mentions, beforePrev: m.detTok >= 2 ? tokens[m.detTok - 2].l : "", verbRootBefore, methodClaim: stemBefore("step"), formalClaim }
        let said = r
        let rule = suppressionFor(m, said, ctx)
        let graded = severityOf(severityContext, m, said)
        // "the light emission layer arranged close to said anode", "the wing create aerodynamic forces":
        // before a finding an attorney must weigh, the tagger says where the phrase ends (too slow to ask for every phrase).
        const cut = !rule && graded.severity !== "low" && !m.coordinated ? taggerReading(m) : undefined
        const cutFound = cut ? resolve(cut) : undefined
        // Report the phrase the tagger reads ("the battery cell", not "the battery cell varies"), but keep
        // "said water conducting pipe" whole: an -ing word inside a compound is as often a modifier as a verb.
        const cutAt = cut ? tokens.slice(m.tokStart, m.tokEnd).findIndex((w) => w.start > cut.end) : -1
        if (cut && !cutFound && !tokens[m.tokStart + cutAt]?.l.endsWith("ing")) {
          said = cut
          rule = suppressionFor(m, said, ctx)
          graded = severityOf(severityContext, m, said)
        }
        const saidTerm = normalise(text.slice(said.start, said.end))
        if (cutFound) said = cut!
        else if (rule) suppress(rule, graded.severity, saidTerm, said.start, said.end)
        else issue("no-antecedent-basis", graded.severity, saidTerm, said.start, said.end, graded.informational)
        register(m, said, { counting: false, weak: true })
      }
      for (const t of m.tails) register(m, t, { counting: false, weak: true })
      // "one of the ridges so that a shearing of the ridge": the member picked is one thing a later "the ridge" names.
      if (PICK_ONE.has(m.det)) distributive.add(r.key)

      // "modifying the original component included in the thing": later references to either are to a changed thing.
      const before = tokens[m.detTok - 1]
      // "wherein converting the display address …" names the parent's step again: nothing is changed anew.
      if (before && MODIFY_VERBS.has(before.l) && !restatesStep(m)) {
        modified.add(r.key)
        pendingModifyEnd = m.tokEnd
      } else if (pendingModifyEnd >= 0) {
        const between = tokens.slice(pendingModifyEnd, m.detTok)
        if (between.length > 0 && between.length <= 3 && between.every((t) => MODIFY_LINKERS.has(t.l))) modified.add(r.key)
        pendingModifyEnd = -1
      }
    }

    const state: ClaimState = {
      parsed: p, tokens, mentions, index, stemTable, ancestors, preambleReported, ambiguityReported, distributive, modified,
      issues: issues.sort((a, b) => a.start - b.start), suppressed, introducedTerms
    }
    inProgress.delete(p.number)
    states.set(p.number, state)
    return state
  }

  for (const p of byNumber.values()) if (!p.canceled) analyse(p)

  const floor = SEVERITY_RANK[options.minSeverity ?? "low"]
  const reports: ClaimReport[] = []
  const dependencies: DependencyInfo[] = []
  const all: AntecedentIssue[] = []
  const suppressedAll: SuppressedCandidate[] = []
  for (const p of parsed) {
    const st = states.get(p.number)
    const own = st && st.parsed === p ? st.issues.filter((i) => SEVERITY_RANK[i.severity] >= floor) : []
    reports.push({ number: p.number, isIndependent: p.isIndependent, dependsOn: p.dependsOn, introducedTerms: st && st.parsed === p ? st.introducedTerms : [], issues: own })
    dependencies.push({
      claimNumber: p.number,
      dependsOn: p.dependsOn,
      chain: st ? st.ancestors.map((a) => a.parsed.number).sort((a, b) => a - b) : [],
      valid: p.dependsOn.every((n) => n < p.number && byNumber.get(n)?.canceled === false)
    })
    all.push(...own)
    if (st && st.parsed === p) suppressedAll.push(...st.suppressed)
  }
  const bySeverity = { high: 0, medium: 0, low: 0 }
  let informational = 0
  const byType: Record<string, number> = {}
  for (const i of all) {
    bySeverity[i.severity]++
    if (i.informational) informational++
    byType[i.type] = (byType[i.type] ?? 0) + 1
  }
  return {
    available: true,
    issues: all,
    claims: reports,
    dependencies,
    stats: {
      claimCount: parsed.length,
      independentCount: parsed.filter((p) => p.isIndependent).length,
      issueCount: all.length,
      claimsWithIssues: reports.filter((c) => c.issues.length > 0).length,
      bySeverity,
      informational,
      byType
    },
    ...(options.includeSuppressed ? { suppressed: suppressedAll } : {})
  }
}

/** Readings with the first "a/b" word replaced by each alternative. */
const slashAlternatives = (r: Reading): Reading[] => {
  const at = r.words.findIndex((w) => w.includes("/"))
  if (at < 0) return []
  const out: Reading[] = []
  for (const part of r.words[at].split("/")) {
    if (!part) continue
    const words = r.words.slice()
    words[at] = at === words.length - 1 ? singular(part) : part
    out.push({ ...r, words, key: words.join(" "), head: words[words.length - 1] })
  }
  return out
}

/** "X", "Y1", "R6", "T2": a symbol a claim defines by a phrase. */
const SYMBOL_WORD = /^(?:[A-Z][a-z]?\d*|[a-z]\d+|[A-Z]{1,2}\d*'?)$/

const ARTICLES = new Set(["a", "an", "the", "said"])
/** "displayed at a browser" / "displayed in the browser": the preposition does not tell them apart. */
const PLACE_WORDS = new Set(["in", "at", "on", "onto", "into", "within"])

/**
 * The "of" phrases after a mention, joined ("liquid crystal of first pixel region" for "an
 * alignment of liquid crystal of the first pixel region"): three deep at most.
 */
const ofChain = (mentions: ReadonlyArray<Mention>, m: Mention): string | undefined => {
  let out: string | undefined
  let at = m.ofNext
  for (let n = 0; at !== undefined && n < 3; n++) {
    const next = mentions[at]
    const key = next.readings[0]?.key
    if (key === undefined) break
    out = out === undefined ? key : `${out} of ${key}`
    at = next.ofNext
  }
  return out
}

const firstWords = (q: string, n: number) => q.split(" ", n).join(" ")

/** One qualifier starts with the other, articles aside ("where the unit is able to" / "where the unit is unable to" differ). */
const samePrefix = (a: string, b: string): boolean => {
  const x = a.split(" ").filter((w) => w !== "" && !ARTICLES.has(w))
  const y = b.split(" ").filter((w) => w !== "" && !ARTICLES.has(w))
  const n = Math.min(x.length, y.length)
  if (n === 0) return false
  for (let k = 0; k < n; k++) if (x[k] !== y[k]) return false
  return true
}

/** The first words after two phrases agree ("within the knee joint" / "within the knee joint that …"). */
const sameQualifier = (a: string, b: string): boolean => {
  if (a === "" || b === "") return false
  // "between at least a first point …" / "between said first and second points": articles and "at least" do not tell them apart.
  // "the region thereof extending under …" / "a region extending under …": "thereof" only says whose.
  const words = (q: string) => q.replace(/\bat least\b/g, "").split(" ").filter((w) => w !== "" && !ARTICLES.has(w) && !PLACE_WORDS.has(w) && w !== "thereof")
  const x = words(a)
  const y = words(b)
  if (x.length === 0 || y.length === 0) return false
  // A label ("(i-1)") says which one by itself.
  if (x[0].startsWith("(") || y[0].startsWith("(")) return x[0] === y[0]
  const n = Math.min(2, x.length, y.length)
  for (let k = 0; k < n; k++) if (x[k] !== y[k]) return false
  return true
}

const distinctOrigins = (intros: Intro[]): Intro[] => {
  const seen = new Set<number>()
  const out: Intro[] = []
  for (const i of intros) {
    if (seen.has(i.origin)) continue
    seen.add(i.origin)
    out.push(i)
  }
  return out
}
