/**
 * Which cells of the fine grid hold art, judged against the density around them at several
 * scales. A cell with points is not art when, at some level of a grid pyramid (the fine grid, then
 * cells twice, four times … as wide), the 3³ block around it holds at most `fraction` of what its
 * surroundings (the 9³ block less the 3³ one) would put there. So a few stray documents inside a
 * gap do not fill it, at whatever density the corpus has reached, while a uniformly dense region
 * stays art everywhere.
 */
import type { Grid } from "./grid.ts"

export interface ArtOptions {
  /** Most a nearly empty block may hold, as a fraction of what its surroundings would put there. */
  readonly fraction: number
  /** Least expected count for a block's emptiness to mean anything. */
  readonly minExpected: number
  /** Coarsest level, in cells per axis. */
  readonly coarsest: number
}

/** Point counts on a `size`³ grid over the same frame as `grid`. */
const countsAt = (coords: Float32Array, grid: Grid, size: number) => {
  if (size === grid.size) return grid.counts
  const counts = new Float32Array(size * size * size)
  const step = grid.step.map((s) => (s * grid.size) / size)
  const cell = (v: number, d: number) => Math.min(size - 1, Math.max(0, Math.floor((v - grid.min[d]) / step[d])))
  for (let p = 0; p < coords.length / 3; p++) counts[(cell(coords[p * 3], 0) * size + cell(coords[p * 3 + 1], 1)) * size + cell(coords[p * 3 + 2], 2)]++
  return counts
}

/**
 * Summed-volume table of a size³ grid of counts: the sum over any box of cells, [i0, i1) × [j0, j1)
 * × [k0, k1), in eight lookups.
 */
export const boxSums = (counts: Float32Array, size: number) => {
  const s = size + 1
  const table = new Float64Array(s * s * s)
  for (let i = 1; i <= size; i++)
    for (let j = 1; j <= size; j++)
      for (let k = 1; k <= size; k++)
        table[(i * s + j) * s + k] =
          counts[((i - 1) * size + j - 1) * size + k - 1] +
          table[((i - 1) * s + j) * s + k] + table[(i * s + j - 1) * s + k] + table[(i * s + j) * s + k - 1] -
          table[((i - 1) * s + j - 1) * s + k] - table[((i - 1) * s + j) * s + k - 1] - table[(i * s + j - 1) * s + k - 1] +
          table[((i - 1) * s + j - 1) * s + k - 1]
  return (i0: number, i1: number, j0: number, j1: number, k0: number, k1: number) =>
    table[(i1 * s + j1) * s + k1] - table[(i0 * s + j1) * s + k1] - table[(i1 * s + j0) * s + k1] - table[(i1 * s + j1) * s + k0] +
    table[(i0 * s + j0) * s + k1] + table[(i0 * s + j1) * s + k0] + table[(i1 * s + j0) * s + k0] - table[(i0 * s + j0) * s + k0]
}

/** Cells whose 3³ block is nearly empty relative to the rest of their 9³ block. */
export const nearlyEmptyCells = (counts: Float32Array, size: number, options: ArtOptions) => {
  const boxSum = boxSums(counts, size)
  // Box bounds (in table coordinates) of half-width 1 and 4 around each index, clipped to the grid.
  const bounds = (h: number) => {
    const lo = new Int32Array(size)
    const hi = new Int32Array(size)
    for (let i = 0; i < size; i++) (lo[i] = Math.max(0, i - h)), (hi[i] = Math.min(size, i + h + 1))
    return { lo, hi }
  }
  const near = bounds(1)
  const far = bounds(4)
  const sparse = new Uint8Array(size * size * size)
  for (let i = 0; i < size; i++)
    for (let j = 0; j < size; j++)
      for (let k = 0; k < size; k++) {
        const inner = boxSum(near.lo[i], near.hi[i], near.lo[j], near.hi[j], near.lo[k], near.hi[k])
        const outer = boxSum(far.lo[i], far.hi[i], far.lo[j], far.hi[j], far.lo[k], far.hi[k])
        const innerCells = (near.hi[i] - near.lo[i]) * (near.hi[j] - near.lo[j]) * (near.hi[k] - near.lo[k])
        const outerCells = (far.hi[i] - far.lo[i]) * (far.hi[j] - far.lo[j]) * (far.hi[k] - far.lo[k])
        const expected = ((outer - inner) / Math.max(1, outerCells - innerCells)) * innerCells
        if (expected >= options.minExpected && inner <= options.fraction * expected) sparse[(i * size + j) * size + k] = 1
      }
  return sparse
}

/** 1 for fine cells that hold art, 0 for empty cells and cells of stray documents. */
export const artCells = (coords: Float32Array, grid: Grid, options: ArtOptions) => {
  const g = grid.size
  const art = new Uint8Array(g * g * g)
  for (let c = 0; c < art.length; c++) art[c] = grid.counts[c] > 0 ? 1 : 0
  for (let size = g; size >= options.coarsest; size = Math.floor(size / 2)) {
    const sparse = nearlyEmptyCells(countsAt(coords, grid, size), size, options)
    let any = false
    for (let c = 0; c < sparse.length && !any; c++) any = sparse[c] === 1
    if (!any) continue
    const level = Int32Array.from({ length: g }, (_, i) => Math.min(size - 1, Math.floor(((i + 0.5) * size) / g)))
    for (let i = 0; i < g; i++)
      for (let j = 0; j < g; j++)
        for (let k = 0; k < g; k++) {
          const c = (i * g + j) * g + k
          if (art[c] && sparse[(level[i] * size + level[j]) * size + level[k]]) art[c] = 0
        }
  }
  return art
}
