/**
 * Text → the rows of a fastText-style input matrix, exactly as the trainer (fastText 0.9.x, here
 * its WebAssembly build) computes them, so the hub needs no fastText at run time:
 *
 * - words: NFKC-folded, lower-cased runs of letters and digits (the trainer is fed the same
 *   normalised text, one record per line); two-word terms the trainer learned as one token
 *   ("point_cloud") are added beside their words (textTokens);
 * - a dictionary word is its own row plus its character n-grams' rows; a word the dictionary
 *   lacks is its n-grams' rows alone, so no word is ever out of vocabulary;
 * - n-grams of "<word>" of minn … maxn code points, hashed with 32-bit FNV-1a over the UTF-8
 *   bytes (each byte sign-extended, as fastText's `uint32_t(int8_t(c))`), row nwords + h mod bucket.
 *
 * A word's vector is the mean of its rows (fastText's getWordVector; subword-onnx.ts computes it
 * in the graph); a text's vector is the SIF-weighted sum of its unit word vectors less their
 * common component (subword-encoder.ts pools it).
 */
import type { SubwordEncoderSettings } from "./subword-format.ts"

const wordRun = /[\p{L}\p{N}]+/gu

/** The words of a text as the trainer saw them: its runs of letters and digits, after folding. */
export const subwordTokens = (text: string): string[] => text.normalize("NFKC").toLowerCase().match(wordRun) ?? []

/** One line of training text: the words joined by single spaces. */
export const trainingLine = (text: string): string => subwordTokens(text).join(" ")

/**
 * The token of a two-word term ("point cloud" → "point_cloud"): the trainer learns it as a word
 * where the training text had the two words side by side (pipeline/encoder/phrases.ts), and no
 * word of that text contains an underscore.
 */
export const phraseToken = (first: string, second: string): string => `${first}_${second}`

/** Whether a dictionary token is a two-word term (phraseToken) rather than a word. */
export const isPhraseToken = (token: string): boolean => token.includes("_")

/**
 * The tokens a text is pooled from: its words, each adjacent pair the dictionary holds as a
 * phrase added after its second word. The words stay: "lidar point cloud" keeps "point" and
 * "cloud" and adds "point_cloud", so a phrase adds its meaning and a text is never worse off
 * than its words alone. Without `phrases` in the settings (folders written before them), words only.
 */
export const textTokens = (text: string, settings: Pick<SubwordEncoderSettings, "phrases">, dictionary: SubwordDictionary): string[] => {
  const words = subwordTokens(text)
  if (!settings.phrases) return words
  const tokens: string[] = []
  for (let i = 0; i < words.length; i++) {
    tokens.push(words[i])
    if (i === 0) continue
    const phrase = phraseToken(words[i - 1], words[i])
    if (dictionary.row(phrase) !== undefined) tokens.push(phrase)
  }
  return tokens
}

const utf8 = new TextEncoder()

/** fastText's Dictionary::hash: FNV-1a over sign-extended bytes. */
export const fastTextHash = (bytes: Uint8Array, start = 0, end = bytes.length): number => {
  let h = 2166136261
  for (let i = start; i < end; i++) {
    h = (h ^ ((bytes[i] << 24) >> 24)) >>> 0
    h = Math.imul(h, 16777619) >>> 0
  }
  return h
}

/** Input-matrix rows of the character n-grams of `word` (fastText's computeSubwords on "<word>"). */
export const ngramRows = (word: string, s: Pick<SubwordEncoderSettings, "minn" | "maxn" | "bucket" | "nwords">): number[] => {
  const rows: number[] = []
  if (s.maxn <= 0 || s.bucket <= 0) return rows
  const b = utf8.encode(`<${word}>`)
  const continuation = (x: number) => (x & 0xc0) === 0x80
  for (let i = 0; i < b.length; i++) {
    if (continuation(b[i])) continue
    let j = i
    for (let n = 1; j < b.length && n <= s.maxn; n++) {
      j++
      while (j < b.length && continuation(b[j])) j++
      if (n >= s.minn && !(n === 1 && (i === 0 || j === b.length))) rows.push(s.nwords + (fastTextHash(b, i, j) % s.bucket))
    }
  }
  return rows
}

/** The trainer's dictionary: word → row, with the corpus count of each word. */
export class SubwordDictionary {
  private readonly rowOf: Map<string, number>

  constructor(
    readonly words: ReadonlyArray<string>,
    readonly counts: ReadonlyArray<number>
  ) {
    if (words.length !== counts.length) throw new Error("dictionary words and counts differ in length")
    this.rowOf = new Map(words.map((w, i) => [w, i]))
  }

  row(word: string): number | undefined {
    return this.rowOf.get(word)
  }

  count(word: string): number {
    const r = this.rowOf.get(word)
    return r === undefined ? 0 : this.counts[r]
  }
}

/** Input-matrix rows whose mean is the word's vector: its own row (when known) and its n-grams'. */
export const wordRows = (word: string, settings: SubwordEncoderSettings, dictionary: SubwordDictionary): number[] => {
  const own = dictionary.row(word)
  const grams = ngramRows(word, settings)
  return own === undefined ? grams : [own, ...grams]
}

/**
 * SIF weight a / (a + p(word)); a word the trainer never kept (p = 0) weighs 1. A phrase token
 * (textTokens) weighs `phraseWeight` times that: it is rarer than its words, so SIF alone would
 * let it outweigh both.
 */
export const sifWeight = (word: string, settings: SubwordEncoderSettings, dictionary: SubwordDictionary): number => {
  const { a, totalTokens } = settings.pooling
  const p = totalTokens > 0 ? dictionary.count(word) / totalTokens : 0
  const weight = a / (a + p)
  return settings.phrases && isPhraseToken(word) ? weight * (settings.phraseWeight ?? 1) : weight
}

export interface SubwordFeatures {
  /** The distinct words of the text, in order of first occurrence. */
  readonly words: ReadonlyArray<string>
  /** Each word's input-matrix rows (never empty). */
  readonly rows: ReadonlyArray<ReadonlyArray<number>>
  /** Each word's weight in the pooled vector: occurrences × SIF weight. */
  readonly weights: Float32Array
}

/** The distinct tokens of a text (textTokens), in order of first occurrence, with how often each occurs. */
export const wordOccurrences = (text: string, settings: Pick<SubwordEncoderSettings, "phrases">, dictionary: SubwordDictionary): Map<string, number> => {
  const occurrences = new Map<string, number>()
  for (const w of textTokens(text, settings, dictionary)) occurrences.set(w, (occurrences.get(w) ?? 0) + 1)
  return occurrences
}

export const featurizeSubwordText = (text: string, settings: SubwordEncoderSettings, dictionary: SubwordDictionary): SubwordFeatures => {
  const words: string[] = []
  const rows: number[][] = []
  const weights: number[] = []
  for (const [word, tf] of wordOccurrences(text, settings, dictionary)) {
    const r = wordRows(word, settings, dictionary)
    if (r.length === 0) continue
    words.push(word)
    rows.push(r)
    weights.push(tf * sifWeight(word, settings, dictionary))
  }
  return { words, rows, weights: Float32Array.from(weights) }
}
