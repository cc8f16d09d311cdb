/**
 * Exact nearest-neighbour distances in 3D through a uniform grid (counting-sorted cells,
 * searched in growing shells). Why not usearch: its exactSearch costs O(queries × points) and
 * an HNSW build over millions of points takes minutes, while the map is only three-dimensional
 * and a grid answers each query from a handful of cells, exactly.
 */

export interface Grid3 {
  /** Distance from point `i` of the grid's own points to its nearest other point. */
  readonly nearestOther: (i: number) => number
}

/** `xyz` is row-major [x0, y0, z0, x1, …]. */
export const grid3 = (xyz: Float32Array | Float64Array): Grid3 => {
  const n = Math.floor(xyz.length / 3)
  const lo = [Infinity, Infinity, Infinity]
  const hi = [-Infinity, -Infinity, -Infinity]
  for (let i = 0; i < n; i++)
    for (let d = 0; d < 3; d++) {
      lo[d] = Math.min(lo[d], xyz[i * 3 + d])
      hi[d] = Math.max(hi[d], xyz[i * 3 + d])
    }
  const span = lo.map((l, d) => Math.max(hi[d] - l, 1e-9))
  // About two cells per point: clustered maps leave many cells empty, dense ones stay small.
  const cell = Math.cbrt((span[0] * span[1] * span[2]) / Math.max(1, 2 * n)) || 1
  const dims = span.map((s) => Math.min(1024, Math.max(1, Math.ceil(s / cell))))
  const size = span.map((s, d) => s / dims[d])
  const coord = (v: number, d: number) => Math.min(dims[d] - 1, Math.max(0, Math.floor((v - lo[d]) / size[d])))
  const cellOf = (i: number) => (coord(xyz[i * 3], 0) * dims[1] + coord(xyz[i * 3 + 1], 1)) * dims[2] + coord(xyz[i * 3 + 2], 2)

  // Counting sort of points by cell: members of cell c are order[start[c] .. start[c + 1]).
  const cells = dims[0] * dims[1] * dims[2]
  const start = new Int32Array(cells + 1)
  const of = new Int32Array(n)
  for (let i = 0; i < n; i++) start[(of[i] = cellOf(i)) + 1]++
  for (let c = 0; c < cells; c++) start[c + 1] += start[c]
  const fill = start.slice(0, cells)
  const order = new Int32Array(n)
  for (let i = 0; i < n; i++) order[fill[of[i]]++] = i
  const minSize = Math.min(...size)

  const nearestOther = (q: number) => {
    const qc = [coord(xyz[q * 3], 0), coord(xyz[q * 3 + 1], 1), coord(xyz[q * 3 + 2], 2)]
    let best = Infinity
    const maxShell = Math.max(...dims)
    for (let r = 0; r <= maxShell; r++) {
      // A cell r steps away leaves at least r - 1 whole cells between it and the query's cell.
      if (best <= (r - 1) * minSize) break
      for (let a = qc[0] - r; a <= qc[0] + r; a++) {
        if (a < 0 || a >= dims[0]) continue
        for (let b = qc[1] - r; b <= qc[1] + r; b++) {
          if (b < 0 || b >= dims[1]) continue
          const onFace = Math.abs(a - qc[0]) === r || Math.abs(b - qc[1]) === r
          const step = onFace || r === 0 ? 1 : 2 * r
          for (let c = qc[2] - r; c <= qc[2] + r; c += step) {
            if (c < 0 || c >= dims[2]) continue
            const id = (a * dims[1] + b) * dims[2] + c
            for (let k = start[id]; k < start[id + 1]; k++) {
              const p = order[k]
              if (p === q) continue
              const dx = xyz[p * 3] - xyz[q * 3]
              const dy = xyz[p * 3 + 1] - xyz[q * 3 + 1]
              const dz = xyz[p * 3 + 2] - xyz[q * 3 + 2]
              const d2 = dx * dx + dy * dy + dz * dz
              if (d2 < best * best) best = Math.sqrt(d2)
            }
          }
        }
      }
    }
    return best
  }
  return { nearestOther }
}
