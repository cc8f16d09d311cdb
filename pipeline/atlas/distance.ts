/**
 * Exact squared Euclidean distance from every cell centre to the nearest art cell centre, in
 * frame units (cells may be wider along one axis than another): the separable lower-envelope
 * transform of Felzenszwalb & Huttenlocher, linear in the number of cells. Its local maxima are
 * the centres of the largest empty balls, at every scale at once.
 */

/** One line: out[q] = min over art sites p of s2·(q − p)² + f[p]. */
const transformLine = (f: Float64Array, n: number, s2: number, out: Float64Array, v: Int32Array, z: Float64Array) => {
  let k = -1
  for (let q = 0; q < n; q++) {
    if (f[q] === Infinity) continue
    let s = 0
    while (k >= 0) {
      const p = v[k]
      s = (f[q] + s2 * q * q - (f[p] + s2 * p * p)) / (2 * s2 * (q - p))
      if (s <= z[k]) k--
      else break
    }
    k++
    v[k] = q
    z[k] = k === 0 ? -Infinity : s
    z[k + 1] = Infinity
  }
  if (k < 0) return out.fill(Infinity, 0, n)
  let j = 0
  for (let q = 0; q < n; q++) {
    while (z[j + 1] < q) j++
    out[q] = s2 * (q - v[j]) ** 2 + f[v[j]]
  }
  return out
}

export const squaredDistanceToArt = (art: Uint8Array, g: number, step: readonly [number, number, number]) => {
  const d = new Float64Array(g * g * g)
  for (let c = 0; c < d.length; c++) d[c] = art[c] ? 0 : Infinity
  const f = new Float64Array(g)
  const out = new Float64Array(g)
  const v = new Int32Array(g)
  const z = new Float64Array(g + 1)
  for (const axis of [0, 1, 2]) {
    const stride = axis === 0 ? g * g : axis === 1 ? g : 1
    const s2 = step[axis] ** 2
    for (let a = 0; a < g; a++)
      for (let b = 0; b < g; b++) {
        // The line along `axis` through the other two coordinates (a, b).
        const base = axis === 0 ? a * g + b : axis === 1 ? a * g * g + b : (a * g + b) * g
        for (let q = 0; q < g; q++) f[q] = d[base + q * stride]
        transformLine(f, g, s2, out, v, z)
        for (let q = 0; q < g; q++) d[base + q * stride] = out[q]
      }
  }
  return d
}
