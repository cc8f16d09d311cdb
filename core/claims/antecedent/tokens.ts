/** Claim text → word and punctuation tokens with character offsets into the text as given. */
import { isPlural } from "./lemma.ts"

export class Token {
  private pluralMemo: boolean | undefined = undefined

  constructor(
    /** Lower-cased text ("said", ";"). */
    readonly l: string,
    readonly start: number,
    readonly end: number,
    readonly word: boolean
  ) {}

  /** Plural in form; looked up on first use, since only the words of noun phrases are ever asked. */
  get plural(): boolean {
    return (this.pluralMemo ??= this.word && isPlural(this.l))
  }
}

// "P&C controller", "R&D": an ampersand between letters joins one word.
const TOKEN = /[A-Za-z0-9\u00C0-\u024F]+(?:[-'\u2019/&][A-Za-z0-9\u00C0-\u024F]+)*|[^\sA-Za-z0-9\u00C0-\u024F]/g

const LETTER = /^[\p{L}\p{N}]/u

/** "R'", "Uk'", "R′′": a symbol with primes is another symbol than the one without ("a random number R'" after "a random number R"). */
const SYMBOL = /^[A-Z][A-Za-z]?\d*$/
const PRIMES = /['\u2019\u2032\u2033]+(?![A-Za-z0-9])/y

/** Apostrophes and primes that read as "'": most claims have none, and then no token is looked at for them. */
const PRIME_CHARS = /[\u2019\u2032\u2033]/

export const tokenize = (text: string, from = 0): Token[] => {
  const out: Token[] = []
  const primes = PRIME_CHARS.test(text)
  TOKEN.lastIndex = from
  for (let m = TOKEN.exec(text); m !== null; m = TOKEN.exec(text)) {
    let raw = m[0]
    const c0 = raw.charCodeAt(0)
    if (c0 >= 65 && c0 <= 90 && SYMBOL.test(raw)) {
      PRIMES.lastIndex = m.index + raw.length
      const primes = PRIMES.exec(text)
      if (primes) {
        raw += primes[0]
        TOKEN.lastIndex = PRIMES.lastIndex
      }
    }
    const c = c0
    // Beyond ASCII only letters and digits make a word: a dash or a degree sign is punctuation.
    const word = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 0xc0 && LETTER.test(raw))
    const lower = raw.toLowerCase()
    out.push(new Token(primes && PRIME_CHARS.test(lower) ? lower.replace(/\u2019|\u2032/g, "'").replace(/\u2033/g, "''") : lower, m.index, m.index + raw.length, word))
  }
  return out
}
