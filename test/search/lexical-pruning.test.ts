/**
 * BM25 top-k with MaxScore pruning (core/search/lexical.ts topByImpact) gives exactly what summing
 * every posting gives: the same keys, scores and order, with and without a filter, for small and
 * large k, over postings shaped like a patent corpus's (a few rare high-impact terms, long lists
 * of common low-impact ones).
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type PostingSlice, topByImpact } from "../../core/search/lexical.ts"
import { TopK } from "../../core/search/top-k.ts"

/** The reference: every posting summed, then the k best. */
const exhaustive = (slices: ReadonlyArray<PostingSlice>, depth: number, docKey: Int32Array, accepts: (key: number) => boolean) => {
  const scores = new Map<number, number>()
  for (const s of slices) for (let i = 0; i < s.ids.length; i++) scores.set(s.ids[i], (scores.get(s.ids[i]) ?? 0) + s.impacts[i])
  const top = new TopK(depth)
  for (const [d, score] of scores) if (docKey[d] >= 0 && accepts(docKey[d])) top.push(docKey[d], score)
  return top.sorted()
}

/** A term over `docs` documents: each present with probability `share`, impacts around `level` (float32 like the postings file). */
const slice = (docs: number, share: number, level: number, random: () => number): PostingSlice => {
  const ids: number[] = []
  const impacts: number[] = []
  for (let d = 0; d < docs; d++) {
    if (random() >= share) continue
    ids.push(d)
    impacts.push(level * (0.2 + random()))
  }
  const f32 = Float32Array.from(impacts)
  return { ids: Uint32Array.from(ids), impacts: f32, max: f32.reduce((m, v) => Math.max(m, v), 0) }
}

const seeded = (seed: number) => {
  let s = seed >>> 0 || 1
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32)
}

describe("BM25 top-k with pruning", () => {
  it("equals the exhaustive sum over every posting (keys, scores, order), filtered or not", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 1, max: 24 }),
        fc.boolean(),
        (seed, depth, termCount, filtered) => {
          const random = seeded(seed)
          const docs = 3000
          // Rare terms weigh much, common ones little: the shape pruning feeds on.
          const slices = Array.from({ length: termCount }, () => {
            const share = random() < 0.3 ? 0.002 + random() * 0.01 : 0.1 + random() * 0.6
            return slice(docs, share, share < 0.05 ? 8 : 0.5 + random(), random)
          })
          // Some posting ids have no key (an application without a key in the search corpus).
          const docKey = Int32Array.from({ length: docs }, (_, d) => (d % 97 === 0 ? -1 : docs - d))
          const accepts = filtered ? (key: number) => key % 3 !== 0 : () => true
          const scores = new Float64Array(docs)
          const pruned = topByImpact(slices, depth, docKey, scores, accepts)
          expect(pruned).toEqual(exhaustive(slices, depth, docKey, accepts))
          // The shared score array is left clean for the next query.
          expect(scores.every((v) => v === 0)).toBe(true)
        }
      ),
      { numRuns: 300 }
    )
  })
})
