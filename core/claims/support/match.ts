/**
 * Finding a claim term in the specification at phrase level: the head word is looked up by its
 * stem, then the modifiers are matched backwards from it. A term counts as found when its words
 * stand together (as written, as lemmas or as stems), stand in order with a few words between
 * ("first and second gears", "lever of the arm") or, for short terms, share a sentence. Ordinals
 * are drafting labels: "a first lever" is found as "lever 12" when no "first lever" is written.
 */
import { ORDINALS } from "../antecedent/lexicon.ts"
import { lemmaOf, stemOfLemma, type TextIndex, type Word } from "./text-index.ts"
import type { MatchKind } from "./types.ts"

export interface TermMatch {
  readonly p: number
  /** Character offsets in the paragraph text. */
  readonly start: number
  readonly end: number
  /** Word indexes of the first and last matched word. */
  readonly first: number
  readonly last: number
  readonly head: number
  readonly sentence: number
  readonly kind: MatchKind
}

interface TermWord {
  readonly surface: string
  readonly lemma: string
  readonly stem: string
  readonly optional: boolean
}

const MAX_GAP = 3
const SCATTER_WINDOW = 12
/** Occurrences of a head examined per term: enough for grading, bounded for long specifications. */
const MAX_ANCHORS = 4000

const termWords = (raw: ReadonlyArray<string>): TermWord[] => {
  // The claim tokenizer keeps "air/fuel" and "lever's" whole; the specification index splits at "/".
  const words = raw.flatMap((w) => w.split("/").filter((p) => p !== ""))
  const allOrdinal = words.every((w) => ORDINALS.has(w))
  return words.map((w) => {
    const lemma = lemmaOf(w)
    return { surface: w, lemma, stem: stemOfLemma(lemma), optional: !allOrdinal && ORDINALS.has(w) }
  })
}

const KIND_RANK: Record<MatchKind, number> = { exact: 0, lemma: 1, stem: 2, gapped: 3, scattered: 4 }
export const matchRank = (k: MatchKind) => KIND_RANK[k]

/** All words contiguous, ending at the head: the best kind they agree at, or undefined. */
const contiguous = (ws: ReadonlyArray<Word>, head: number, tw: ReadonlyArray<TermWord>): MatchKind | undefined => {
  const first = head - (tw.length - 1)
  if (first < 0) return undefined
  let kind: MatchKind = "exact"
  for (let j = 0; j < tw.length; j++) {
    const w = ws[first + j]
    if (w.sentence !== ws[head].sentence || w.stem !== tw[j].stem) return undefined
    if (w.lemma !== tw[j].lemma) kind = "stem"
    else if (kind === "exact" && w.l !== tw[j].surface) kind = "lemma"
  }
  return kind
}

/** Required words in order before the head, at most MAX_GAP words skipped in all. Returns the first word index. */
const gapped = (ws: ReadonlyArray<Word>, head: number, required: ReadonlyArray<TermWord>): number | undefined => {
  let k = head - 1
  let skipped = 0
  for (let j = required.length - 2; j >= 0; j--) {
    while (k >= 0 && ws[k].sentence === ws[head].sentence && ws[k].stem !== required[j].stem && skipped <= MAX_GAP) {
      k--
      skipped++
    }
    if (k < 0 || ws[k].sentence !== ws[head].sentence || skipped > MAX_GAP || ws[k].stem !== required[j].stem) return undefined
    k--
  }
  return k + 1
}

/** Every required word within the window around the head, in the same sentence ("housing of the gear"). */
const scattered = (ws: ReadonlyArray<Word>, head: number, required: ReadonlyArray<TermWord>): { first: number; last: number } | undefined => {
  let first = head
  let last = head
  for (const t of required.slice(0, -1)) {
    let found = -1
    for (let d = 1; d <= SCATTER_WINDOW && found < 0; d++) {
      for (const k of [head - d, head + d]) {
        if (k >= 0 && k < ws.length && ws[k].sentence === ws[head].sentence && ws[k].stem === t.stem) {
          found = k
          break
        }
      }
    }
    if (found < 0) return undefined
    first = Math.min(first, found)
    last = Math.max(last, found)
  }
  return { first, last }
}

/** Every place the term is found, in document order, one per head occurrence. */
export const findTerm = (index: TextIndex, words: ReadonlyArray<string>): TermMatch[] => {
  const tw = termWords(words)
  if (tw.length === 0) return []
  const required = tw.filter((t) => !t.optional)
  const head = required[required.length - 1]
  const anchors = index.byStem.get(head.stem) ?? []
  const out: TermMatch[] = []
  let lastScatterSentence = ""
  for (let a = 0; a < anchors.length && a < MAX_ANCHORS; a++) {
    const { p, w: h } = anchors[a]
    const ws = index.paragraphs[p].words
    const at = (first: number, last: number, kind: MatchKind): TermMatch => ({
      p, first, last, head: h, kind, start: ws[first].start, end: ws[last].end, sentence: ws[h].sentence
    })
    // The head must be the last word of the full term ("lever" in "locking lever") unless ordinals trail.
    const full = tw[tw.length - 1].optional ? undefined : contiguous(ws, h, tw)
    if (full) {
      out.push(at(h - (tw.length - 1), h, full))
      continue
    }
    if (required.length < tw.length) {
      const bare = contiguous(ws, h, required)
      if (bare) {
        out.push(at(h - (required.length - 1), h, "gapped"))
        continue
      }
    }
    if (required.length === 1) continue
    const g = gapped(ws, h, required)
    if (g !== undefined) {
      out.push(at(g, h, "gapped"))
      continue
    }
    if (required.length <= 4) {
      const s = scattered(ws, h, required)
      const key = `${p}:${ws[h].sentence}`
      if (s && key !== lastScatterSentence) {
        lastScatterSentence = key
        out.push(at(s.first, s.last, "scattered"))
      }
    }
  }
  return out
}
