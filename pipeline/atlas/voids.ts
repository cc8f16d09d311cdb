/**
 * Void candidates in the 3D frame: nearly empty balls that are significant against the density
 * of the art right around them, at whatever scale and corpus size.
 *
 *   0. Scales: the grid sized for the corpus, then finer grids (twice the cells each) while the art
 *      is still clumped at their scale (scalesFor): a map's clusters are denser than the corpus
 *      spread evenly would be, and a gap inside them is narrower than the corpus-sized cells.
 *      Every step below runs on each grid; a ball whose centre lies inside a wider one found on
 *      any grid is the same gap and is dropped.
 *   1. Art cells (pyramid.ts): cells with documents, less the stray documents of blocks that are
 *      nearly empty relative to their surroundings at some level of a grid pyramid.
 *   2. Centres (distance.ts): local maxima of the distance to the nearest art cell, so one wide
 *      gap can hold several voids and voids of every size come out of one pass; they are
 *      examined (at most `maxCandidates`) in the order of the documents their ball would hold at
 *      the density around it, so the wide gaps of sparse art do not crowd out the narrow gaps of
 *      dense art.
 *   3. Enclosed: along each of the 26 grid directions, the first art within 1.5 radii is the
 *      bordering art on that side. `enclosure` is the share of the 13 opposite pairs with art on
 *      both sides; `balance` = 1 − |mean unit direction to the bordering art| (0 when all art lies
 *      on one side, 1 when evenly around). The empty space around the whole cloud fails both.
 *   4. Significant: the art in a thin shell just outside the ball (radius r = distance to the
 *      nearest art point) gives the local density, at which the ball would hold λ documents; it
 *      holds k strays. A void needs k ≤ `fraction`·λ and a chance −ln P(X ≤ k | λ) of at least
 *      ln(points) + `margin`: the largest chance gap in a uniformly dense space of N points
 *      measures about ln N (ln N + 4 at worst over 12 uniform spaces of 8k–300k points), so such a
 *      space shows none, while a gap that is empty relative to its own surroundings stays a gap
 *      as the corpus grows around it.
 *
 * Candidates are confirmed in the original vector space afterwards (confirm.ts), against
 * populated places whose bordering art is gathered the same way (`references`).
 */
import { squaredDistanceToArt } from "./distance.ts"
import { buildGrid, cellCentre, cellIndex, cellOf, type Grid, nearestPoints } from "./grid.ts"
import { artCells, boxSums } from "./pyramid.ts"

export interface VoidSearchOptions {
  /** Cells per axis of the first (coarsest searched) grid; by default about one cell per half point, 16 to 160. */
  readonly gridSize?: number
  /** The grids to search, instead of the first grid and the finer ones chosen by `minResolved`. */
  readonly gridSizes?: ReadonlyArray<number>
  /** Finer grids are searched while their art cells hold at least this many documents on average. */
  readonly minResolved?: number
  /** Populated places the vector check is calibrated on. */
  readonly referencePlaces?: number
  /** Most documents a void may hold, as a fraction of what its surroundings would put there. */
  readonly fraction?: number
  /** A block of cells holds strays, not art, below this fraction of its surroundings' density. */
  readonly strayFraction?: number
  /** Significance: −ln P(this empty | local density) must reach ln(points) + margin (default 5). */
  readonly margin?: number
  /** Least share of the 13 opposite direction pairs with bordering art on both sides. */
  readonly minEnclosure?: number
  /** Least balance of the bordering art around the centre (0–1). */
  readonly minBalance?: number
  /** Most centres examined (largest first). */
  readonly maxCandidates?: number
}

export interface VoidCandidate {
  readonly position: readonly [number, number, number]
  /** Distance from the position to the nearest art: the radius of the (nearly) empty ball. */
  readonly radius: number
  /** Cells per axis of the grid that found it. */
  readonly gridSize: number
  /** Share of the 13 opposite direction pairs with bordering art on both sides. */
  readonly enclosure: number
  readonly balance: number
  /** Documents the ball would hold at the density of the art around it (λ). */
  readonly expected: number
  /** Stray documents inside the ball. */
  readonly strays: number
  /** −ln P(at most `strays` documents | λ = expected): how unlikely the gap is by chance. */
  readonly surprise: number
  /** Documents per cell of the first grid inside the ball and in the shell around it. */
  readonly centreDensity: number
  readonly borderDensity: number
  /** Bordering art (indices into the coordinate array), nearest first. */
  readonly bordering: ReadonlyArray<{ readonly point: number; readonly distance: number }>
}

export const gridSizeFor = (points: number) => Math.min(160, Math.max(16, Math.round(Math.cbrt(points * 2))))

/** The 26 grid directions; entry 25 − s is the opposite of entry s. */
export const DIRECTIONS: ReadonlyArray<readonly [number, number, number]> = (() => {
  const out: Array<[number, number, number]> = []
  for (const a of [-1, 0, 1]) for (const b of [-1, 0, 1]) for (const c of [-1, 0, 1]) if (a || b || c) out.push([a, b, c])
  return out
})()
const BLOCK: ReadonlyArray<readonly [number, number, number]> = [[0, 0, 0], ...DIRECTIONS]

/** ln P(X ≤ k) for X ~ Poisson(λ). */
export const logPoissonCdf = (k: number, lambda: number) => {
  const terms = [-lambda]
  for (let i = 1; i <= k; i++) terms.push(terms[i - 1] + Math.log(lambda) - Math.log(i))
  const max = Math.max(...terms)
  return max + Math.log(terms.reduce((s, t) => s + Math.exp(t - max), 0))
}

/** Local maxima of the clearance among interior empty cells (ties: the lower index is the maximum). */
const clearanceMaxima = (d: Float64Array, art: Uint8Array, g: number, least: number) => {
  const offsets = DIRECTIONS.map(([a, b, e]) => (a * g + b) * g + e)
  const out: number[] = []
  for (let i = 1; i < g - 1; i++)
    for (let j = 1; j < g - 1; j++)
      next: for (let k = 1; k < g - 1; k++) {
        const c = cellIndex(g, i, j, k)
        if (art[c] || d[c] < least) continue
        for (const o of offsets) if (d[c + o] > d[c] || (d[c + o] === d[c] && o < 0)) continue next
        out.push(c)
      }
  return out
}

/**
 * Centres ordered by the documents their clearance ball would hold at the density of the block
 * around it (twice the clearance each way), most first (ties: lower index): on a fine grid the
 * widest gaps are the spacing of sparse art, so ordering by width alone would spend the
 * examined centres there and never reach a smaller gap inside dense art.
 */
const byLocalExpectation = (centres: ReadonlyArray<number>, d: Float64Array, grid: Grid) => {
  const g = grid.size
  const boxSum = boxSums(grid.counts, g)
  const cellVolume = grid.step[0] * grid.step[1] * grid.step[2]
  const expectation = new Map<number, number>()
  for (const c of centres) {
    const r = Math.sqrt(d[c])
    const at = [Math.floor(c / (g * g)), Math.floor(c / g) % g, c % g]
    const [lo, hi] = [0, 1].map((side) =>
      at.map((v, axis) => {
        const h = Math.ceil((2 * r) / grid.step[axis])
        return side === 0 ? Math.max(0, v - h) : Math.min(g, v + h + 1)
      })
    )
    const documents = boxSum(lo[0], hi[0], lo[1], hi[1], lo[2], hi[2])
    const volume = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]) * cellVolume
    expectation.set(c, (documents / Math.max(volume - ballVolume(r), 0.5 * volume)) * ballVolume(r))
  }
  return [...centres].sort((a, b) => expectation.get(b)! - expectation.get(a)! || a - b)
}

const distanceTo = (coords: Float32Array, p: number, centre: readonly number[]) =>
  Math.hypot(coords[p * 3] - centre[0], coords[p * 3 + 1] - centre[1], coords[p * 3 + 2] - centre[2])

/**
 * Along each direction, the nearest art point of the first 3³ block of cells around the ray that
 * holds art within `reach` (a block, not a single cell, so sparse art is not missed between cells).
 */
const borderingByDirection = (grid: Grid, coords: Float32Array, art: Uint8Array, cell: readonly number[], centre: readonly number[], reach: number, skipCell = -1) => {
  const g = grid.size
  return DIRECTIONS.map(([a, b, e]) => {
    const stride = Math.hypot(a * grid.step[0], b * grid.step[1], e * grid.step[2])
    for (let t = 1; t * stride <= reach; t++) {
      const i = cell[0] + a * t, j = cell[1] + b * t, k = cell[2] + e * t
      if (i < 1 || j < 1 || k < 1 || i >= g - 1 || j >= g - 1 || k >= g - 1) return null
      let best = { point: -1, distance: Infinity }
      for (const [da, db, de] of BLOCK) {
        const c = cellIndex(g, i + da, j + db, k + de)
        if (!art[c] || c === skipCell) continue
        for (let s = grid.start[c]; s < grid.start[c + 1]; s++) {
          const distance = distanceTo(coords, grid.order[s], centre)
          if (distance < best.distance) best = { point: grid.order[s], distance }
        }
      }
      if (best.point >= 0) return best
    }
    return null
  })
}

/** Distances from `centre` to every document within `reach`, ascending. */
const distancesWithin = (grid: Grid, coords: Float32Array, centre: readonly number[], reach: number) => {
  const g = grid.size
  const range = (d: number) => [
    Math.max(0, Math.floor((centre[d] - reach - grid.min[d]) / grid.step[d])),
    Math.min(g - 1, Math.floor((centre[d] + reach - grid.min[d]) / grid.step[d]))
  ]
  const [[i0, i1], [j0, j1], [k0, k1]] = [range(0), range(1), range(2)]
  const out: number[] = []
  for (let i = i0; i <= i1; i++)
    for (let j = j0; j <= j1; j++)
      for (let k = k0; k <= k1; k++) {
        const c = cellIndex(g, i, j, k)
        for (let s = grid.start[c]; s < grid.start[c + 1]; s++) {
          const distance = distanceTo(coords, grid.order[s], centre)
          if (distance < reach) out.push(distance)
        }
      }
  return Float64Array.from(out).sort()
}

/** Index of the first entry ≥ v in an ascending array. */
const lowerBound = (sorted: Float64Array, v: number) => {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (sorted[mid] < v) lo = mid + 1
    else hi = mid
  }
  return lo
}

const ballVolume = (r: number) => (4 / 3) * Math.PI * r ** 3

/** Cells per axis of the finest grid the search uses. */
export const MAX_GRID_SIZE = 160
/** Each finer scale has this many times the cells per axis of the one before (twice the cells). */
const SCALE_STEP = Math.cbrt(2)

interface Scale {
  readonly grid: Grid
  readonly art: Uint8Array
  /** Documents per art cell. */
  readonly dense: number
}

const scaleOf = (coords: Float32Array, size: number, strayFraction: number): Scale => {
  const grid = buildGrid(coords, size)
  const art = artCells(coords, grid, { fraction: strayFraction, minExpected: 8, coarsest: 6 })
  let artCount = 0
  let artPoints = 0
  for (let c = 0; c < art.length; c++) if (art[c]) (artCount++, (artPoints += grid.counts[c]))
  return { grid, art, dense: artPoints / Math.max(1, artCount) }
}

/** The candidates one grid sees: clearance maxima whose balls pass significance, enclosure and balance. */
const candidatesAt = (
  coords: Float32Array,
  { grid, art }: Scale,
  unitVolume: number,
  o: { readonly fraction: number; readonly threshold: number; readonly minEnclosure: number; readonly minBalance: number; readonly maxCandidates: number }
) => {
  const g = grid.size
  const meanStep = (grid.step[0] + grid.step[1] + grid.step[2]) / 3
  const cellDiagonal = Math.hypot(...grid.step)
  const clearance = squaredDistanceToArt(art, g, grid.step)
  // Centres at least a cell from art: narrower gaps are the spacing between neighbours.
  const centres = byLocalExpectation(clearanceMaxima(clearance, art, g, meanStep ** 2), clearance, grid)
  const shellWidth = (r: number) => Math.max(2 * cellDiagonal, 0.2 * r)
  const candidates: VoidCandidate[] = []
  for (const c of centres.slice(0, o.maxCandidates)) {
    const cell = [Math.floor(c / (g * g)), Math.floor(c / g) % g, c % g]
    const position = cellCentre(grid, cell[0], cell[1], cell[2])
    // Inside a wider gap already kept: the same gap (a narrower kept one is settled by the merge of scales).
    const width = Math.sqrt(clearance[c])
    if (candidates.some((v) => v.radius >= width && Math.hypot(v.position[0] - position[0], v.position[1] - position[1], v.position[2] - position[2]) < v.radius)) continue
    const nearest = nearestPoints(grid, coords, ...position, 1, art)[0]
    // A gap narrower than a cell is noise between points, not a region.
    if (!nearest || nearest.distance < 0.75 * meanStep) continue
    // Significance first, the cheapest test for the many small gaps between neighbours: the ball
    // reaches the nearest art, the documents inside it are strays, and the art in a thin shell
    // outside it gives the density the ball is judged against.
    const radius = nearest.distance
    const outer = radius + shellWidth(radius)
    const distances = distancesWithin(grid, coords, position, outer)
    const strays = lowerBound(distances, radius)
    const shellDensity = (distances.length - strays) / (ballVolume(outer) - ballVolume(radius))
    const expected = shellDensity * ballVolume(radius)
    if (strays > o.fraction * expected) continue
    const surprise = -logPoissonCdf(strays, expected)
    if (surprise < o.threshold) continue
    const sides = borderingByDirection(grid, coords, art, cell, position, 1.5 * radius + 2 * cellDiagonal)
    let pairs = 0
    for (let s = 0; s < 13; s++) if (sides[s] && sides[25 - s]) pairs++
    const enclosure = pairs / 13
    if (enclosure < o.minEnclosure) continue
    const present = sides.filter((s): s is { point: number; distance: number } => s !== null)
    const pull = [0, 0, 0]
    for (const { point, distance } of present) for (let d = 0; d < 3; d++) pull[d] += (coords[point * 3 + d] - position[d]) / Math.max(1e-9, distance)
    const balance = 1 - Math.hypot(...pull) / Math.max(1, present.length)
    if (balance < o.minBalance) continue
    const bordering = [nearest, ...present]
      .filter((s, i, all) => all.findIndex((other) => other.point === s.point) === i)
      .sort((a, b) => a.distance - b.distance)
    candidates.push({
      position,
      radius,
      gridSize: g,
      enclosure,
      balance,
      expected: Math.min(expected, 1e6),
      strays,
      surprise,
      centreDensity: (strays / ballVolume(radius)) * unitVolume,
      borderDensity: shellDensity * unitVolume,
      bordering
    })
  }
  return candidates
}

/**
 * The grids the search runs on: the fine grid for the corpus size, then finer ones (twice the
 * cells each) as long as their art cells still hold `minResolved` documents each on average: the
 * art is clumped at that scale, and the gaps between and inside the clumps are seen at the
 * spacing of the clumps' own documents, not at the spacing the corpus would have if it were
 * spread evenly. An evenly spread corpus gets one grid (its art cells hold about 1.3 documents at
 * the first grid, as do the synthetic spaces with dense clusters: 1.5 at the second).
 */
const scalesFor = (coords: Float32Array, base: number, strayFraction: number, minResolved: number, explicit?: ReadonlyArray<number>) => {
  if (explicit) return explicit.map((size) => scaleOf(coords, size, strayFraction))
  const scales = [scaleOf(coords, base, strayFraction)]
  for (let size = Math.round(base * SCALE_STEP); size <= MAX_GRID_SIZE; size = Math.round(size * SCALE_STEP)) {
    // A finer grid's art cells hold fewer documents than a coarser one's.
    if (scales[scales.length - 1].dense < minResolved) break
    const next = scaleOf(coords, size, strayFraction)
    if (next.dense < minResolved) break
    scales.push(next)
  }
  return scales
}

/** How many populated places the vector check compares voids with (confirm.ts). */
export const REFERENCE_PLACES = 200

/**
 * Bordering art around populated places, gathered as a void's is (the nearest art along each
 * grid direction within the reach of a typical candidate), around documents spread evenly over
 * the corpus (every n/count-th): confirm.ts measures how covered the centre of such art is in
 * vector space where the map has no gap, and a void must be emptier than that.
 */
const referencePlaces = (coords: Float32Array, { grid, art }: Scale, reach: number, count: number) => {
  const n = coords.length / 3
  const every = Math.max(1, Math.floor(n / count))
  const places: Array<{ readonly point: number; readonly bordering: ReadonlyArray<{ readonly point: number; readonly distance: number }> }> = []
  for (let p = 0; p < n && places.length < count; p += every) {
    const position = [coords[p * 3], coords[p * 3 + 1], coords[p * 3 + 2]] as const
    const cell = cellOf(grid, ...position)
    if (!art[cellIndex(grid.size, ...cell)]) continue
    // The place's own cell is left out, as a void's centre cell holds no art.
    const bordering = borderingByDirection(grid, coords, art, cell, position, reach, cellIndex(grid.size, ...cell))
      .filter((s): s is { point: number; distance: number } => s !== null)
      .filter((s, i, all) => all.findIndex((other) => other.point === s.point) === i)
      .sort((a, b) => a.distance - b.distance)
    if (bordering.length >= 3) places.push({ point: p, bordering })
  }
  return places
}

export const findVoidCandidates = (coords: Float32Array, options: VoidSearchOptions = {}) => {
  const n = coords.length / 3
  const strayFraction = options.strayFraction ?? 0.1
  const scales = scalesFor(coords, options.gridSize ?? gridSizeFor(n), strayFraction, options.minResolved ?? 1.75, options.gridSizes)
  // Typical density and the unit of `centreDensity` / `borderDensity`: documents per art cell of the first grid.
  const { grid, dense } = scales[0]
  const unitVolume = grid.step[0] * grid.step[1] * grid.step[2]
  const settings = {
    fraction: options.fraction ?? 0.1,
    threshold: Math.log(n) + (options.margin ?? 5),
    minEnclosure: options.minEnclosure ?? 0.5,
    minBalance: options.minBalance ?? 0.5,
    maxCandidates: options.maxCandidates ?? 5000
  }
  // Every scale's candidates, the widest first: a ball whose centre lies inside a wider kept one
  // is the same gap seen on another grid.
  const found = scales.flatMap((scale) => candidatesAt(coords, scale, unitVolume, settings))
  found.sort((a, b) => b.radius - a.radius || a.gridSize - b.gridSize)
  const candidates: VoidCandidate[] = []
  for (const c of found) {
    if (candidates.some((v) => Math.hypot(v.position[0] - c.position[0], v.position[1] - c.position[1], v.position[2] - c.position[2]) < v.radius)) continue
    candidates.push(c)
  }
  // Populated places at the reach of the median candidate, for the vector check's calibration.
  const radii = candidates.map((c) => c.radius).sort((a, b) => a - b)
  const references = radii.length
    ? referencePlaces(coords, scales[0], 1.5 * radii[Math.floor(radii.length / 2)] + 2 * Math.hypot(...grid.step), options.referencePlaces ?? REFERENCE_PLACES)
    : []
  return { grid, dense, candidates, references, gridSizes: scales.map((s) => s.grid.size) }
}
