/**
 * Two-word terms of art ("point cloud", "heat exchanger", "fuel cell") found in the training text
 * and joined into one token before skip-gram training, so each gets a vector of its own: the
 * words of "point cloud" alone say weather as much as lidar. A pair is a term when it occurs
 * often enough and its words occur together far more than chance would have them: normalised
 * pointwise mutual information (Bouma 2009), ln(p(ab) / (p(a) p(b))) / −ln p(ab), which is 1
 * for words seen only together and 0 for independent ones. A pair of words that are everywhere
 * ("of the") scores low; a fixed function phrase can still pass ("according to" does, at a low
 * SIF weight, as common tokens have).
 *
 * The joined token is the two words with an underscore between them (core/encoder/subwords.ts
 * phraseToken), a character no word of the trainer's text contains, so the dictionary's own
 * entries are the phrase list the encoder reads back.
 */
import { phraseToken } from "../../core/encoder/subwords.ts"

export interface PhraseOptions {
  /** Occurrences a pair needs (the trainer keeps a word from its minCount, so at least that). */
  readonly minCount: number
  /** Normalised PMI a pair needs, in (0, 1]. */
  readonly threshold: number
  /** Phrases kept at most, the highest-scoring first. */
  readonly maxPhrases: number
}

export const defaultPhraseOptions: PhraseOptions = { minCount: 5, threshold: 0.5, maxPhrases: 200_000 }

/**
 * A word that can be part of a term: two letters or more and no digit. CPC titles cite other
 * classes inline ("see B25B 17/00"), whose symbols would otherwise pair with the word before them.
 */
const termWord = (w: string) => w.length > 1 && /^\p{L}+$/u.test(w)

/**
 * The phrases of `lines` (words joined by single spaces), as joined tokens. The lines are the
 * trainer's whole budget (8M words at most, however large the corpus), so the pair counts stay
 * bounded: on the sample's 8.2M words, 6-10 s, the process at 0.6 GB with every line held.
 */
export const detectPhrases = (lines: ReadonlyArray<string>, options: PhraseOptions = defaultPhraseOptions): Set<string> => {
  const unigrams = new Map<string, number>()
  const bigrams = new Map<string, number>()
  let tokens = 0
  for (const line of lines) {
    const words = line.split(" ")
    for (let i = 0; i < words.length; i++) {
      const w = words[i]
      if (!w) continue
      tokens++
      unigrams.set(w, (unigrams.get(w) ?? 0) + 1)
      if (i > 0 && termWord(words[i - 1]) && termWord(w)) {
        const pair = words[i - 1] + " " + w
        bigrams.set(pair, (bigrams.get(pair) ?? 0) + 1)
      }
    }
  }
  const scored: Array<{ phrase: string; score: number }> = []
  for (const [pair, n] of bigrams) {
    if (n < options.minCount) continue
    const space = pair.indexOf(" ")
    const a = pair.slice(0, space)
    const b = pair.slice(space + 1)
    const pab = n / tokens
    const npmi = Math.log(pab / ((unigrams.get(a)! / tokens) * (unigrams.get(b)! / tokens))) / -Math.log(pab)
    if (npmi >= options.threshold) scored.push({ phrase: phraseToken(a, b), score: npmi })
  }
  scored.sort((x, y) => y.score - x.score || (x.phrase < y.phrase ? -1 : 1))
  return new Set(scored.slice(0, options.maxPhrases).map((s) => s.phrase))
}

/** A training line with every phrase joined, left to right, a word joining at most one phrase. */
export const joinPhrases = (line: string, phrases: ReadonlySet<string>): string => {
  if (phrases.size === 0) return line
  const words = line.split(" ")
  const out: string[] = []
  for (let i = 0; i < words.length; i++) {
    const joined = i + 1 < words.length ? phraseToken(words[i], words[i + 1]) : undefined
    if (joined !== undefined && phrases.has(joined)) {
      out.push(joined)
      i++
    } else out.push(words[i])
  }
  return out.join(" ")
}
