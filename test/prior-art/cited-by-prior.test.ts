/**
 * The forward-citation prior of plain search (core/search/retrieve.ts citedByRanking, issue 18):
 * among the documents the query's text matches well, the one other applications cite most is
 * the likelier prior art and ranks first; a widely cited document the text matches weakly is not
 * lifted, and the prior never brings in a document or counts as a retriever.
 */
import { describe, expect, it } from "vitest"
import { CitationGraph, type CitationEdge } from "../../core/search/citations.ts"
import { reciprocalRankFusion, RRF_K } from "../../core/search/fusion.ts"
import { citedByRanking, retrieve, RETRIEVAL_WEIGHTS } from "../../core/search/retrieve.ts"
import { channelOver, unitAt } from "../support/angle-channel.ts"

const plain = { dense: true, citations: true, lexical: false }

describe("citedByRanking", () => {
  // 0 is cited by 1, 2 and 3; 4 by 1 and 2; 5 by 3; 6 by 1; 7 by nobody.
  const edges: CitationEdge[] = [
    ...[1, 2, 3].map((citing) => ({ citing, cited: 0, examiner: true })),
    ...[1, 2].map((citing) => ({ citing, cited: 4, examiner: false })),
    { citing: 3, cited: 5, examiner: true },
    { citing: 1, cited: 6, examiner: true }
  ]
  const graph = new CitationGraph(8, edges)

  it("ranks candidates by how many applications cite them, equal counts sharing a rank", () => {
    expect(citedByRanking(graph, [7, 6, 5, 4, 0])).toEqual({ keys: [0, 4, 5, 6], rankOf: [1, 2, 3, 3] })
  })

  it("gives an uncited candidate no place, and counts a candidate listed twice once", () => {
    expect(citedByRanking(graph, [7, 7])).toEqual({ keys: [], rankOf: [] })
    expect(citedByRanking(graph, [4, 4, 7])).toEqual({ keys: [4], rankOf: [1] })
  })
})

describe("a prior in the fusion", () => {
  it("adds to the score of what a channel ranked, but brings in nothing, is no leg and has no rank", () => {
    const fused = reciprocalRankFusion([
      { channel: "dense", keys: [1, 2] },
      { channel: "citedBy", keys: [9, 2], rankOf: [1, 1], weight: 2, prior: true }
    ])
    expect(fused.map((h) => h.key)).toEqual([2, 1])
    const two = fused.find((h) => h.key === 2)!
    expect(two.score).toBeCloseTo(1 / (RRF_K + 2) + 2 / (RRF_K + 1))
    expect(two.legs).toBe(1)
    expect(two.ranks).toEqual({ dense: 2 })
  })
})

describe("rank fusion with the forward-citation prior", () => {
  // The query points at 0°. Keys 0 and 1 match it alike (10°, 10.5°), key 2 weakly (60°). Keys
  // 3–8 point away (170°–175°) and cite: key 1 three times, key 2 six times, key 0 never.
  const angles = [10, 10.5, 60, 170, 171, 172, 173, 174, 175]
  const edges: CitationEdge[] = [
    ...[3, 4, 5].map((citing) => ({ citing, cited: 1, examiner: true })),
    ...[3, 4, 5, 6, 7, 8].map((citing) => ({ citing, cited: 2, examiner: true }))
  ]
  const parts = { dense: channelOver(angles), graph: new CitationGraph(angles.length, edges) }
  const search = (citedBy: number) =>
    retrieve(parts, { vector: Float32Array.from(unitAt(0)), text: "", depth: 9, channels: plain, feedback: false, weights: { ...RETRIEVAL_WEIGHTS, fusionModel: undefined, citedBy } })
  const position = (r: Awaited<ReturnType<typeof search>>, key: number) => r.hits.findIndex((h) => h.key === key)

  it("puts the cited one of two equally matched documents first", async () => {
    expect(RETRIEVAL_WEIGHTS.citedBy).toBeGreaterThan(0)
    const without = await search(0)
    expect(position(without, 0)).toBeLessThan(position(without, 1))
    const withPrior = await search(RETRIEVAL_WEIGHTS.citedBy)
    expect(withPrior.hits[0].key).toBe(1)
    expect(withPrior.hits[0].ranks).not.toHaveProperty("citedBy")
  })

  it("gives a widely cited document the query matches weakly no vote", async () => {
    const scoreOf = (r: Awaited<ReturnType<typeof search>>, key: number) => r.hits.find((h) => h.key === key)!.score
    const without = await search(0)
    const withPrior = await search(RETRIEVAL_WEIGHTS.citedBy)
    // Key 2 is the most cited of all, but under the corroboration floor: the prior leaves its score alone.
    expect(scoreOf(withPrior, 2)).toBeCloseTo(scoreOf(without, 2), 12)
    expect(position(withPrior, 2)).toBeGreaterThan(position(withPrior, 1))
  })
})
