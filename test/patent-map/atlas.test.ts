/**
 * The atlas stage on a synthetic space with planted voids: the planted voids are found, the
 * projection artefact (empty in 3D, populated in vector space) and the dense clusters are not
 * reported, and every void carries a scored, described record.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { buildAtlas } from "../../pipeline/atlas/stage.ts"
import { ARTEFACT_HOLE, DENSE_CLUSTERS, PLANTED_VOIDS, writeSyntheticSpace } from "./synthetic-space.ts"

let atlas: Awaited<ReturnType<typeof buildAtlas>>
const distance = (p: { x: number; y: number; z: number }, c: readonly number[]) => Math.hypot(p.x - c[0], p.y - c[1], p.z - c[2])

beforeAll(async () => {
  await fs.mkdir(".tmp", { recursive: true })
  const dir = await fs.mkdtemp(path.resolve(".tmp/atlas-synthetic-"))
  await writeSyntheticSpace(dir, 8000)
  atlas = await buildAtlas(dir)
  await fs.rm(dir, { recursive: true, force: true })
})

describe("atlas stage on a synthetic space", () => {
  it("finds every planted void, centred inside it, as the largest voids", () => {
    for (const planted of PLANTED_VOIDS) {
      const found = atlas.voids.filter((v) => distance(v.position, planted.centre) < planted.radius / 2)
      expect(found).toHaveLength(1)
      expect(found[0].radius).toBeGreaterThan(planted.radius * 0.6)
    }
    const largest = [...atlas.voids].sort((a, b) => b.radius - a.radius).slice(0, PLANTED_VOIDS.length)
    expect(largest.every((v) => PLANTED_VOIDS.some((p) => distance(v.position, p.centre) < p.radius))).toBe(true)
  })

  it("does not report the projection artefact or the dense clusters", () => {
    expect(atlas.voids.filter((v) => distance(v.position, ARTEFACT_HOLE.centre) < ARTEFACT_HOLE.radius)).toEqual([])
    for (const cluster of DENSE_CLUSTERS) expect(atlas.voids.filter((v) => distance(v.position, cluster.centre) < 2 * cluster.sigma)).toEqual([])
  })

  it("scores and describes every void, sorted by opportunity", () => {
    expect(atlas.count).toBe(atlas.voids.length)
    expect(atlas.voids.map((v) => v.opportunity)).toEqual([...atlas.voids.map((v) => v.opportunity)].sort((a, b) => b - a))
    for (const v of atlas.voids) {
      expect(v.opportunity).toBeGreaterThanOrEqual(0)
      expect(v.opportunity).toBeLessThanOrEqual(1)
      expect(v.section).toMatch(/^[ABCGH]$/)
      expect(v.borderingCpc.reduce((s, c) => s + c.fraction, 0)).toBeCloseTo(1, 2)
      expect(v.borderingCpc.every((c) => c.title !== null)).toBe(true)
      expect(v.exemplars.length).toBe(5)
      expect(v.exemplars[0].distance).toBeCloseTo(v.radius, 3)
      expect(v.assignees.length).toBeGreaterThan(0)
      expect(v.summary).toContain("Synthetic art")
      // Confirmed: the centre less covered, against its border, than the calibration's populated places.
      expect(v.vectorCheck.centreSimilarity - v.vectorCheck.borderSimilarity).toBeLessThan(atlas.parameters.vectorCheckMargin)
    }
    // The planted voids are empty in vector space too: their centres are less covered than their borders.
    for (const planted of PLANTED_VOIDS) {
      const [v] = atlas.voids.filter((x) => distance(x.position, planted.centre) < planted.radius / 2)
      expect(v.vectorCheck.centreSimilarity).toBeLessThan(v.vectorCheck.borderSimilarity)
    }
  })
})
