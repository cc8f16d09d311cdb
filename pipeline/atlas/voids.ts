/**
 * Void candidates in the 3D frame, as largest empty balls among dense art:
 *
 *   1. Empty cells: no art, and a smoothed density below a fraction of the median occupied cell
 *      (smoothing keeps the random gaps between neighbouring points from counting).
 *   2. Between dense art: dense cells on both sides along at least `minPairs` of the 13 opposite
 *      direction pairs (within a third of the grid). The empty space around the whole cloud fails.
 *   3. Centres: cells whose distance to the nearest art is a local maximum, so one wide gap can
 *      hold several voids; overlapping balls keep only the larger.
 *   4. Bordered: the nearest art must surround the centre, `balance` = 1 − |mean unit direction
 *      to the bordering points| (0 when all art lies on one side, 1 when evenly around).
 *   5. Significant: at the density of the bordering art (its K points in the shell between the
 *      void's radius r and the K-th distance R), the ball would hold λ = K·r³ / (R³ − r³) points;
 *      an empty ball with λ below `minExpected` is a chance gap between neighbours (P = e^−λ).
 *
 * Candidates are confirmed in the original vector space afterwards (confirm.ts).
 */
import { buildGrid, cellCentre, cellIndex, cellOf, type Grid, nearestPoints } from "./grid.ts"

export interface VoidSearchOptions {
  /** Cells per axis; by default about one cell per half point, 12 to 80. */
  readonly gridSize?: number
  /** A cell is empty when its smoothed density is below this fraction of the median occupied cell. */
  readonly emptyFraction?: number
  /** Opposite direction pairs (of 13) that must meet dense art on both sides. */
  readonly minPairs?: number
  /** Least balance of the bordering art around the centre (0–1). */
  readonly minBalance?: number
  /** How far (fraction of the grid) a ray looks for dense art. */
  readonly reach?: number
  /** Least number of documents the void would hold at its border's density. */
  readonly minExpected?: number
  /** Bordering points kept per void. */
  readonly border?: number
  /** Most candidates examined (largest first). */
  readonly maxCandidates?: number
}

export interface VoidCandidate {
  readonly position: readonly [number, number, number]
  /** Distance from the position to the nearest art: the radius of the empty ball. */
  readonly radius: number
  /** Fraction of the 13 opposite direction pairs with dense art on both sides. */
  readonly enclosure: number
  readonly balance: number
  /** Documents the void would hold at the density of its bordering art. */
  readonly expected: number
  /** Smoothed density at the position and mean over the bordering art's cells (points per cell). */
  readonly centreDensity: number
  readonly borderDensity: number
  /** The nearest points (indices into the coordinate array), nearest first. */
  readonly bordering: ReadonlyArray<{ readonly point: number; readonly distance: number }>
}

export const gridSizeFor = (points: number) => Math.min(80, Math.max(12, Math.round(Math.cbrt(points * 2))))

/** One direction of each of the 13 opposite pairs. */
const HALF_DIRECTIONS: ReadonlyArray<readonly [number, number, number]> = (() => {
  const out: Array<[number, number, number]> = []
  for (const a of [-1, 0, 1]) for (const b of [-1, 0, 1]) for (const c of [-1, 0, 1]) if (a > 0 || (a === 0 && (b > 0 || (b === 0 && c > 0)))) out.push([a, b, c])
  return out
})()

const median = (values: number[]) => {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

const meetsDense = (grid: Grid, i: number, j: number, k: number, a: number, b: number, c: number, dense: number, reach: number) => {
  const g = grid.size
  for (let r = 1; r <= reach; r++) {
    const x = i + a * r, y = j + b * r, z = k + c * r
    if (x < 0 || y < 0 || z < 0 || x >= g || y >= g || z >= g) return false
    if (grid.density[cellIndex(g, x, y, z)] >= dense) return true
  }
  return false
}

const enclosedPairs = (grid: Grid, i: number, j: number, k: number, dense: number, reach: number) => {
  let pairs = 0
  for (const [a, b, c] of HALF_DIRECTIONS)
    if (meetsDense(grid, i, j, k, a, b, c, dense, reach) && meetsDense(grid, i, j, k, -a, -b, -c, dense, reach)) pairs++
  return pairs
}

const balanceOf = (coords: Float32Array, centre: readonly number[], bordering: ReadonlyArray<{ point: number; distance: number }>) => {
  const sum = [0, 0, 0]
  for (const { point, distance } of bordering) for (let d = 0; d < 3; d++) sum[d] += (coords[point * 3 + d] - centre[d]) / Math.max(1e-9, distance)
  return 1 - Math.hypot(...sum) / Math.max(1, bordering.length)
}

export const findVoidCandidates = (coords: Float32Array, options: VoidSearchOptions = {}) => {
  const n = coords.length / 3
  const g = options.gridSize ?? gridSizeFor(n)
  const grid = buildGrid(coords, g)
  const occupied: number[] = []
  for (let c = 0; c < grid.counts.length; c++) if (grid.counts[c] > 0) occupied.push(grid.density[c])
  const dense = median(occupied)
  const emptyBelow = (options.emptyFraction ?? 0.4) * dense
  const minPairs = options.minPairs ?? 1
  const reach = Math.max(3, Math.ceil(g * (options.reach ?? 1 / 3)))
  const meanStep = (grid.step[0] + grid.step[1] + grid.step[2]) / 3

  // 1–2. Empty cells between dense art, with their distance to the nearest art.
  const clearance = new Float32Array(grid.counts.length).fill(-1)
  const pairsOf = new Uint8Array(grid.counts.length)
  const cells: number[] = []
  for (let i = 1; i < g - 1; i++)
    for (let j = 1; j < g - 1; j++)
      for (let k = 1; k < g - 1; k++) {
        const c = cellIndex(g, i, j, k)
        if (grid.counts[c] > 0 || grid.density[c] >= emptyBelow) continue
        const pairs = enclosedPairs(grid, i, j, k, dense, reach)
        if (pairs < minPairs) continue
        pairsOf[c] = pairs
        clearance[c] = nearestPoints(grid, coords, ...cellCentre(grid, i, j, k), 1)[0]?.distance ?? 0
        cells.push(c)
      }

  // 3. Local maxima of the clearance (ties go to the lower cell index).
  const centres = cells.filter((c) => {
    const i = Math.floor(c / (g * g)), j = Math.floor(c / g) % g, k = c % g
    for (let a = -1; a <= 1; a++)
      for (let b = -1; b <= 1; b++)
        for (let d = -1; d <= 1; d++) {
          if (!a && !b && !d) continue
          const nc = cellIndex(g, i + a, j + b, k + d)
          if (clearance[nc] > clearance[c] || (clearance[nc] === clearance[c] && nc < c)) return false
        }
    // A gap narrower than a cell is noise between points, not a region.
    return clearance[c] >= 0.75 * meanStep
  })
  centres.sort((a, b) => clearance[b] - clearance[a] || a - b)

  // 4. Bordered centres, larger balls first; a ball whose centre lies inside a kept one is dropped.
  const borderK = options.border ?? 48
  const minBalance = options.minBalance ?? 0.35
  const minExpected = options.minExpected ?? 6
  const candidates: VoidCandidate[] = []
  for (const c of centres) {
    if (candidates.length >= (options.maxCandidates ?? 2000)) break
    const position = cellCentre(grid, Math.floor(c / (g * g)), Math.floor(c / g) % g, c % g)
    const radius = clearance[c]
    if (candidates.some((v) => Math.hypot(v.position[0] - position[0], v.position[1] - position[1], v.position[2] - position[2]) < Math.max(v.radius, radius)))
      continue
    const bordering = nearestPoints(grid, coords, ...position, borderK)
    const balance = balanceOf(coords, position, bordering)
    if (balance < minBalance) continue
    const outer = bordering[bordering.length - 1]?.distance ?? radius
    const expected = outer > radius ? (bordering.length * radius ** 3) / (outer ** 3 - radius ** 3) : Infinity
    if (!(expected >= minExpected)) continue
    const borderDensity =
      bordering.reduce((s, b) => s + grid.density[cellIndex(g, ...cellOf(grid, coords[b.point * 3], coords[b.point * 3 + 1], coords[b.point * 3 + 2]))], 0) /
      Math.max(1, bordering.length)
    candidates.push({ position, radius, enclosure: pairsOf[c] / HALF_DIRECTIONS.length, balance, expected: Math.min(expected, 1e6), centreDensity: grid.density[c], borderDensity, bordering })
  }
  return { grid, dense, candidates }
}
