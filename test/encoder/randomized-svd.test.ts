import { Matrix, SingularValueDecomposition } from "ml-matrix"
import { describe, expect, it } from "vitest"
import { householderOrthonormalize, orthonormalizeColumns } from "../../pipeline/encoder/orthonormalize.ts"
import { type CsrMatrix, gaussianSource, randomizedTruncatedSvd } from "../../pipeline/encoder/randomized-svd.ts"

/** A sparse documents × terms matrix with a decaying spectrum (topics of falling weight). */
const topicalMatrix = (docs: number, terms: number, seed: number) => {
  const normal = gaussianSource(seed)
  const rowPtr = [0]
  const colIdx: number[] = []
  const values: number[] = []
  const dense = Matrix.zeros(docs, terms)
  for (let d = 0; d < docs; d++) {
    const topic = d % 12
    for (let t = 0; t < terms; t++) {
      const onTopic = t % 12 === topic
      if (!onTopic && (d * 31 + t * 17) % 9 !== 0) continue
      const v = Math.fround((onTopic ? 4 / (1 + topic) : 0.3) * (1 + 0.2 * normal()))
      colIdx.push(t)
      values.push(v)
      dense.set(d, t, v)
    }
    rowPtr.push(colIdx.length)
  }
  const csr: CsrMatrix = {
    rows: docs,
    cols: terms,
    rowPtr: Float64Array.from(rowPtr),
    colIdx: Int32Array.from(colIdx),
    values: Float32Array.from(values)
  }
  return { csr, dense }
}

const orthonormalityError = (q: Float64Array, m: number, n: number) => {
  let worst = 0
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0
      for (let r = 0; r < m; r++) s += q[r * n + i] * q[r * n + j]
      worst = Math.max(worst, Math.abs(s - (i === j ? 1 : 0)))
    }
  }
  return worst
}

describe("randomized truncated SVD", () => {
  it("matches an exact SVD on the leading components of a sparse matrix", () => {
    const { csr, dense } = topicalMatrix(240, 180, 3)
    const k = 10
    const approx = randomizedTruncatedSvd(csr, k, { oversampling: 10, powerIterations: 3, seed: 1 })
    const exact = new SingularValueDecomposition(dense, { computeLeftSingularVectors: false, autoTranspose: true })
    expect(approx.rank).toBe(k)
    // Components close to the cut (σ7..σ10 within 10% of σ11, σ12) converge slowest.
    for (let c = 0; c < k; c++) expect(Math.abs(approx.singularValues[c] / exact.diagonal[c] - 1)).toBeLessThan(1e-3)
    for (let c = 0; c < 6; c++) {
      expect(approx.singularValues[c]).toBeCloseTo(exact.diagonal[c], 6)
      // Same direction up to sign (the leading components here are well separated).
      let cos = 0
      for (let t = 0; t < csr.cols; t++) cos += approx.rightVectors[t * approx.columns + c] * exact.rightSingularVectors.get(t, c)
      expect(Math.abs(cos)).toBeGreaterThan(1 - 1e-6)
    }
  })

  it("stops at the matrix's rank and leaves the remaining columns zero", () => {
    // Three documents: rank at most 3 however many components are asked for.
    const csr: CsrMatrix = {
      rows: 3,
      cols: 5,
      rowPtr: Float64Array.from([0, 2, 4, 6]),
      colIdx: Int32Array.from([0, 1, 1, 2, 3, 4]),
      values: Float32Array.from([1, 1, 1, 1, 1, 1])
    }
    const svd = randomizedTruncatedSvd(csr, 256, { oversampling: 10, powerIterations: 2, seed: 9 })
    expect(svd.columns).toBe(3)
    expect(svd.rank).toBe(3)
    const duplicated: CsrMatrix = { ...csr, rowPtr: Float64Array.from([0, 2, 4, 6]), colIdx: Int32Array.from([0, 1, 0, 1, 3, 4]) }
    const deficient = randomizedTruncatedSvd(duplicated, 256, { oversampling: 10, powerIterations: 2, seed: 9 })
    expect(deficient.rank).toBe(2)
    for (let t = 0; t < 5; t++) expect(deficient.rightVectors[t * deficient.columns + 2]).toBe(0)
  })

  it("is deterministic for a seed", () => {
    const { csr } = topicalMatrix(120, 90, 5)
    const a = randomizedTruncatedSvd(csr, 20, { oversampling: 5, powerIterations: 2, seed: 4 })
    const b = randomizedTruncatedSvd(csr, 20, { oversampling: 5, powerIterations: 2, seed: 4 })
    expect(Array.from(b.rightVectors)).toEqual(Array.from(a.rightVectors))
  })
})

describe("column orthonormalisation", () => {
  it("orthonormalises a well-conditioned tall matrix", () => {
    const normal = gaussianSource(11)
    const a = Float64Array.from({ length: 400 * 30 }, () => normal())
    expect(orthonormalityError(orthonormalizeColumns(a, 400, 30), 400, 30)).toBeLessThan(1e-12)
  })

  it("still returns orthonormal columns for a rank-deficient matrix", () => {
    const normal = gaussianSource(12)
    const m = 300
    const n = 20
    const a = new Float64Array(m * n)
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < n; j++) a[i * n + j] = j < 8 ? normal() : j < 16 ? a[i * n + j - 8] : 0
    }
    const copy = Float64Array.from(a)
    expect(orthonormalityError(orthonormalizeColumns(a, m, n), m, n)).toBeLessThan(1e-12)
    expect(orthonormalityError(householderOrthonormalize(copy, m, n), m, n)).toBeLessThan(1e-12)
  })
})
