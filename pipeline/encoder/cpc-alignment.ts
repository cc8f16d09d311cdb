/**
 * A linear map of the subword encoder's vectors learned from the CPC hierarchy, the supervision
 * the corpus already holds: a subgroup and its parent describe one thing, two entries drawn at
 * random describe different things. Skip-gram vectors spend many of their directions on how a
 * word is used in a sentence (its grammar, its drafting habits) rather than on what it names; the
 * map keeps the directions along which related titles agree more than unrelated ones and drops
 * the rest.
 *
 * It is KISSME metric learning (Köstinger et al., 2012) turned into a map: with Σ_S the scatter of
 * the differences of related pairs and Σ_D that of random pairs, the metric Σ_S⁻¹ − Σ_D⁻¹ is
 * WᵀW for W = diag(√max(0, 1 − 1/λ)) Uᵀ Σ_S^(−1/2), where U, λ are the eigenpairs of
 * Σ_S^(−1/2) Σ_D Σ_S^(−1/2) (λ: how many times more random pairs differ than related ones along
 * a direction). A direction where related titles differ as much as random ones (λ ≤ 1) gets
 * weight 0. Σ_S is shrunk towards its mean variance by `shrinkage`, so a direction seen little
 * is not blown up.
 *
 * The map is linear, so it can be applied to each word's vector before SIF pooling (the ONNX
 * graph's specific_embeddings, subword-onnx.ts) and a text's vector is the map of its pooled one.
 */
import { EigenvalueDecomposition, Matrix } from "ml-matrix"
import { seededRandom } from "../../core/random.ts"

export interface AlignmentOptions {
  /** Share of the mean variance added to every direction of Σ_S (0: none). */
  readonly shrinkage: number
}

export const defaultAlignmentOptions: AlignmentOptions = { shrinkage: 0.1 }

/** Pairs of unit vectors: `related[i]` against `relatedTo[i]`, `unrelated[i]` against `unrelatedTo[i]`. */
export interface AlignmentPairs {
  readonly related: ReadonlyArray<readonly [Float32Array | Float64Array, Float32Array | Float64Array]>
  readonly unrelated: ReadonlyArray<readonly [Float32Array | Float64Array, Float32Array | Float64Array]>
}

/** Mean of (a − b)(a − b)ᵀ over pairs, D × D. */
const differenceScatter = (pairs: AlignmentPairs["related"], d: number): Matrix => {
  const s = new Float64Array(d * d)
  const diff = new Float64Array(d)
  for (const [a, b] of pairs) {
    for (let c = 0; c < d; c++) diff[c] = a[c] - b[c]
    for (let r = 0; r < d; r++) {
      const x = diff[r]
      if (x === 0) continue
      const row = r * d
      for (let c = r; c < d; c++) s[row + c] += x * diff[c]
    }
  }
  const m = new Matrix(d, d)
  const n = Math.max(1, pairs.length)
  for (let r = 0; r < d; r++) for (let c = r; c < d; c++) {
    m.set(r, c, s[r * d + c] / n)
    m.set(c, r, s[r * d + c] / n)
  }
  return m
}

/** Eigenpairs of a symmetric matrix, largest first. */
const symmetricEigen = (m: Matrix) => {
  const eig = new EigenvalueDecomposition(m, { assumeSymmetric: true })
  const order = eig.realEigenvalues.map((value, index) => ({ value, index })).sort((p, q) => q.value - p.value)
  return { values: order.map((o) => o.value), vectors: order.map((o) => eig.eigenvectorMatrix.getColumn(o.index)) }
}

/**
 * The map W (D × D, row-major: out[r] = Σ_c W[r·D + c] · in[c]), or undefined when there are too
 * few pairs to estimate it (fewer than 4·D of either kind).
 */
export const cpcAlignment = (pairs: AlignmentPairs, d: number, options: AlignmentOptions = defaultAlignmentOptions): Float32Array | undefined => {
  if (pairs.related.length < 4 * d || pairs.unrelated.length < 4 * d) return undefined
  const same = differenceScatter(pairs.related, d)
  const other = differenceScatter(pairs.unrelated, d)
  const meanVariance = same.trace() / d
  for (let c = 0; c < d; c++) same.set(c, c, same.get(c, c) + options.shrinkage * meanVariance)
  // Σ_S^(−1/2) from its eigenpairs (Σ_S is positive definite after shrinkage, or nearly so).
  const s = symmetricEigen(same)
  const floor = Math.max(1e-12, s.values[0] * 1e-9)
  const inverseRoot = new Matrix(d, d)
  for (let k = 0; k < d; k++) {
    const w = 1 / Math.sqrt(Math.max(s.values[k], floor))
    const v = s.vectors[k]
    for (let r = 0; r < d; r++) for (let c = 0; c < d; c++) inverseRoot.set(r, c, inverseRoot.get(r, c) + w * v[r] * v[c])
  }
  const whitened = inverseRoot.mmul(other).mmul(inverseRoot)
  const symmetric = whitened.add(whitened.transpose()).div(2)
  const g = symmetricEigen(symmetric)
  const out = new Float32Array(d * d)
  for (let k = 0; k < d; k++) {
    const scale = Math.sqrt(Math.max(0, 1 - 1 / Math.max(g.values[k], 1e-12)))
    if (scale === 0) continue
    // Row k of W: scale · u_kᵀ Σ_S^(−1/2).
    const u = g.vectors[k]
    for (let c = 0; c < d; c++) {
      let x = 0
      for (let r = 0; r < d; r++) x += u[r] * inverseRoot.get(r, c)
      out[k * d + c] = scale * x
    }
  }
  return out
}

/** W · v, in float64. */
export const applyAlignment = (w: Float32Array, v: Float32Array | Float64Array, d: number): Float64Array => {
  const out = new Float64Array(d)
  for (let r = 0; r < d; r++) {
    let x = 0
    const row = r * d
    for (let c = 0; c < d; c++) x += w[row + c] * v[c]
    out[r] = x
  }
  return out
}

/** A CPC scheme entry the alignment learns from (held-out main groups already left out). */
export interface SchemeEntry {
  readonly symbol: string
  readonly title: string
  readonly parent: string | null
}

/**
 * Title pairs from the scheme: every entry with its parent (related), and the same entry with one
 * drawn at random (unrelated), at most `limit` of each, spread over the scheme by a fixed draw.
 * Titles are taken as the scheme writes them (curly-bracketed CPC additions included).
 */
export const schemePairs = (entries: ReadonlyArray<SchemeEntry>, limit: number) => {
  const titled = entries.filter((e) => e.title.trim() !== "")
  const bySymbol = new Map(titled.map((e) => [e.symbol, e]))
  // A fixed draw: the same pairs on every build of the same scheme.
  const rnd = seededRandom(18)
  let children = titled.filter((e) => e.parent !== null && bySymbol.has(e.parent))
  if (children.length > limit) children = children.map((e) => ({ e, key: rnd() })).sort((p, q) => p.key - q.key).slice(0, limit).map((x) => x.e)
  const related: Array<readonly [string, string]> = []
  const unrelated: Array<readonly [string, string]> = []
  for (const e of children) {
    const parent = bySymbol.get(e.parent!)!
    if (parent.title === e.title) continue
    related.push([e.title, parent.title])
    const other = titled[Math.floor(rnd() * titled.length)]
    if (other.symbol !== e.symbol && other.symbol !== e.parent) unrelated.push([e.title, other.title])
  }
  return { related, unrelated }
}
