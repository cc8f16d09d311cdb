/**
 * Bounded selection of the k best (key, score) pairs: a binary min-heap on score, so picking the
 * top k of n candidates costs O(n log k) instead of sorting everything. Ties keep the smaller
 * key, so rankings are deterministic.
 */
export interface Scored {
  readonly key: number
  readonly score: number
}

/** true when a ranks below b (lower score, or equal score and larger key). */
const worse = (aScore: number, aKey: number, bScore: number, bKey: number) => aScore < bScore || (aScore === bScore && aKey > bKey)

export class TopK {
  private readonly keys: Int32Array
  private readonly scores: Float64Array
  private n = 0

  constructor(readonly k: number) {
    this.keys = new Int32Array(Math.max(k, 1))
    this.scores = new Float64Array(Math.max(k, 1))
  }

  get size() {
    return this.n
  }

  /** The score a candidate must beat to enter (−∞ until full). */
  get threshold() {
    return this.n < this.k ? -Infinity : this.scores[0]
  }

  push(key: number, score: number) {
    if (this.k <= 0) return
    if (this.n < this.k) {
      let i = this.n++
      this.keys[i] = key
      this.scores[i] = score
      while (i > 0) {
        const p = (i - 1) >> 1
        if (!worse(this.scores[i], this.keys[i], this.scores[p], this.keys[p])) break
        this.swap(i, p)
        i = p
      }
      return
    }
    if (!worse(this.scores[0], this.keys[0], score, key)) return
    this.keys[0] = key
    this.scores[0] = score
    let i = 0
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let m = i
      if (l < this.n && worse(this.scores[l], this.keys[l], this.scores[m], this.keys[m])) m = l
      if (r < this.n && worse(this.scores[r], this.keys[r], this.scores[m], this.keys[m])) m = r
      if (m === i) break
      this.swap(i, m)
      i = m
    }
  }

  /** Best first. */
  sorted(): Scored[] {
    const out: Scored[] = []
    for (let i = 0; i < this.n; i++) out.push({ key: this.keys[i], score: this.scores[i] })
    return out.sort((a, b) => b.score - a.score || a.key - b.key)
  }

  private swap(i: number, j: number) {
    const k = this.keys[i]
    this.keys[i] = this.keys[j]
    this.keys[j] = k
    const s = this.scores[i]
    this.scores[i] = this.scores[j]
    this.scores[j] = s
  }
}
