/** Porter stems of a claim's words up to a point, computed lazily: most claims never need them. */
import { singularStem } from "./lemma.ts"
import type { Token } from "./tokens.ts"

/** What a word adds to a stem table, worked out once per distinct word (claims reuse a small vocabulary). */
interface WordStems {
  /** Its own singular stem, then those of its "-" / "/" parts and of the word joined. */
  readonly stems: ReadonlyArray<string>
  /** The -ing / -ed stems among them. */
  readonly verbStems: ReadonlyArray<string>
}

const wordStems = new Map<string, WordStems>()

const stemsOfWord = (w: string): WordStems => {
  let ws = wordStems.get(w)
  if (ws !== undefined) return ws
  const stems: string[] = []
  const verbStems: string[] = []
  const add = (x: string) => {
    const s = singularStem(x)
    stems.push(s)
    if (x.endsWith("ing") || x.endsWith("ed")) verbStems.push(s)
  }
  add(w)
  // "de-husking" says "husk", "time-stamped" says "time stamp", "die/dice" says "die".
  if (w.includes("-") || w.includes("/")) {
    for (const part of w.split(/[-/]/)) if (part.length > 1) add(part)
    stems.push(singularStem(w.replace(/[-/]/g, "")))
  }
  ws = { stems, verbStems }
  if (wordStems.size < 200_000) wordStems.set(w, ws)
  return ws
}

/** The stems of a table that has none yet: shared, never written to (a table makes its own at its first stem). */
const NO_STEMS: ReadonlySet<string> = new Set()

export class StemTable {
  /** Read after `fill` only. */
  stems: ReadonlySet<string> = NO_STEMS
  /** Stems of -ing / -ed words: a later "the rotation" may name the step "rotating". */
  verbStems: ReadonlySet<string> = NO_STEMS
  private cursor = 0

  constructor(private readonly tokens: ReadonlyArray<Token>) {}

  /** Adds the stems of every word that starts before `upTo`. */
  fill(upTo: number) {
    const t = this.tokens
    while (this.cursor < t.length && t[this.cursor].start < upTo) {
      const x = t[this.cursor++]
      if (!x.word) continue
      const info = x.info
      const ws = (info.stems ??= stemsOfWord(x.l)) as WordStems
      const stems = ws.stems
      if (stems.length > 0) {
        const own = (this.stems === NO_STEMS ? (this.stems = new Set()) : this.stems) as Set<string>
        for (let k = 0; k < stems.length; k++) own.add(stems[k])
      }
      const verbs = ws.verbStems
      if (verbs.length > 0) {
        const own = (this.verbStems === NO_STEMS ? (this.verbStems = new Set()) : this.verbStems) as Set<string>
        for (let k = 0; k < verbs.length; k++) own.add(verbs[k])
      }
    }
  }
}
