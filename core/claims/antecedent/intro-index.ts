/** Recitations a later reference can rest on: one index per claim, seen from a claim through its chain. */
import type { GrammaticalNumber, Mention } from "./chunker.ts"

export interface Intro {
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
  /** Recited at the head of a clause of its own (after ";" or ":"), as a claim element is. */
  readonly clauseStart: boolean
  readonly qualifier: string
  /** Key of the phrase after "of", to tell "a top of the frame" from "a top of the display". */
  readonly ofKey?: string
  /** The element it was recited as a part of ("a distal end" of "a catheter having a distal end"). */
  readonly owner?: string
  /** The element in whose list of parts it was recited ("c) a second substrate comprising: a body …"). */
  readonly listedIn?: string
  /** Opened by "another" or "a further": a second one of something already recited. */
  readonly another: boolean
  /** The mention that made it (claim and offset): several keys of one mention count once. */
  readonly origin: number
}

/** Offsets of mentions are folded into one number per claim: claim × this + offset. */
export const ORIGIN_SPAN = 1_000_000

const push = <K, V>(m: Map<K, V[]>, k: K, v: V) => {
  const l = m.get(k)
  if (l) l.push(v)
  else m.set(k, [v])
}

/** One claim's own intros, by key and by head noun; a claim sees its own plus its ancestors' (no copying). */
export class IntroIndex {
  readonly byKey = new Map<string, Intro[]>()
  readonly byHead = new Map<string, Intro[]>()

  add(i: Intro) {
    push(this.byKey, i.key, i)
    push(this.byHead, i.head, i)
  }
}

/** The intros visible from a claim: its own so far, then each ancestor's. */
export class ChainView {
  constructor(
    private readonly own: IntroIndex,
    private readonly ancestors: ReadonlyArray<{ readonly index: IntroIndex }>
  ) {}

  // One method per map, and loops instead of callbacks: these are asked for every mention.
  key(k: string): Intro[] | undefined {
    let out = this.own.byKey.get(k)
    const ancestors = this.ancestors
    for (let n = 0; n < ancestors.length; n++) {
      const more = ancestors[n].index.byKey.get(k)
      if (more) out = out ? out.concat(more) : more
    }
    return out
  }

  head(h: string): Intro[] | undefined {
    let out = this.own.byHead.get(h)
    const ancestors = this.ancestors
    for (let n = 0; n < ancestors.length; n++) {
      const more = ancestors[n].index.byHead.get(h)
      if (more) out = out ? out.concat(more) : more
    }
    return out
  }

  /** Whether anything is recited under a key, without gathering the intros. */
  hasKey(k: string): boolean {
    if (this.own.byKey.has(k)) return true
    const ancestors = this.ancestors
    for (let n = 0; n < ancestors.length; n++) if (ancestors[n].index.byKey.has(k)) return true
    return false
  }

  hasHead(h: string): boolean {
    if (this.own.byHead.has(h)) return true
    const ancestors = this.ancestors
    for (let n = 0; n < ancestors.length; n++) if (ancestors[n].index.byHead.has(h)) return true
    return false
  }
}

/** One intro per mention that made it. */
export const distinctOrigins = (intros: ReadonlyArray<Intro>): Intro[] => {
  // A few intros (most references have one or two) are compared pairwise: no set made.
  if (intros.length <= 8) {
    const out: Intro[] = []
    for (let k = 0; k < intros.length; k++) {
      let again = false
      for (let j = 0; j < out.length && !again; j++) again = out[j].origin === intros[k].origin
      if (!again) out.push(intros[k])
    }
    return out
  }
  const seen = new Set<number>()
  const out: Intro[] = []
  for (const i of intros) {
    if (seen.has(i.origin)) continue
    seen.add(i.origin)
    out.push(i)
  }
  return out
}

/**
 * The "of" phrases after a mention, joined ("liquid crystal of first pixel region" for "an
 * alignment of liquid crystal of the first pixel region"): three deep at most.
 */
export const ofChain = (mentions: ReadonlyArray<Mention>, m: Mention): string | undefined => {
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
