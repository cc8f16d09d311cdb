/**
 * Late-interaction (ColBERT-style) scoring: each query token finds its best-matching candidate
 * token (MaxSim) and the score is the mean of those maxima. Token vectors are L2-normalised,
 * so dot products are cosines and the score lies in [-1, 1].
 *
 * A rerank scores one query against 50 candidates, and the token vectors repeat a lot: the
 * encoders give a term the same vector wherever it occurs (LSA stems; subword words), so a claim
 * repeats "said", "first", "layer" … and the candidates share most of their vocabulary. The dot
 * product of a query token with a candidate token is therefore computed once per distinct pair
 * of vectors for all candidates of the query (the query's distinct vectors are kept with it in a
 * WeakMap, for as long as the caller holds the query's array). Vectors count as the same only
 * when every component is equal, and maxima and sums are taken in the order of the plain
 * definition, so every score is bit for bit what the nested loops give.
 */

/** A query's distinct token vectors, and for each candidate vector seen so far its dot with each of them. */
interface PreparedQuery {
  /** Index into `distinct` of each query token, in query order. */
  readonly slots: Int32Array
  readonly distinct: ReadonlyArray<Float32Array>
  /** Distinct candidate vectors by content hash, each with its dots against `distinct`. */
  readonly dots: Map<number, Array<{ readonly vector: Float32Array; readonly dots: Float64Array }>>
}

const prepared = new WeakMap<ReadonlyArray<Float32Array>, PreparedQuery>()

const sameVector = (a: Float32Array, b: Float32Array) => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** FNV-1a over the components' bits (+0 and −0 hash apart; a collision only costs a comparison). */
const hashOf = (v: Float32Array) => {
  const bits = new Uint32Array(v.buffer, v.byteOffset, v.length)
  let h = 0x811c9dc5
  for (let i = 0; i < bits.length; i++) h = Math.imul(h ^ bits[i], 0x01000193)
  return h >>> 0
}

/**
 * The plain dot product, summed in index order in double precision (as the nested-loop definition
 * does). Unrolled by four with the additions still one after another, so the sum is the same.
 */
const dot = (q: Float32Array, c: Float32Array) => {
  let s = 0
  const n = q.length
  const whole = n - (n % 4)
  let i = 0
  for (; i < whole; i += 4) {
    s += q[i] * c[i]
    s += q[i + 1] * c[i + 1]
    s += q[i + 2] * c[i + 2]
    s += q[i + 3] * c[i + 3]
  }
  for (; i < n; i++) s += q[i] * c[i]
  return s
}

const prepare = (query: ReadonlyArray<Float32Array>): PreparedQuery => {
  const byHash = new Map<number, Array<number>>()
  const distinct: Array<Float32Array> = []
  const slots = new Int32Array(query.length)
  query.forEach((q, p) => {
    const h = hashOf(q)
    const bucket = byHash.get(h) ?? []
    let slot = bucket.find((d) => sameVector(distinct[d]!, q))
    if (slot === undefined) {
      slot = distinct.push(q) - 1
      bucket.push(slot)
      byHash.set(h, bucket)
    }
    slots[p] = slot
  })
  return { slots, distinct, dots: new Map() }
}

/** Dots of one candidate token with the query's distinct tokens (computed once per distinct candidate vector). */
const dotsOf = (query: PreparedQuery, c: Float32Array) => {
  const h = hashOf(c)
  let bucket = query.dots.get(h)
  const known = bucket?.find((e) => sameVector(e.vector, c))
  if (known) return known.dots
  const dots = Float64Array.from(query.distinct, (q) => dot(q, c))
  if (!bucket) query.dots.set(h, (bucket = []))
  bucket.push({ vector: c, dots })
  return dots
}

export const maxSim = (query: ReadonlyArray<Float32Array>, candidate: ReadonlyArray<Float32Array>): number => {
  if (query.length === 0 || candidate.length === 0) return 0
  let q = prepared.get(query)
  if (!q) prepared.set(query, (q = prepare(query)))
  // best[d]: the running maximum for distinct query vector d, updated in candidate order exactly
  // as `if (dot > best) best = dot` does for each query token.
  const best = new Float64Array(q.distinct.length).fill(-Infinity)
  for (const c of candidate) {
    const dots = dotsOf(q, c)
    for (let d = 0; d < dots.length; d++) if (dots[d] > best[d]) best[d] = dots[d]
  }
  let total = 0
  for (let p = 0; p < q.slots.length; p++) total += best[q.slots[p]]
  return total / query.length
}
