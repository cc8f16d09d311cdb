/**
 * A uniform 3D grid over the map frame: point counts per cell and a
 * bucket index (points sorted by cell) for nearest-point queries. Everything is flat typed
 * arrays so ten million points fit in a few hundred MB.
 */

export interface Grid {
  /** Cells per axis. */
  readonly size: number
  readonly min: readonly [number, number, number]
  /** Edge length of a cell per axis. */
  readonly step: readonly [number, number, number]
  /** Raw point count per cell. */
  readonly counts: Float32Array
  /** Points ordered by cell: points of cell c are order[start[c] .. start[c + 1]). */
  readonly start: Int32Array
  readonly order: Int32Array
}

export const cellIndex = (g: number, i: number, j: number, k: number) => (i * g + j) * g + k

export const cellOf = (grid: Grid, x: number, y: number, z: number): [number, number, number] => {
  const c = (v: number, d: number) => Math.min(grid.size - 1, Math.max(0, Math.floor((v - grid.min[d]) / grid.step[d])))
  return [c(x, 0), c(y, 1), c(z, 2)]
}

export const cellCentre = (grid: Grid, i: number, j: number, k: number): [number, number, number] => [
  grid.min[0] + (i + 0.5) * grid.step[0],
  grid.min[1] + (j + 0.5) * grid.step[1],
  grid.min[2] + (k + 0.5) * grid.step[2]
]

/** Builds the grid over `coords` (x, y, z interleaved) with `size` cells per axis. */
export const buildGrid = (coords: Float32Array, size: number): Grid => {
  const n = coords.length / 3
  // Bounds from the 0.5th to the 99.5th percentile per axis: a few outlying islands would
  // otherwise stretch the grid until the main body of art fits in a handful of cells. Points
  // outside fall into the border cells, which never hold a void.
  const lo = [0, 0, 0]
  const hi = [0, 0, 0]
  const sample = Math.max(1, Math.floor(n / 200_000))
  for (let d = 0; d < 3; d++) {
    const axis = new Float64Array(Math.ceil(n / sample))
    for (let p = 0, q = 0; p < n; p += sample) axis[q++] = coords[p * 3 + d]
    axis.sort()
    lo[d] = axis[Math.floor((axis.length - 1) * 0.005)] ?? 0
    hi[d] = axis[Math.ceil((axis.length - 1) * 0.995)] ?? 0
  }
  // A margin of one cell keeps the outermost art off the grid border.
  const step = [0, 1, 2].map((d) => Math.max(1e-9, (hi[d] - lo[d]) / Math.max(1, size - 2))) as [number, number, number]
  const min = [0, 1, 2].map((d) => lo[d] - step[d]) as [number, number, number]
  const cells = size * size * size
  const counts = new Float32Array(cells)
  const cellOfPoint = new Int32Array(n)
  const partial: Grid = { size, min, step, counts, start: new Int32Array(0), order: new Int32Array(0) }
  const axisCell = (v: number, d: number) => {
    const c = Math.floor((v - min[d]) / step[d])
    return c < 0 ? 0 : c >= size ? size - 1 : c
  }
  for (let p = 0; p < n; p++) {
    const c = cellIndex(size, axisCell(coords[p * 3], 0), axisCell(coords[p * 3 + 1], 1), axisCell(coords[p * 3 + 2], 2))
    cellOfPoint[p] = c
    counts[c]++
  }
  const start = new Int32Array(cells + 1)
  for (let c = 0; c < cells; c++) start[c + 1] = start[c] + counts[c]
  const fill = start.slice(0, cells)
  const order = new Int32Array(n)
  for (let p = 0; p < n; p++) order[fill[cellOfPoint[p]]++] = p
  return { ...partial, start, order }
}

/**
 * The k points nearest to (x, y, z), nearest first: cube shells of cells are searched outward
 * until the next shell cannot hold anything nearer than the k-th point found. With `cells`, only
 * points in cells marked 1 count (the art, leaving out stray documents).
 */
export const nearestPoints = (grid: Grid, coords: Float32Array, x: number, y: number, z: number, k: number, cells?: Uint8Array) => {
  const g = grid.size
  const [ci, cj, ck] = cellOf(grid, x, y, z)
  const minStep = Math.min(...grid.step)
  const found: Array<{ point: number; distance: number }> = []
  const kth = () => (found.length < k ? Infinity : found[k - 1].distance)
  for (let r = 0; r <= g; r++) {
    for (let i = ci - r; i <= ci + r; i++) {
      if (i < 0 || i >= g) continue
      for (let j = cj - r; j <= cj + r; j++) {
        if (j < 0 || j >= g) continue
        for (let kk = ck - r; kk <= ck + r; kk++) {
          if (kk < 0 || kk >= g) continue
          // Only the shell at Chebyshev distance r is new.
          if (Math.max(Math.abs(i - ci), Math.abs(j - cj), Math.abs(kk - ck)) !== r) continue
          const c = cellIndex(g, i, j, kk)
          if (cells && !cells[c]) continue
          for (let s = grid.start[c]; s < grid.start[c + 1]; s++) {
            const p = grid.order[s]
            const distance = Math.hypot(coords[p * 3] - x, coords[p * 3 + 1] - y, coords[p * 3 + 2] - z)
            if (distance < kth()) {
              found.push({ point: p, distance })
              found.sort((a, b) => a.distance - b.distance)
              if (found.length > k) found.pop()
            }
          }
        }
      }
    }
    // Anything in shell r + 1 lies at least r · step away from the query point.
    if (found.length >= k && kth() <= r * minStep) break
  }
  return found
}
