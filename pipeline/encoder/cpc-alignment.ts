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
import { EigenvalueDecomposition, Matrix, SingularValueDecomposition } from "ml-matrix"
import { seededRandom } from "../../core/random.ts"

export interface AlignmentOptions {
  /** Share of the mean variance added to every direction of Σ_S (0: none). */
  readonly shrinkage: number
}

export const defaultAlignmentOptions: AlignmentOptions = { shrinkage: 0.1 }

/** The map of short texts: its own shrinkage, for texts of fewer than `belowWords` words. */
export interface PhraseAlignmentOptions extends AlignmentOptions {
  readonly belowWords: number
}

/**
 * Phrases want a stronger map than documents: with shrinkage 0.3 for every text the similarity
 * bench's dev half rose 0.579 → 0.597 and the retrieval dev splits lost (README). So texts of at
 * most three words (a query typed as a phrase, a claim term) take the map of shrinkage 1 and the
 * rest keep 0.1. Chosen on the dev halves only (2026-11-29 night): the ensemble's similarity-bench Pearson at
 * shrinkage 1 below 3 / 4 / 5 / 6 / 9 words 0.589 / 0.592 / 0.597 / 0.597 / 0.598 (one map: 0.579;
 * shrinkage 0.3: 0.588–0.594), and below 4 the only count whose plain search on the sample's dev
 * citations is not worse than one map (recall@100 / MRR 0.586 / 0.248 against 0.579 / 0.243; 5: 0.574 /
 * 0.248, 6: 0.568 / 0.244, 9: 0.487 / 0.229: the sample's records and queries are titles, and
 * title-to-title citation search loses specificity through the stronger map). The synthetic
 * corpus has no text that short and does not move.
 */
export const defaultPhraseAlignmentOptions: PhraseAlignmentOptions = { shrinkage: 1, belowWords: 4 }

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

/**
 * The symmetric square root S = (WᵀW)^(1/2) of a map (D × D, row-major): the same metric, so the
 * same cosines, as W, but with its output in the input's own basis. W's rows are the eigen-directions
 * of its own estimate, so two maps of different shrinkage give vectors in different bases; their
 * roots give vectors that can be blended and compared across maps.
 */
export const alignmentRoot = (w: Float32Array, d: number): Float32Array => {
  const m = new Matrix(d, d)
  for (let r = 0; r < d; r++)
    for (let c = r; c < d; c++) {
      let x = 0
      for (let k = 0; k < d; k++) x += w[k * d + r] * w[k * d + c]
      m.set(r, c, x)
      m.set(c, r, x)
    }
  const e = symmetricEigen(m)
  const out = new Float64Array(d * d)
  for (let k = 0; k < d; k++) {
    const s = Math.sqrt(Math.max(0, e.values[k]))
    if (s === 0) continue
    const v = e.vectors[k]
    for (let r = 0; r < d; r++) {
      const sv = s * v[r]
      for (let c = 0; c < d; c++) out[r * d + c] += sv * v[c]
    }
  }
  return Float32Array.from(out)
}

/**
 * The phrase map written in the main map's basis, so that documents keep exactly the vectors the
 * main map gives them and a phrase still meets them. With W = Q·S_W (polar decomposition: Q
 * orthogonal, S_W = alignmentRoot(W)), this is Q·S_P for the phrase map's root S_P: a phrase's
 * vector against a document's is (Q S_P p)·(Q S_W d) = (S_P p)·(S_W d), the two metrics meeting
 * in one basis, and two phrases meet in the phrase map's own metric.
 */
export const phraseMapInBasisOf = (main: Float32Array, phrase: Float32Array, d: number): Float32Array => {
  const w = new Matrix(d, d)
  for (let r = 0; r < d; r++) for (let c = 0; c < d; c++) w.set(r, c, main[r * d + c])
  const svd = new SingularValueDecomposition(w, { autoTranspose: false })
  const q = svd.leftSingularVectors.mmul(svd.rightSingularVectors.transpose())
  const root = alignmentRoot(phrase, d)
  const out = new Float32Array(d * d)
  for (let r = 0; r < d; r++)
    for (let c = 0; c < d; c++) {
      let x = 0
      for (let k = 0; k < d; k++) x += q.get(r, k) * root[k * d + c]
      out[r * d + c] = x
    }
  return out
}
