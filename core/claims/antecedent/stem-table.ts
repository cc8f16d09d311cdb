/** Porter stems of a claim's words up to a point, computed lazily: most claims never need them. */
import { singularStem } from "./lemma.ts"
import type { Token } from "./tokens.ts"

export class StemTable {
  readonly stems = new Set<string>()
  /** Stems of -ing / -ed words: a later "the rotation" may name the step "rotating". */
  readonly verbStems = new Set<string>()
  private cursor = 0

  constructor(private readonly tokens: ReadonlyArray<Token>) {}

  /** Adds the stems of every word that starts before `upTo`. */
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
