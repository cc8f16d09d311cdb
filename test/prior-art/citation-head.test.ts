/**
 * Plain search's head (issue 18): the citation channel may bring in what the confident dense
 * hits cite, but a large family of mutually citing documents reached only from weak seeds (dense
 * hits far below the best, noise when the encoder matches a short query weakly) must not take
 * the head from the best dense hits.
 */
import { describe, expect, it } from "vitest"
import { CitationGraph, type CitationEdge } from "../../core/search/citations.ts"
import { channelOver, unitAt } from "../support/angle-channel.ts"
import { reciprocalRankFusion, RRF_K } from "../../core/search/fusion.ts"
import { retrieve, RETRIEVAL_WEIGHTS, seedsOf } from "../../core/search/retrieve.ts"


// The query points at 0°. Keys 0–2 are the confident head (3°, 6°, 9°); keys 3–32 are weak
// dense hits (65°–94°) that all belong to one family; keys 33–52 are more of that family with
// no vector (titles alone, say), reachable only through the graph. Every family member cites
// every other one. Key 0 cites key 53 (no vector): a reference the embedding cannot see.
const HEAD = [0, 1, 2]
const WEAK = Array.from({ length: 30 }, (_, i) => 3 + i)
const HIDDEN = Array.from({ length: 20 }, (_, i) => 33 + i)
const REFERENCE = 53
const angles = [3, 6, 9, ...WEAK.map((_, i) => 65 + i)]
const family = [...WEAK, ...HIDDEN]
const edges: CitationEdge[] = [
  ...family.flatMap((a) => family.filter((b) => b !== a).map((b) => ({ citing: a, cited: b, examiner: true }))),
  { citing: 0, cited: REFERENCE, examiner: true }
]
const parts = { dense: channelOver(angles), graph: new CitationGraph(54, edges) }
const plain = { dense: true, citations: true, lexical: false }

describe("plain search's head against a family reached from weak seeds", () => {
  it("leads with the confident dense hits and what they cite, not with the family", async () => {
    const r = await retrieve(parts, { vector: Float32Array.from(unitAt(0)), text: "", depth: 8, channels: plain })
    const head = r.hits.slice(0, 4).map((h) => h.key)
    expect(new Set(head)).toEqual(new Set([...HEAD, REFERENCE]))
    // No family member, with a vector or without, is above any of the dense head.
    const worstHead = Math.max(...HEAD.map((k) => r.hits.findIndex((h) => h.key === k)))
    const bestFamily = r.hits.findIndex((h) => family.includes(h.key))
    expect(bestFamily === -1 || bestFamily > worstHead).toBe(true)
  })

  it("still lets the graph bring in a reference of a confident hit that dense search cannot see", async () => {
    const r = await retrieve(parts, { vector: Float32Array.from(unitAt(0)), text: "", depth: 8, channels: plain })
    const ref = r.hits.find((h) => h.key === REFERENCE)
    expect(ref?.ranks).toEqual({ citations: 1 })
  })

  it("counts a citation-only hit like any one channel, and the graph's corroboration of a dense hit at the citation weight", () => {
    expect(RETRIEVAL_WEIGHTS.citationsOnly).toBeLessThanOrEqual(1)
    expect(RETRIEVAL_WEIGHTS.citations).toBeGreaterThan(RETRIEVAL_WEIGHTS.citationsOnly)
    const fused = reciprocalRankFusion([
      { channel: "dense", keys: [1, 2, 3] },
      { channel: "citations", keys: [9, 3], weight: 6, weightOf: (k) => (k === 9 ? 1 : 6) }
    ])
    // 9 (graph only): 1/61, level with the best dense hit and after it on key; 3: 1/63 + 6/62.
    expect(fused.map((h) => h.key)).toEqual([3, 1, 9, 2])
    expect(fused.find((h) => h.key === 9)!.score).toBeCloseTo(1 / (RRF_K + 1))
  })

  it("seeds only the dense hits within the floor of the best score", () => {
    const dense = [{ key: 7, score: 0.9 }, { key: 8, score: 0.8 }, { key: 9, score: 0.3 }]
    expect(seedsOf([7, 8, 9], dense, { ...RETRIEVAL_WEIGHTS, seeds: 50, seedFloor: 0.5 })).toEqual([7, 8])
    expect(seedsOf([7, 8, 9], dense, { ...RETRIEVAL_WEIGHTS, seeds: 2, seedFloor: 0 })).toEqual([7, 8])
    // A key the dense channel did not rank (lexical only, in hybrid) is kept.
    expect(seedsOf([7, 12, 9], dense, { ...RETRIEVAL_WEIGHTS, seeds: 50, seedFloor: 0.5 })).toEqual([7, 12])
    // No positive similarity at all: nothing the dense channel found is a seed.
    expect(seedsOf([7, 12], [{ key: 7, score: -0.1 }], { ...RETRIEVAL_WEIGHTS, seedFloor: 0.5 })).toEqual([12])
    expect(RETRIEVAL_WEIGHTS.seedFloor).toBeGreaterThan(0)
  })
})

/** Rank fusion, as a search without a fusion model fuses (plain and hybrid search rank by their models: learned-fusion.test.ts). */
const RANK_FUSION = { ...RETRIEVAL_WEIGHTS, fusionModel: undefined }

describe("the graph's corroboration of a dense hit (rank fusion)", () => {
  // The query points at 0°: keys 0–2 match it well (10°, 12°, 14°), key 3 weakly (50°: a cosine of
  // 0.64, under 0.9 of the best). Key 0 cites keys 2 and 3, so the graph votes for both.
  const angles = [10, 12, 14, 50]
  const corroboration = { dense: channelOver(angles), graph: new CitationGraph(4, [{ citing: 0, cited: 2, examiner: true }, { citing: 0, cited: 3, examiner: true }]) }
  const search = (weights = RANK_FUSION) =>
    retrieve(corroboration, { vector: Float32Array.from(unitAt(0)), text: "", depth: 4, channels: plain, feedback: false, weights })
  const scoreOf = (r: Awaited<ReturnType<typeof search>>, key: number) => r.hits.find((h) => h.key === key)!.score
  const graphRank = (r: Awaited<ReturnType<typeof search>>, key: number) => r.hits.find((h) => h.key === key)!.ranks.citations!

  it("counts the citation weight for a hit the query matches well, and one vote for a weak one", async () => {
    expect(RETRIEVAL_WEIGHTS.corroborationFloor).toBeGreaterThan(Math.cos((50 * Math.PI) / 180) / Math.cos((10 * Math.PI) / 180))
    const r = await search()
    // Key 2 is also the most cited of the well-matched hits, so the forward-citation prior votes for it; key 3 is under the floor and gets no such vote.
    expect(scoreOf(r, 2)).toBeCloseTo(1 / (RRF_K + 3) + RETRIEVAL_WEIGHTS.citations / (RRF_K + graphRank(r, 2)) + RETRIEVAL_WEIGHTS.citedBy / (RRF_K + 1))
    expect(scoreOf(r, 3)).toBeCloseTo(1 / (RRF_K + 4) + RETRIEVAL_WEIGHTS.citationsOnly / (RRF_K + graphRank(r, 3)))
  })

  it("without the floor gives the weak hit the full weight", async () => {
    const r = await search({ ...RANK_FUSION, corroborationFloor: 0 })
    // With no floor the prior covers every dense hit too: keys 2 and 3 are cited once each and share its rank 1.
    expect(scoreOf(r, 3)).toBeCloseTo(1 / (RRF_K + 4) + RETRIEVAL_WEIGHTS.citations / (RRF_K + graphRank(r, 3)) + RETRIEVAL_WEIGHTS.citedBy / (RRF_K + 1))
  })
})
