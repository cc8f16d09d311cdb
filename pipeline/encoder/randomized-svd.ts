/**
 * Truncated SVD of a sparse documents × terms matrix by randomized subspace iteration
 * (Halko, Martinsson & Tropp 2011, algorithms 4.4 and 5.3), computing only what LSA needs:
 * the top right singular vectors (one row per term) and the singular values.
 *
 * Memory is bounded by terms × (rank + oversampling), never by the number of documents: the
 * sketch works on XᵀX, applied one document row at a time (Z += xᵀ(x·Q)), so no dense
 * documents × rank matrix is ever formed. Everything is deterministic for a given seed.
 *
 * Cost: each application of XᵀX is 2·nnz·width multiply-adds (dominant on large corpora), each
 * orthonormalisation about terms·width²; powerIterations + 2 applications in all.
 * The re-orthonormalisation between power iterations is in orthonormalize.ts; ml-matrix does
 * the small symmetric eigen-decomposition at the end.
 */
import { seededRandom } from "../../core/random.ts"
import { EigenvalueDecomposition, Matrix } from "ml-matrix"
import { dotProduct, orthonormalizeColumns } from "./orthonormalize.ts"

/** Compressed sparse rows: row d holds columns colIdx[rowPtr[d]..rowPtr[d+1]). */
export interface CsrMatrix {
  readonly rows: number
  readonly cols: number
  readonly rowPtr: Float64Array
  readonly colIdx: Int32Array
  readonly values: Float32Array
}

export interface RandomizedSvdOptions {
  /** Extra sketch columns beyond the rank (accuracy of the last components). */
  readonly oversampling: number
  /** Extra applications of XᵀX with re-orthonormalisation (sharpens a flat spectrum). */
  readonly powerIterations: number
  readonly seed: number
}

export interface TruncatedSvd {
  /** cols × columns, row-major: row t is term t's coordinates in the latent space. */
  readonly rightVectors: Float64Array
  readonly columns: number
  /** Components found (≤ columns); the columns from `rank` on are zero. */
  readonly rank: number
  readonly singularValues: Float64Array
}

/** Seeded standard normals: mulberry32 uniforms through Box–Muller. */
export const gaussianSource = (seed: number) => {
  const uniform = seededRandom(seed)
  let spare: number | undefined
  return () => {
    if (spare !== undefined) {
      const s = spare
      spare = undefined
      return s
    }
    const u = 1 - uniform()
    const v = uniform()
    const r = Math.sqrt(-2 * Math.log(u))
    spare = r * Math.sin(2 * Math.PI * v)
    return r * Math.cos(2 * Math.PI * v)
  }
}

/** Z = Xᵀ(X·Q) for row-major Q (cols × width), one document row at a time. */
const applyGram = (x: CsrMatrix, q: Float64Array, width: number) => {
  const z = new Float64Array(q.length)
  const y = new Float64Array(width)
  for (let d = 0; d < x.rows; d++) {
    const start = x.rowPtr[d]
    const end = x.rowPtr[d + 1]
    if (start === end) continue
    y.fill(0)
    let p = start
    for (; p + 1 < end; p += 2) {
      const v0 = x.values[p]
      const v1 = x.values[p + 1]
      const b0 = x.colIdx[p] * width
      const b1 = x.colIdx[p + 1] * width
      for (let j = 0; j < width; j++) y[j] += v0 * q[b0 + j] + v1 * q[b1 + j]
    }
    if (p < end) {
      const v = x.values[p]
      const base = x.colIdx[p] * width
      for (let j = 0; j < width; j++) y[j] += v * q[base + j]
    }
    for (let p = start; p < end; p++) {
      const v = x.values[p]
      const base = x.colIdx[p] * width
      for (let j = 0; j < width; j++) z[base + j] += v * y[j]
    }
  }
  return z
}

/** Components whose singular value is below this fraction of the largest are numerical noise. */
const relativeRankTolerance = 1e-6

export const randomizedTruncatedSvd = (x: CsrMatrix, rank: number, options: RandomizedSvdOptions): TruncatedSvd => {
  const m = x.cols
  const k = Math.min(rank, m, x.rows)
  if (k === 0) return { rightVectors: new Float64Array(0), columns: 0, rank: 0, singularValues: new Float64Array(0) }
  const width = Math.min(k + options.oversampling, m)
  const normal = gaussianSource(options.seed)
  // A Gaussian test matrix is already well conditioned: no need to orthonormalise it first.
  let q: Float64Array = new Float64Array(m * width)
  for (let i = 0; i < q.length; i++) q[i] = normal()
  for (let it = 0; it <= options.powerIterations; it++) {
    q = orthonormalizeColumns(applyGram(x, q, width), m, width, it === options.powerIterations ? 2 : 1)
  }
  // B = Qᵀ XᵀX Q is small (width²); its eigenpairs give σ² and the rotation of Q onto V_k.
  const z = applyGram(x, q, width)
  const b = new Float64Array(width * width)
  let i = 0
  for (; i + 1 < m; i += 2) {
    const r0 = i * width
    const r1 = r0 + width
    for (let r = 0; r < width; r++) {
      const q0 = q[r0 + r]
      const q1 = q[r1 + r]
      const target = r * width
      for (let c = 0; c < width; c++) b[target + c] += q0 * z[r0 + c] + q1 * z[r1 + c]
    }
  }
  for (; i < m; i++) {
    const row = i * width
    for (let r = 0; r < width; r++) {
      const qr = q[row + r]
      const target = r * width
      for (let c = 0; c < width; c++) b[target + c] += qr * z[row + c]
    }
  }
  const symmetric = new Matrix(width, width)
  for (let r = 0; r < width; r++) {
    for (let c = 0; c < width; c++) symmetric.set(r, c, (b[r * width + c] + b[c * width + r]) / 2)
  }
  const eig = new EigenvalueDecomposition(symmetric, { assumeSymmetric: true })
  const order = eig.realEigenvalues.map((value, index) => ({ value, index })).sort((p, r) => r.value - p.value)
  const w = eig.eigenvectorMatrix
  const top = Math.sqrt(Math.max(order[0].value, 0))
  const singularValues = new Float64Array(k)
  const rightVectors = new Float64Array(m * k)
  let kept = 0
  for (let c = 0; c < k; c++) {
    const sigma = Math.sqrt(Math.max(order[c].value, 0))
    if (!(sigma > top * relativeRankTolerance)) break
    singularValues[c] = sigma
    const col = order[c].index
    const wc = new Float64Array(width)
    for (let r = 0; r < width; r++) wc[r] = w.get(r, col)
    let biggest = 0
    for (let i = 0; i < m; i++) {
      const v = dotProduct(q, i * width, wc, 0, width)
      rightVectors[i * k + c] = v
      if (Math.abs(v) > Math.abs(biggest)) biggest = v
    }
    // Singular vectors are defined up to sign; fix it so the largest entry is positive.
    if (biggest < 0) for (let i = 0; i < m; i++) rightVectors[i * k + c] = -rightVectors[i * k + c]
    kept++
  }
  return { rightVectors, columns: k, rank: kept, singularValues: singularValues.slice(0, kept) }
}
