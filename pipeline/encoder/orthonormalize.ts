/**
 * Orthonormal bases for the columns of tall row-major matrices (terms × sketch width), the QR
 * step between the randomized SVD's power iterations. Only Q is needed, never R.
 *
 * CholeskyQR2 first: two passes of (Gram matrix, Cholesky, triangular solve), which touch the
 * tall matrix row by row and run about twice as fast as Householder here; it is accurate to
 * machine precision while the condition number stays below ~1e6, which the power-iterated
 * sketch of any real corpus satisfies. A rank-deficient sketch (tiny corpora, duplicate texts)
 * breaks the Cholesky factorisation, and then row-major Householder reflections take over.
 * ml-matrix's QrDecomposition does the Householder job too, but took 17 s for one
 * 20,000 × 266 matrix here, several times slower than these flat typed-array loops.
 */

/** Upper triangle of AᵀA; rows are taken four at a time (half the stores, twice as fast in V8). */
const gram = (a: Float64Array, m: number, n: number) => {
  const g = new Float64Array(n * n)
  let i = 0
  for (; i + 3 < m; i += 4) {
    const r0 = i * n
    const r1 = r0 + n
    const r2 = r1 + n
    const r3 = r2 + n
    for (let r = 0; r < n; r++) {
      const x0 = a[r0 + r]
      const x1 = a[r1 + r]
      const x2 = a[r2 + r]
      const x3 = a[r3 + r]
      const gr = r * n
      for (let c = r; c < n; c++) g[gr + c] += x0 * a[r0 + c] + x1 * a[r1 + c] + x2 * a[r2 + c] + x3 * a[r3 + c]
    }
  }
  for (; i < m; i++) {
    const row = i * n
    for (let r = 0; r < n; r++) {
      const x = a[row + r]
      const gr = r * n
      for (let c = r; c < n; c++) g[gr + c] += x * a[row + c]
    }
  }
  return g
}

/** Σ x[xo + r]·y[yo + r] for r < length, with four accumulators (breaks the add latency chain). */
export const dotProduct = (x: Float64Array, xo: number, y: Float64Array, yo: number, length: number) => {
  let s0 = 0
  let s1 = 0
  let s2 = 0
  let s3 = 0
  let r = 0
  for (; r + 3 < length; r += 4) {
    s0 += x[xo + r] * y[yo + r]
    s1 += x[xo + r + 1] * y[yo + r + 1]
    s2 += x[xo + r + 2] * y[yo + r + 2]
    s3 += x[xo + r + 3] * y[yo + r + 3]
  }
  for (; r < length; r++) s0 += x[xo + r] * y[yo + r]
  return s0 + s1 + s2 + s3
}

/** One CholeskyQR pass in place; false (a unchanged) when the Gram matrix is not positive definite. */
const choleskyQrPass = (a: Float64Array, m: number, n: number): boolean => {
  const g = gram(a, m, n)
  // G = RᵀR with R upper triangular, kept transposed: rt[c·n + r] = R[r][c].
  const rt = new Float64Array(n * n)
  let maxDiagonal = 0
  for (let i = 0; i < n; i++) maxDiagonal = Math.max(maxDiagonal, g[i * n + i])
  for (let j = 0; j < n; j++) {
    let d = g[j * n + j]
    for (let k = 0; k < j; k++) d -= rt[j * n + k] ** 2
    if (!(d > maxDiagonal * 1e-12)) return false
    const rjj = Math.sqrt(d)
    rt[j * n + j] = rjj
    for (let c = j + 1; c < n; c++) {
      let s = g[j * n + c]
      for (let k = 0; k < j; k++) s -= rt[j * n + k] * rt[c * n + k]
      rt[c * n + j] = s / rjj
    }
  }
  // Q = A R⁻¹, row by row (forward substitution against Rᵀ).
  for (let i = 0; i < m; i++) {
    const row = i * n
    for (let c = 0; c < n; c++) {
      const rc = c * n
      a[row + c] = (a[row + c] - dotProduct(a, row, rt, rc, c)) / rt[rc + c]
    }
  }
  return true
}

/**
 * Orthonormal basis of the columns of row-major a (m × n, m ≥ n) by Householder reflections;
 * a is overwritten. Rank-deficient input still yields orthonormal columns.
 */
export const householderOrthonormalize = (a: Float64Array, m: number, n: number): Float64Array => {
  const reflectors = new Float64Array(m * n) // column k holds unit vector v_k in rows k..m-1
  const s = new Float64Array(n)
  const active = new Uint8Array(n)
  for (let k = 0; k < n; k++) {
    let norm2 = 0
    for (let i = k; i < m; i++) norm2 += a[i * n + k] ** 2
    const x0 = a[k * n + k]
    const alpha = x0 >= 0 ? -Math.sqrt(norm2) : Math.sqrt(norm2)
    const vnorm2 = norm2 - x0 * x0 + (x0 - alpha) ** 2
    if (norm2 === 0 || vnorm2 <= 1e-300) continue
    active[k] = 1
    const inv = 1 / Math.sqrt(vnorm2)
    reflectors[k * n + k] = (x0 - alpha) * inv
    for (let i = k + 1; i < m; i++) reflectors[i * n + k] = a[i * n + k] * inv
    // a ← (I − 2vvᵀ) a on columns k+1..n−1, streaming over rows.
    s.fill(0, k + 1)
    for (let i = k; i < m; i++) {
      const vi = reflectors[i * n + k]
      if (vi === 0) continue
      const row = i * n
      for (let j = k + 1; j < n; j++) s[j] += vi * a[row + j]
    }
    for (let i = k; i < m; i++) {
      const vi = 2 * reflectors[i * n + k]
      if (vi === 0) continue
      const row = i * n
      for (let j = k + 1; j < n; j++) a[row + j] -= vi * s[j]
    }
  }
  // Thin Q = H_0 ⋯ H_{n−1} [I; 0], applying reflectors last to first.
  const q = a
  q.fill(0)
  for (let j = 0; j < n; j++) q[j * n + j] = 1
  for (let k = n - 1; k >= 0; k--) {
    if (!active[k]) continue
    s.fill(0, k)
    for (let i = k; i < m; i++) {
      const vi = reflectors[i * n + k]
      if (vi === 0) continue
      const row = i * n
      for (let j = k; j < n; j++) s[j] += vi * q[row + j]
    }
    for (let i = k; i < m; i++) {
      const vi = 2 * reflectors[i * n + k]
      if (vi === 0) continue
      const row = i * n
      for (let j = k; j < n; j++) q[row + j] -= vi * s[j]
    }
  }
  return q
}

/**
 * Orthonormal columns spanning a's (a is overwritten; the result may share its memory).
 * `passes: 1` gives a basis orthonormal to ~1e-16·cond(a)², enough between power iterations;
 * the final basis takes 2 (CholeskyQR2, orthonormal to machine precision).
 */
export const orthonormalizeColumns = (a: Float64Array, m: number, n: number, passes: 1 | 2 = 2): Float64Array => {
  // A failed pass leaves a untouched, and a successful one keeps its column span.
  if (choleskyQrPass(a, m, n) && (passes === 1 || choleskyQrPass(a, m, n))) return a
  return householderOrthonormalize(a, m, n)
}
