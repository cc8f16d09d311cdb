/**
 * The recall probe a night brings up to date (pipeline/embed/recall-probe.ts) holds what an exact
 * search over the night's rows gives, night after night, including when removals reach into a
 * query's nearest and it must be searched again.
 */
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { exactAnswers, exactTopK } from "../../pipeline/embed/quantization.ts"
import { probeAfterNight, readProbe, writeProbe } from "../../pipeline/embed/recall-probe.ts"
import { seededRandom } from "../../core/random.ts"

const DIMS = 24
const K = 10

const unit = (rand: () => number, centre: Float32Array) => {
  const v = new Float32Array(DIMS)
  let norm = 0
  for (let d = 0; d < DIMS; d++) {
    v[d] = centre[d]! + (rand() - 0.5) * 0.6
    norm += v[d]! * v[d]!
  }
  return v.map((x) => x / Math.sqrt(norm))
}

describe("recall probe across nights", () => {
  it("equals an exact search over each night's rows, keyed by label", async () => {
    const rand = seededRandom(7)
    const centres = Array.from({ length: 12 }, () => Float32Array.from({ length: DIMS }, () => rand() - 0.5))
    const vector = () => unit(rand, centres[Math.floor(rand() * centres.length)]!)
    // Rows as (label, vector); a fresh graph labels each row by itself.
    let rows = Array.from({ length: 2000 }, (_, i) => ({ label: i, v: vector() }))
    let nextLabel = rows.length
    const matrix = () => {
      const m = new Float32Array(rows.length * DIMS)
      rows.forEach((r, i) => m.set(r.v, i * DIMS))
      return m
    }
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "recall-probe-"))
    try {
      await writeProbe(dir, exactAnswers(matrix(), DIMS, 50, 2 * K), DIMS)
      let searchedAgain = 0
      for (let night = 0; night < 4; night++) {
        const earlier = (await readProbe(dir, DIMS))!
        expect(earlier.queries).toHaveLength(50)
        // Remove the nearest answers of a few queries outright (forcing a search again), and some rows at random.
        const removed = new Set<number>()
        for (const q of earlier.queries.slice(0, 3)) for (const l of q.labels.slice(0, 15)) removed.add(l)
        for (const r of rows) if (rand() < 0.03) removed.add(r.label)
        rows = rows.filter((r) => !removed.has(r.label))
        // New rows anywhere in the numbering, some right beside the probe's queries.
        const added: number[] = []
        for (let i = 0; i < 80; i++) {
          const at = Math.floor(rand() * (rows.length + 1))
          const v = i < 10 ? unit(rand, Float32Array.from(earlier.queries[i]!.vector)) : vector()
          rows.splice(at, 0, { label: nextLabel++, v })
        }
        rows.forEach((r, i) => r.label >= nextLabel - 80 && added.push(i))
        const m = matrix()
        const labels = Uint32Array.from(rows, (r) => r.label)
        const { answers, searchedAgain: again } = probeAfterNight(earlier, m, DIMS, labels, removed, added, K)
        searchedAgain += again
        const exact = exactTopK(m, DIMS, answers.queries, answers.depth)
        for (let q = 0; q < answers.count; q++) {
          const at = q * answers.depth
          const kept = Array.from(answers.keys.subarray(at, at + answers.depth)).filter((l) => l >= 0)
          expect(kept.length, `query ${q}, night ${night}`).toBeGreaterThanOrEqual(K)
          // The same distances in the same order as an exact search, and labels of rows at those distances.
          for (let i = 0; i < kept.length; i++) {
            expect(answers.distances[at + i]).toBeCloseTo(exact.distances[at + i]!, 5)
            const row = labels.indexOf(kept[i]!)
            expect(row, `label ${kept[i]} is a row`).toBeGreaterThanOrEqual(0)
          }
        }
        await writeProbe(dir, answers, DIMS)
      }
      expect(searchedAgain).toBeGreaterThan(0)
    } finally {
      await fs.rm(dir, { recursive: true, force: true })
    }
  })
})
