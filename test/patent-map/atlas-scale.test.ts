/**
 * The void finder at corpus scale: synthetic spaces of 100k and 1M points (generated in memory)
 * with planted gaps. The fixed grid it replaced found nothing at 1M because its cells filled up;
 * voids judged against the density around them must come out at every size, once each, and a
 * uniformly dense region must show none. Vector-space confirmation runs against a stand-in
 * index over the documents' semantic positions (the synthetic vectors embed them linearly),
 * calibrated on populated places as the stage calibrates it, so the projection artefact, empty on
 * the map only, is dropped as the stage drops it.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { seededRandom } from "../../core/random.ts"
import { confirmVoids, NEIGHBOURS, vectorCheckMargin, type VectorSpace } from "../../pipeline/atlas/confirm.ts"
import { buildGrid, nearestPoints } from "../../pipeline/atlas/grid.ts"
import { findVoidCandidates, type VoidCandidate } from "../../pipeline/atlas/voids.ts"
import { ARTEFACT_HOLE, DENSE_CLUSTERS, PLANTED_VOIDS, syntheticPositions } from "./synthetic-space.ts"

const distance = (p: readonly number[], c: readonly number[]) => Math.hypot(p[0] - c[0], p[1] - c[1], p[2] - c[2])

/** Vectors as writeSyntheticSpace makes them (without the noise dimensions), searched exactly near the query. */
const semanticSpace = (semantic: Float32Array): VectorSpace => {
  const grid = buildGrid(semantic, 64)
  const vectorAt = (x: number, y: number, z: number) => {
    const v = Float32Array.of(x * 0.1, y * 0.1, z * 0.1, 1)
    const norm = Math.hypot(...v)
    return v.map((e) => e / norm)
  }
  const vectorOf = (p: number) => vectorAt(semantic[p * 3], semantic[p * 3 + 1], semantic[p * 3 + 2])
  const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, e, i) => s + e * b[i], 0)
  return {
    dims: 4,
    vectorOf,
    similarityToNearest: (queries, self) =>
      queries.map((q, i) => {
        const near = nearestPoints(grid, semantic, (q[0] / q[3]) * 10, (q[1] / q[3]) * 10, (q[2] / q[3]) * 10, NEIGHBOURS + 1)
        const similarities = near.filter((m) => m.point !== self[i]).map((m) => cosine(q, vectorOf(m.point)))
        return similarities.sort((a, b) => b - a)[NEIGHBOURS - 1]
      })
  }
}

describe.each([100_000, 1_000_000])("void finder on %i synthetic points", (points) => {
  let candidates: ReadonlyArray<VoidCandidate>
  let voids: ReadonlyArray<VoidCandidate>
  beforeAll(() => {
    const { coords, semantic } = syntheticPositions(points)
    const search = findVoidCandidates(coords)
    candidates = search.candidates
    const space = semanticSpace(semantic)
    voids = confirmVoids(candidates, space, vectorCheckMargin(search.references, space)).map((v) => v.candidate)
  })

  it("finds every planted gap once, centred inside it and nearly as wide", () => {
    for (const planted of PLANTED_VOIDS) {
      const found = voids.filter((v) => distance(v.position, planted.centre) < planted.radius / 2)
      expect(found).toHaveLength(1)
      expect(found[0].radius).toBeGreaterThan(planted.radius * 0.8)
      expect(found[0].strays).toBeLessThan(0.01 * found[0].expected)
      expect(found[0].bordering.length).toBeGreaterThanOrEqual(20)
    }
  })

  it("drops the projection artefact, which is empty on the map but not in vector space", () => {
    expect(candidates.some((c) => distance(c.position, ARTEFACT_HOLE.centre) < ARTEFACT_HOLE.radius)).toBe(true)
    expect(voids.filter((v) => distance(v.position, ARTEFACT_HOLE.centre) < ARTEFACT_HOLE.radius)).toEqual([])
  })

  it("reports no void in the uniformly dense background or in the dense clusters", () => {
    const planted = (v: VoidCandidate) => PLANTED_VOIDS.some((p) => distance(v.position, p.centre) < p.radius)
    expect(voids.filter((v) => !planted(v))).toEqual([])
    for (const cluster of DENSE_CLUSTERS) expect(candidates.filter((c) => distance(c.position, cluster.centre) < 2 * cluster.sigma)).toEqual([])
  })
})

describe("void finder on a uniformly dense space", () => {
  it("finds no void among 300k uniform points", () => {
    const random = seededRandom(11)
    const coords = Float32Array.from({ length: 300_000 * 3 }, () => random() * 10)
    expect(findVoidCandidates(coords).candidates).toEqual([])
  })

  it("finds a gap sprinkled with stray documents (nearly empty) among 300k points", () => {
    // A ball of radius 1.2 at 1% of the surrounding density: empty relative to its surroundings.
    const random = seededRandom(12)
    const centre = [5, 5, 5]
    const coords = new Float32Array(300_000 * 3)
    for (let p = 0; p < 300_000; ) {
      const q = [random() * 10, random() * 10, random() * 10]
      if (distance(q, centre) < 1.2 && random() > 0.01) continue
      coords.set(q, p++ * 3)
    }
    const found = findVoidCandidates(coords).candidates
    expect(found).toHaveLength(1)
    expect(distance(found[0].position, centre)).toBeLessThan(0.6)
    expect(found[0].radius).toBeGreaterThan(0.6)
    expect(found[0].strays).toBeGreaterThan(0)
  })
})

describe("void finder on clumped art", () => {
  // Most documents packed in one small cube inside a sparse background, as a map's clusters are:
  // a gap inside the clump is narrower than a cell of the grid sized for the whole corpus, yet
  // holds dozens of documents' worth of the clump's density.
  const random = seededRandom(13)
  // 54k documents in a cube of side 2, 6k spread over a box of side 10: the corpus-sized grid's
  // cells (about 0.19 wide) are too wide for any to fit inside the hole.
  const hole = { centre: [5, 5, 5], radius: 0.16 }
  const coords = new Float32Array(60_000 * 3)
  for (let p = 0; p < 60_000; ) {
    const q = p < 6_000 ? [random() * 10, random() * 10, random() * 10] : [4 + random() * 2, 4 + random() * 2, 4 + random() * 2]
    if (distance(q, hole.centre) < hole.radius) continue
    coords.set(q, p++ * 3)
  }

  it("finds a gap inside dense art on the finer grids the clump calls for", () => {
    const search = findVoidCandidates(coords)
    expect(search.gridSizes.length).toBeGreaterThan(1)
    const found = search.candidates.filter((c) => distance(c.position, hole.centre) < hole.radius)
    expect(found).toHaveLength(1)
    expect(found[0].radius).toBeGreaterThan(hole.radius * 0.6)
    expect(found[0].gridSize).toBeGreaterThan(search.gridSizes[0])
    // The grid sized for the corpus alone cannot see it.
    const coarse = findVoidCandidates(coords, { gridSizes: [search.gridSizes[0]] })
    expect(coarse.candidates.filter((c) => distance(c.position, hole.centre) < hole.radius)).toEqual([])
  })

  it("reports no chance gap among the clump's evenly spread documents", () => {
    const inside = (c: VoidCandidate) => c.position.every((v) => v > 4.2 && v < 5.8) && distance(c.position, hole.centre) >= hole.radius
    expect(findVoidCandidates(coords).candidates.filter(inside)).toEqual([])
  })
})
