/** Claim text → word and punctuation tokens with character offsets into the text as given. */
import { isPlural } from "./lemma.ts"

/**
 * What is worked out once per distinct word: shared by every token of a word the tokeniser has seen before
 * (each other token has one of its own).
 */
export class WordInfo {
  /** The chunker's word classes of `l` (chunker.ts `classes`), -1 until first asked. */
  classes = -1
  /** Plural in form, for a word token; looked up on first use. */
  plural: boolean | undefined = undefined
  /** Its key words in a phrase (chunker.ts `keyWords`: "'s" dropped, split at "-"), filled on first use. */
  keyParts: ReadonlyArray<string> | undefined = undefined
  /** Whether it is skipped as a phrase's first key word (a leading adverb), filled with keyParts. */
  leadSkip = false
  /** What the word adds to a stem table (stem-table.ts), filled on first use. */
  stems: unknown = undefined

  constructor(readonly l: string) {}
}

export class Token {
  constructor(
    /** Lower-cased text ("said", ";"). */
    readonly l: string,
    readonly start: number,
    readonly end: number,
    readonly word: boolean,
    readonly info: WordInfo
  ) {}

  /** Plural in form; looked up on first use, since only the words of noun phrases are ever asked. */
  get plural(): boolean {
    const info = this.info
    return (info.plural ??= this.word && isPlural(this.l))
  }
}

// "P&C controller", "R&D": an ampersand between letters joins one word. The tokens this pattern
// would match, read by hand below:
// /[A-Za-z0-9\u00C0-\u024F]+(?:[-'\u2019/&][A-Za-z0-9\u00C0-\u024F]+)*|[^\sA-Za-z0-9\u00C0-\u024F]/g

const LETTER = /^[\p{L}\p{N}]/u

/** "R'", "Uk'", "R′′": a symbol with primes is another symbol than the one without ("a random number R'" after "a random number R"). */
const SYMBOL = /^[A-Z][A-Za-z]?\d*$/
const PRIMES = /['\u2019\u2032\u2033]+(?![A-Za-z0-9])/y

/** Apostrophes and primes that read as "'": most claims have none, and then no token is looked at for them. */
const PRIME_CHARS = /[\u2019\u2032\u2033]/

/** A code unit of a word: A-Z, a-z, 0-9, U+00C0-U+024F (the pattern's class). */
const isWordUnit = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || (c >= 0xc0 && c <= 0x24f)
/** What may join two runs of word units into one token: - ' \u2019 / &. */
const isJoiner = (c: number) => c === 45 || c === 39 || c === 0x2019 || c === 47 || c === 38
/** JavaScript's \s. */
const isSpace = (c: number) =>
  c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
  c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff

/**
 * The text of ASCII words seen before, in a slot picked by a hash of their lower-case code units: a token of a known
 * word takes the string made for it the first time (no slice, no lower-casing, and its hash for every set and map
 * lookup after is already worked out). A slot holds the first word that landed in it; a later word landing in a
 * taken slot is read the plain way (an array read instead of a map lookup per word).
 */
const KNOWN_SLOTS = 1 << 17
const KNOWN_WORDS: Array<WordInfo | undefined> = new Array(KNOWN_SLOTS).fill(undefined)

const PUNCTUATION: Array<WordInfo | undefined> = new Array(128).fill(undefined)

/** Whether a prime (or an apostrophe read as one) stands at `at`: ' \u2019 \u2032 \u2033, the first units PRIMES takes. */
const isPrimeAt = (text: string, at: number): boolean => {
  const c = text.charCodeAt(at)
  return c === 39 || c === 0x2019 || c === 0x2032 || c === 0x2033
}

/** Whether `known` is text[at, end) in lower case (known is lower-case ASCII). */
const isKnownAt = (known: string, text: string, at: number, end: number): boolean => {
  if (known.length !== end - at) return false
  for (let k = at; k < end; k++) {
    let c = text.charCodeAt(k)
    if (c >= 65 && c <= 90) c += 32
    if (c !== known.charCodeAt(k - at)) return false
  }
  return true
}

/**
 * Tokens as the pattern above would match them, read code unit by code unit: the checker tokenises every
 * claim, and the scan allocates no match arrays.
 */
export const tokenize = (text: string, from = 0): Token[] => {
  const out: Token[] = []
  const primes = PRIME_CHARS.test(text)
  const n = text.length
  let i = from
  while (i < n) {
    const c0 = text.charCodeAt(i)
    if (isSpace(c0)) {
      i++
      continue
    }
    const at = i
    let end = i + 1
    // The hash of the word's lower-case code units is worked out as it is scanned (-1 past a non-ASCII unit).
    let h = c0 >= 65 && c0 <= 90 ? c0 + 32 : c0
    let ascii = c0 < 0x80
    if (isWordUnit(c0)) {
      for (;;) {
        while (end < n) {
          let c = text.charCodeAt(end)
          if (!isWordUnit(c)) break
          if (c >= 0x80) ascii = false
          else if (c >= 65 && c <= 90) c += 32
          h = (Math.imul(h, 31) + c) & 0x3fffffff
          end++
        }
        if (end + 1 < n) {
          const j = text.charCodeAt(end)
          if (isJoiner(j) && isWordUnit(text.charCodeAt(end + 1))) {
            if (j >= 0x80) ascii = false
            h = (Math.imul(h, 31) + j) & 0x3fffffff
            end++
            continue
          }
        }
        break
      }
    }
    // A word opening with a letter or digit, ASCII throughout, lower case is A-Z → a-z; one opening with a capital
    // ("The", "A", "CPU") only when no prime follows it (a symbol with primes, "R'", is read the plain way below).
    let hash = -1
    if (ascii && ((c0 >= 97 && c0 <= 122) || (c0 >= 48 && c0 <= 57) || (c0 >= 65 && c0 <= 90 && !isPrimeAt(text, end)))) {
      hash = h
      const known = KNOWN_WORDS[h & (KNOWN_SLOTS - 1)]
      if (known !== undefined && isKnownAt(known.l, text, at, end)) {
        i = end
        out.push(new Token(known.l, at, end, true, known))
        continue
      }
    }
    let raw = text.slice(at, end)
    if (c0 >= 65 && c0 <= 90 && SYMBOL.test(raw)) {
      PRIMES.lastIndex = end
      const primed = PRIMES.exec(text)
      if (primed) {
        raw += primed[0]
        end = PRIMES.lastIndex
      }
    }
    i = end
    // Beyond ASCII only letters and digits make a word: a dash or a degree sign is punctuation.
    const word = (c0 >= 48 && c0 <= 57) || (c0 >= 65 && c0 <= 90) || (c0 >= 97 && c0 <= 122) || (c0 >= 0xc0 && LETTER.test(raw))
    const lower = raw.toLowerCase()
    if (hash >= 0 && KNOWN_WORDS[hash & (KNOWN_SLOTS - 1)] === undefined) {
      // (ASCII, opened by a letter or digit, no primes taken: a word token, its text the lower-cased slice.)
      const info = new WordInfo(lower)
      KNOWN_WORDS[hash & (KNOWN_SLOTS - 1)] = info
      out.push(new Token(lower, at, at + raw.length, word, info))
      continue
    }
    if (!word && c0 < 0x80 && end === at + 1) {
      // ";", ",", "(": one shared info per ASCII punctuation mark.
      const info = (PUNCTUATION[c0] ??= new WordInfo(lower))
      out.push(new Token(info.l, at, end, false, info))
      continue
    }
    const l = primes && PRIME_CHARS.test(lower) ? lower.replace(/\u2019|\u2032/g, "'").replace(/\u2033/g, "''") : lower
    out.push(new Token(l, at, at + raw.length, word, new WordInfo(l)))
  }
  return out
}
