/**
 * Seeded randomness. Every document draws from its own small generator seeded by
 * (corpus seed, document index, purpose), so any document can be regenerated on its own, in any
 * order, byte for byte: the grant pass writes in issue order what the application pass wrote in
 * filing order, and a citing document can recompute the cheap facts of a cited one.
 */
import { seededRandom } from "../../core/random.ts"

/** murmur3's 32-bit finaliser: a bijective avalanche mix. */
export const mix32 = (x: number): number => {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b)
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35)
  return (x ^ (x >>> 16)) >>> 0
}

export const hash2 = (a: number, b: number): number => mix32((mix32(a ^ 0x9e3779b9) + b) | 0)

export const hash3 = (a: number, b: number, c: number): number => mix32((hash2(a, b) + Math.imul(c, 0x27d4eb2f)) | 0)

/** FNV-1a of a string, for seeding from names (CPC symbols, art units). */
export const hashString = (s: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
  return h >>> 0
}

/** A uniform number in [0, 1) from a 32-bit hash. */
export const unit = (h: number): number => h / 4294967296

/** Purposes a document's generators are seeded for; separate streams keep recomputation cheap. */
export const Stream = {
  header: 1,
  prosecution: 2,
  parties: 3,
  text: 4,
  claims: 5,
  citations: 6,
  continuity: 7,
  numbers: 8
} as const

/** The project's seeded PRNG (core/random.ts) with the draws synthetic documents need. */
export class Rng {
  readonly next: () => number
  constructor(seed: number) {
    this.next = seededRandom(seed)
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n)
  }

  /** An integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1))
  }

  chance(p: number): boolean {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]
  }

  /** Triangular distribution: bounded, with a mode, as pendency and response times are. */
  triangular(lo: number, mode: number, hi: number): number {
    const u = this.next()
    const c = (mode - lo) / (hi - lo)
    return u < c ? lo + Math.sqrt(u * (hi - lo) * (mode - lo)) : hi - Math.sqrt((1 - u) * (hi - lo) * (hi - mode))
  }

  /** Exponential with the given mean (recency of cited documents, citation counts). */
  exponential(mean: number): number {
    return -Math.log(1 - this.next()) * mean
  }
}

/** The generator for one purpose of one document. */
export const docRng = (seed: number, index: number, stream: number): Rng => new Rng(hash3(seed, index, stream))

/** Accepts a number or any string (hashed) as the corpus seed. */
export const parseSeed = (s: string | number): number => {
  if (typeof s === "number") return s >>> 0
  return /^\d+$/.test(s.trim()) ? Number(s.trim()) >>> 0 : hashString(s)
}
