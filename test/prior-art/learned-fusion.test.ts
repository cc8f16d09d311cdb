/**
 * Plain search's fusion model (core/search/learned-fusion.ts; issue 18): what a searcher relies on
 * is that closer text and stronger citation evidence rank higher, that a much-cited document the
 * query matches weakly does not take the head, that the graph's finds carry a similarity, and that
 * the benchmark's fit returns weights on the scale the service scores with.
 */
import { describe, expect, it } from "vitest"
import { CitationGraph, type CitationEdge } from "../../core/search/citations.ts"
import { CITED_BY_CAP, FUSION_FEATURES, FUSION_MODEL, fusionFeatures, fusionScore, HYBRID_FUSION_MODEL } from "../../core/search/learned-fusion.ts"
import type { LexicalIndex } from "../../core/search/lexical.ts"
import { retrieve, RETRIEVAL_WEIGHTS } from "../../core/search/retrieve.ts"
import { fitFusionModel } from "../../bench/fusion-fit.ts"
import { seededRandom } from "../../core/random.ts"
import { channelOver, unitAt } from "../support/angle-channel.ts"

const plain = { dense: true, citations: true, lexical: false }
const base = { denseRank: 5, cosineShare: 0.95, citedBy: 0, wellMatched: true }

describe("the fusion model's score", () => {
  it("is what plain search ranks by, and hybrid search by a model of its own", () => {
    expect(RETRIEVAL_WEIGHTS.fusionModel).toBe(FUSION_MODEL)
    expect(RETRIEVAL_WEIGHTS.hybridFusionModel).toBe(HYBRID_FUSION_MODEL)
    expect(FUSION_MODEL.weights).toHaveLength(FUSION_FEATURES.length)
    expect(HYBRID_FUSION_MODEL.weights).toHaveLength(FUSION_FEATURES.length)
  })

  it("in hybrid search, rises with BM25's rank", () => {
    const s = (lexicalRank?: number) => fusionScore(HYBRID_FUSION_MODEL, { ...base, lexicalRank })
    expect(s(1)).toBeGreaterThan(s(50))
    expect(s(50)).toBeGreaterThan(s(undefined))
  })

  it("rises with the dense rank, the text's closeness, the graph's rank and how often a close document is cited", () => {
    const s = (e: Partial<typeof base> & Record<string, unknown>) => fusionScore(FUSION_MODEL, { ...base, ...e })
    expect(s({ denseRank: 1 })).toBeGreaterThan(s({ denseRank: 50 }))
    expect(s({ cosineShare: 1 })).toBeGreaterThan(s({ cosineShare: 0.8 }))
    expect(s({ graphRank: 1 })).toBeGreaterThan(s({ graphRank: 100 }))
    expect(s({ citedBy: 5 })).toBeGreaterThan(s({ citedBy: 0 }))
  })

  it("counts citations only up to the cap, and next to nothing for a document the query matches weakly", () => {
    const far = { denseRank: 150, cosineShare: 0.4, wellMatched: false }
    expect(fusionScore(FUSION_MODEL, { ...far, citedBy: 100_000 })).toBe(fusionScore(FUSION_MODEL, { ...far, citedBy: CITED_BY_CAP }))
    const close = fusionScore(FUSION_MODEL, { ...base, denseRank: 20, citedBy: 0 })
    expect(fusionScore(FUSION_MODEL, { ...far, citedBy: 100_000 })).toBeLessThan(close)
  })
})

describe("plain search ranked by the model", () => {
  // The query points at 0°. Keys 0 and 1 match it alike (10°, 10.5°), key 2 weakly (60°). Keys
  // 3–8 point away (170°–175°) and cite: key 1 three times, key 2 six times, key 0 never. Key 0
  // cites key 9, which dense search does not return (80°).
  const angles = [10, 10.5, 60, 170, 171, 172, 173, 174, 175, 80]
  const edges: CitationEdge[] = [
    ...[3, 4, 5].map((citing) => ({ citing, cited: 1, examiner: true })),
    ...[3, 4, 5, 6, 7, 8].map((citing) => ({ citing, cited: 2, examiner: true })),
    { citing: 0, cited: 9, examiner: true }
  ]
  const parts = { dense: channelOver(angles, 9), graph: new CitationGraph(angles.length, edges) }
  const search = () => retrieve(parts, { vector: Float32Array.from(unitAt(0)), text: "", depth: 9, channels: plain, feedback: false })
  const position = (r: Awaited<ReturnType<typeof search>>, key: number) => r.hits.findIndex((h) => h.key === key)

  it("puts the cited one of two equally matched documents first", async () => {
    const r = await search()
    expect(r.hits[0].key).toBe(1)
    // Key 2 is cited most, but the query matches it weakly: it stays under the best match.
    expect(position(r, 2)).toBeGreaterThan(position(r, 1))
  })

  it("gives a find of the graph that dense search did not return its similarity to the query", async () => {
    const r = await search()
    const nine = r.hits.find((h) => h.key === 9)
    expect(nine?.ranks.dense).toBeUndefined()
    expect(nine?.ranks.citations).toBeGreaterThan(0)
    expect(r.similarity.get(9)).toBeCloseTo(Math.cos((80 * Math.PI) / 180), 5)
  })

  it("reports each citation rank once, the confident head's finds before the neighbourhood's", async () => {
    const r = await search()
    const ranks = r.hits.map((h) => h.ranks.citations).filter((x) => x !== undefined)
    expect(new Set(ranks).size).toBe(ranks.length)
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks.map((_, i) => i + 1))
    expect(r.channelCounts.citations).toBe(ranks.length)
  })
})

describe("hybrid search ranked by its model", () => {
  // As above, keys 0 and 1 match the query alike (10°, 10.5°); BM25 ranks key 1 first, then key
  // 9, which dense search does not return (80°), then key 0.
  const angles = [10, 10.5, 60, 170, 171, 172, 173, 174, 175, 80]
  const lexical = { search: async () => [1, 9, 0].map((key, i) => ({ key, score: 10 - i })) } as unknown as LexicalIndex
  const parts = { dense: channelOver(angles, 9), graph: new CitationGraph(angles.length, []), lexical }
  const search = () => retrieve(parts, { vector: Float32Array.from(unitAt(0)), text: "brazed fins", depth: 9, channels: { dense: true, citations: true, lexical: true }, feedback: false })

  it("puts the one of two equally matched documents that BM25 ranks higher first", async () => {
    const r = await search()
    expect(r.fusion).toBe("model")
    expect(r.hits[0].key).toBe(1)
    expect(r.hits[0].ranks).toMatchObject({ dense: 2, lexical: 1 })
    expect(r.channelCounts.lexical).toBe(3)
  })

  it("gives a document only BM25 found its similarity to the query", async () => {
    const r = await search()
    const nine = r.hits.find((h) => h.key === 9)
    expect(nine?.ranks).toEqual({ lexical: 2 })
    expect(r.similarity.get(9)).toBeCloseTo(Math.cos((80 * Math.PI) / 180), 5)
  })
})

describe("fitting the model (bench/retrieval.ts --fit-fusion)", () => {
  it("learns that a closer, better ranked candidate is likelier cited, on the raw feature scale", () => {
    const random = seededRandom(7)
    const x: number[][] = []
    const cited: boolean[] = []
    for (let i = 0; i < 4000; i++) {
      const denseRank = 1 + Math.floor(random() * 200)
      const cosineShare = 0.6 + 0.4 * random()
      const e = { denseRank, cosineShare, citedBy: Math.floor(random() * 5), wellMatched: cosineShare >= 0.9 }
      x.push(fusionFeatures(e))
      // Cited with a probability that grows with closeness.
      cited.push(random() < 1 / (1 + Math.exp(-(12 * cosineShare - 10))))
    }
    const model = fitFusionModel({ x, cited })
    const cosineWeight = model.weights[FUSION_FEATURES.indexOf("cosineShare")]
    expect(cosineWeight).toBeGreaterThan(5)
    // On the raw scale, the fitted score's log-odds at closeness 1 and 0.6 differ by about 12 × 0.4.
    const logit = (s: number) => Math.log(s / (1 - s))
    const at = (c: number) => logit(fusionScore(model, { denseRank: 100, cosineShare: c, citedBy: 0, wellMatched: false }))
    expect(at(1) - at(0.6)).toBeGreaterThan(3)
    expect(at(1) - at(0.6)).toBeLessThan(7)
  })
})
