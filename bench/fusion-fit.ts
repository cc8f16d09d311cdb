/**
 * Fits plain search's fusion model (core/search/learned-fusion.ts) by L2-regularised logistic
 * regression: one row per candidate of a development query, labelled by whether the query's
 * examiner cited it. Features are standardised for the fit (so one penalty suits them all) and the
 * weights are returned on the raw scale the service scores with. Newton's method: ten features make
 * the Hessian a 10 × 10 solve, and it converges in a dozen steps where gradient descent would need
 * a tuned step size.
 */
import { FUSION_FEATURES, type FusionModel } from "../core/search/learned-fusion.ts"

export interface FusionRows {
  /** Feature vectors (fusionFeatures), bias first. */
  readonly x: ReadonlyArray<ReadonlyArray<number>>
  readonly cited: ReadonlyArray<boolean>
}

/** Solves A w = b by Gaussian elimination with partial pivoting (A is small and positive definite). */
const solve = (a: number[][], b: number[]): number[] => {
  const n = b.length
  const m = a.map((row, i) => [...row, b[i]])
  for (let c = 0; c < n; c++) {
    let p = c
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r
    ;[m[c], m[p]] = [m[p], m[c]]
    for (let r = c + 1; r < n; r++) {
      const f = m[r][c] / m[c][c]
      for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k]
    }
  }
  const w = new Array<number>(n).fill(0)
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r][n]
    for (let k = r + 1; k < n; k++) s -= m[r][k] * w[k]
    w[r] = s / m[r][r]
  }
  return w
}

export const fitFusionModel = (rows: FusionRows, l2 = 1, steps = 25): FusionModel => {
  const d = FUSION_FEATURES.length
  const n = rows.x.length
  const mean = new Array<number>(d).fill(0)
  const sd = new Array<number>(d).fill(1)
  for (let j = 1; j < d; j++) {
    let s = 0
    let s2 = 0
    for (const x of rows.x) (s += x[j]), (s2 += x[j] * x[j])
    mean[j] = s / n
    sd[j] = Math.sqrt(Math.max(s2 / n - mean[j] * mean[j], 0)) || 1
  }
  const z = rows.x.map((x) => x.map((v, j) => (j === 0 ? 1 : (v - mean[j]) / sd[j])))
  let w = new Array<number>(d).fill(0)
  for (let step = 0; step < steps; step++) {
    const grad = w.map((wj, j) => (j === 0 ? 0 : 2 * l2 * wj))
    const hess = Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => (i === j && i > 0 ? 2 * l2 : 0)))
    for (let i = 0; i < n; i++) {
      const zi = z[i]
      let t = 0
      for (let j = 0; j < d; j++) t += w[j] * zi[j]
      const p = 1 / (1 + Math.exp(-t))
      const r = p - (rows.cited[i] ? 1 : 0)
      const h = p * (1 - p)
      for (let j = 0; j < d; j++) {
        grad[j] += r * zi[j]
        for (let k = 0; k <= j; k++) hess[j][k] += h * zi[j] * zi[k]
      }
    }
    for (let j = 0; j < d; j++) for (let k = j + 1; k < d; k++) hess[j][k] = hess[k][j]
    const delta = solve(hess, grad)
    w = w.map((wj, j) => wj - delta[j])
    if (Math.max(...delta.map(Math.abs)) < 1e-8) break
  }
  // Back to the raw scale: w0 + Σ wj (x - mean) / sd.
  const weights = w.map((wj, j) => (j === 0 ? wj - w.slice(1).reduce((s, wk, k) => s + (wk * mean[k + 1]) / sd[k + 1], 0) : wj / sd[j]))
  return { weights }
}
