/**
 * MaxSim shares dot products between repeated token vectors (api/inference-hub/late-interaction.ts);
 * every score must still be bit for bit the nested-loop definition, in any call order.
 */
import { describe, expect, it } from "vitest"
import { maxSim } from "../../api/inference-hub/late-interaction.ts"

/** The definition, as the hub computed it before. */
const plainMaxSim = (query: ReadonlyArray<Float32Array>, candidate: ReadonlyArray<Float32Array>) => {
  if (query.length === 0 || candidate.length === 0) return 0
  let total = 0
  for (const q of query) {
    let best = -Infinity
    for (const c of candidate) {
      let dot = 0
      for (let i = 0; i < q.length; i++) dot += q[i] * c[i]
      if (dot > best) best = dot
    }
    total += best
  }
  return total / query.length
}

const random = (seed: number) => () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1
const unit = (next: () => number, dims: number) => {
  const v = Float32Array.from({ length: dims }, next)
  const n = Math.hypot(...v)
  return v.map((x) => x / n)
}

describe("maxSim", () => {
  it("gives the nested-loop score exactly, with terms repeated within and across texts", () => {
    const next = random(7)
    const vocabulary = Array.from({ length: 40 }, () => unit(next, 48))
    // Texts draw from a small vocabulary (as stems repeat); each occurrence is its own copy of the vector.
    const text = (n: number) => Array.from({ length: n }, () => Float32Array.from(vocabulary[Math.floor(((next() + 1) / 2) * vocabulary.length)]!))
    const query = text(30)
    query.push(new Float32Array(48), Float32Array.from(query[0]!).map((x) => -x))
    const candidates = [...Array.from({ length: 25 }, (_, i) => text(5 + i * 3)), [new Float32Array(48)], [], text(1)]
    for (const c of candidates) expect(Object.is(maxSim(query, c), plainMaxSim(query, c))).toBe(true)
    // A second query over the same candidates, and the first one again in reverse order.
    const other = text(12)
    for (const c of candidates) expect(Object.is(maxSim(other, c), plainMaxSim(other, c))).toBe(true)
    for (const c of [...candidates].reverse()) expect(Object.is(maxSim(query, c), plainMaxSim(query, c))).toBe(true)
    expect(maxSim([], candidates[0]!)).toBe(0)
  })
})
