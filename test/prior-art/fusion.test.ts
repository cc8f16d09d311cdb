/** The pure parts of retrieval: rank fusion, the citation channel, filter bounds and BM25 over the stage's files. */
import { describe, expect, it } from "vitest"
import { CitationGraph } from "../../core/search/citations.ts"
import { reciprocalRankFusion, RRF_K } from "../../core/search/fusion.ts"
import { compileFilter, periodEnd, periodStart } from "../../core/search/filters.ts"
import type { SearchCorpus } from "../../core/search/corpus.ts"
import { channelOver, unitAt } from "../support/angle-channel.ts"
import { applyRerank, leadWithNearDuplicates, NEAR_DUPLICATE, RERANK_DEPTH, retrieve } from "../../core/search/retrieve.ts"
import { TopK } from "../../core/search/top-k.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const sampleDir = await sampleArtifacts()

describe("title records against full-text records", () => {
  // Key 0 a title record close to the query (cosine 0.9), key 1 a full record further off (0.62).
  const parts = { dense: channelOver([(Math.acos(0.9) * 180) / Math.PI, (-Math.acos(0.62) * 180) / Math.PI]) }
  const search = (text: string) =>
    retrieve(parts, { vector: Float32Array.from(unitAt(0)), text, depth: 2, channels: { dense: true, citations: false, lexical: false }, feedback: false })

  it("rank by cosine alone, so the title the query matches leads a phrase and a claim alike", async () => {
    // "lithium ion battery" once got the sample's few full-text records ahead of the lithium-ion
    // titles it matched at 0.76, because titles were ranked at 0.4 × their cosine (README, issue 18).
    expect((await search("gear pump")).hits.map((h) => h.key)).toEqual([0, 1])
    expect((await search("lithium ion battery")).hits.map((h) => h.key)).toEqual([0, 1])
    expect((await search("A gear pump comprising a helical rotor in a housing")).hits.map((h) => h.key)).toEqual([0, 1])
  })
})

describe("near-duplicates of the query", () => {
  it("lead the fused list, most similar first, scored just above the best fused score", () => {
    const fused = reciprocalRankFusion([
      { channel: "dense", keys: [7, 1, 2] },
      { channel: "citations", keys: [1, 2] }
    ])
    expect(fused.map((h) => h.key)).toEqual([1, 2, 7])
    const similarity = new Map([[7, 0.999], [1, 0.4], [2, 0.3]])
    const led = leadWithNearDuplicates(fused, similarity)
    expect(led.map((h) => h.key)).toEqual([7, 1, 2])
    expect(led[0].score).toBeGreaterThan(led[1].score)
    expect(led[0].ranks).toEqual({ dense: 1 })
    expect(leadWithNearDuplicates(fused, new Map([[7, NEAR_DUPLICATE - 0.01]]))).toEqual(fused)
  })
})

describe("reciprocal-rank fusion", () => {
  it("orders by the sum of 1/(k + rank) over channels", () => {
    const fused = reciprocalRankFusion([
      { channel: "dense", keys: [1, 2, 3] },
      { channel: "lexical", keys: [3, 4, 1] }
    ])
    // 1: 1/61 + 1/63, 3: 1/63 + 1/61 → tie, broken by best rank (both 1) then key; 2: 1/62; 4: 1/62.
    expect(fused.map((h) => h.key)).toEqual([1, 3, 2, 4])
    expect(fused[0].score).toBeCloseTo(1 / (RRF_K + 1) + 1 / (RRF_K + 3))
    expect(fused[0].ranks).toEqual({ dense: 1, lexical: 3 })
    expect(fused.map((h) => h.legs)).toEqual([2, 2, 1, 1])
  })

  it("on a tie, the text's own best match goes before the citation graph's first find", () => {
    // Each is first in its channel and counts 1 / 61: the dense hit leads although its key is larger.
    const fused = reciprocalRankFusion([
      { channel: "dense", keys: [9, 2] },
      { channel: "citations", keys: [5], weight: 1 }
    ])
    expect(fused.map((h) => h.key)).toEqual([9, 5, 2])
    expect(fused[0].score).toBe(fused[1].score)
  })

  it("a document found by two channels outranks one found at the top of a single channel", () => {
    const fused = reciprocalRankFusion([
      { channel: "dense", keys: [10, 20] },
      { channel: "citations", keys: [20] },
      { channel: "lexical", keys: [30, 20] }
    ])
    expect(fused[0].key).toBe(20)
    expect(fused[0].legs).toBe(3)
  })

  it("weights scale a channel's votes", () => {
    const fused = reciprocalRankFusion([
      { channel: "a", keys: [1] },
      { channel: "b", keys: [2], weight: 2 }
    ])
    expect(fused.map((h) => h.key)).toEqual([2, 1])
  })

  it("rerank fuses the reranker's order with the fused order by the same reciprocal-rank rule", () => {
    const fused = reciprocalRankFusion([{ channel: "dense", keys: [1, 2, 3, 4] }])
    const out = applyRerank(fused, new Map([[1, 0], [2, 0.1], [3, 0.8], [4, 0.9]]))
    // 1: 1/61 + 1/64 = 4: 1/64 + 1/61 (tie → fused order) > 2: 1/62 + 1/63 = 3.
    expect(out.map((h) => h.key)).toEqual([1, 4, 2, 3])
    expect(out.map((h) => h.ranks.rerank)).toEqual([4, 1, 3, 2])
    expect(out.map((h) => h.rerank)).toEqual([0, 0.9, 0.1, 0.8])
    // The score shown is what the answer is ordered by.
    expect(out.map((h) => h.score)).toEqual([1 / 61 + 1 / 64, 1 / 64 + 1 / 61, 1 / 62 + 1 / 63, 1 / 63 + 1 / 62])
  })

  it("after a rerank, scores fall with rank through the head and past it", () => {
    const keys = Array.from({ length: RERANK_DEPTH + 20 }, (_, i) => i)
    const fused = reciprocalRankFusion([{ channel: "dense", keys }])
    // The reranker reverses the head: its last hit is its best.
    const out = applyRerank(fused, new Map(keys.slice(0, RERANK_DEPTH).map((k) => [k, k])))
    for (let i = 1; i < out.length; i++) expect(out[i].score).toBeLessThanOrEqual(out[i - 1].score)
    expect(out.slice(RERANK_DEPTH).map((h) => h.key)).toEqual(keys.slice(RERANK_DEPTH))
    expect(out[RERANK_DEPTH].score).toBeLessThan(out[RERANK_DEPTH - 1].score)
  })
})

describe("citation channel", () => {
  it("ranks the seed's own references first, then art cited beside the seed, then later applications citing it", () => {
    // 0 = seed; it cites 1 (examiner) and 2 (applicant); 3 cites the seed and also 4; 5 cites 1 only.
    const g = new CitationGraph(6, [
      { citing: 0, cited: 1, examiner: true },
      { citing: 0, cited: 2, examiner: false },
      { citing: 3, cited: 0, examiner: true },
      { citing: 3, cited: 4, examiner: true },
      { citing: 5, cited: 1, examiner: true }
    ])
    const ranked = g.expand([0], 10).map((h) => h.key)
    expect(new Set(ranked.slice(0, 2))).toEqual(new Set([1, 2]))
    expect(ranked.slice(2)).toEqual([4, 3])
    expect(ranked).not.toContain(5)
  })

  it("counts an examiner's citation at least as much as an applicant's", () => {
    const g = new CitationGraph(3, [
      { citing: 0, cited: 1, examiner: false },
      { citing: 0, cited: 2, examiner: true }
    ])
    const [first, second] = g.expand([0], 10)
    expect(first.score).toBeGreaterThanOrEqual(second.score)
    expect(first.key === 2 || first.score === second.score).toBe(true)
  })

  it("respects the admission predicate and drops self-citations", () => {
    const g = new CitationGraph(3, [
      { citing: 0, cited: 0, examiner: true },
      { citing: 0, cited: 1, examiner: true },
      { citing: 0, cited: 2, examiner: true }
    ])
    expect(g.edgeCount).toBe(2)
    expect(g.expand([0], 10, (k) => k !== 1).map((h) => h.key)).toEqual([2])
  })
})

describe("filters", () => {
  it("reads YYYY, YYYY-MM and YYYY-MM-DD as periods", () => {
    expect(periodStart("2015")).toBe(20150101)
    expect(periodEnd("2015")).toBe(20151231)
    expect(periodStart("2016-02")).toBe(20160201)
    expect(periodEnd("2016-02")).toBe(20160229)
    expect(periodEnd("2015-02")).toBe(20150228)
    expect(periodStart("2015-06-10")).toBe(20150610)
    expect(periodEnd("2015-06-10")).toBe(20150610)
  })

  const corpus: SearchCorpus = {
    size: 4,
    vectorCount: 4,
    appNums: ["a", "b", "c", "d"],
    keyOf: new Map(),
    filed: Int32Array.from([20141231, 20150101, 20160615, 0]),
    country: Uint16Array.from([1, 1, 2, 1]),
    countries: ["", "US", "EP"],
    cpcOffsets: Uint32Array.from([0, 1, 1, 3, 3]),
    cpcIds: Uint16Array.from([0, 0, 1]),
    subclasses: ["G06F", "H04L"]
  }
  const admitted = (f: Parameters<typeof compileFilter>[1]) => [0, 1, 2, 3].filter(compileFilter(corpus, f).accepts)

  it("applies year-only bounds exclusively and drops undated references", () => {
    expect(admitted({ filedBefore: "2015" })).toEqual([0])
    expect(admitted({ filedAfter: "2014" })).toEqual([1, 2])
    expect(admitted({ filedAfter: "2015-12-31" })).toEqual([2])
  })

  it("cpc3 excludes references without CPC data; country matches case-insensitively", () => {
    expect(admitted({ cpc3: ["H04L"] })).toEqual([2])
    expect(admitted({ cpc3: ["G06F"] })).toEqual([0, 2])
    expect(admitted({ country: "us" })).toEqual([0, 1, 3])
    expect(compileFilter(corpus, {}).active).toBe(false)
  })
})

describe("top-k selection", () => {
  it("keeps the k best, ties to the smaller key", () => {
    const t = new TopK(3)
    for (const [k, s] of [[5, 1], [1, 3], [2, 3], [3, 0.5], [4, 2], [0, 3]]) t.push(k, s)
    expect(t.sorted().map((h) => h.key)).toEqual([0, 1, 2])
  })
})

describe("BM25 over the lexical stage's files", () => {
  it("scores a title's own words highest for that application", async () => {
    const { openSearchState } = await import("../../core/search/open.ts")
    const { sampleQuery } = await import("./sample-db.ts")
    const { DuckDBInstance } = await import("@duckdb/node-api")
    const versionDir = sampleDir
    const db = await DuckDBInstance.create(":memory:")
    const c = await db.connect()
    for (const [view, file] of [["applications", "tables/applications"], ["cpc_assignments", "tables/cpc_assignments"], ["citations", "tables/citations"], ["vectors", "index/vectors"], ["lexical_terms", "lexical/lexical_terms"], ["lexical_docs", "lexical/lexical_docs"], ["stored_docs", "documents/stored_docs"]])
      await c.run(`CREATE VIEW ${view} AS SELECT * FROM read_parquet('${versionDir}/${file}.parquet')`)
    const state = await openSearchState(versionDir, async (sql) => (await c.runAndReadAll(sql)).getRowObjectsJS())
    const [{ app_num, title }] = await sampleQuery<{ app_num: string; title: string }>(
      versionDir,
      `SELECT app_num, title FROM applications WHERE length(title) > 60 ORDER BY app_num LIMIT 1`
    )
    const hits = await state.lexical!.search(title, 5)
    expect(state.corpus.appNums[hits[0].key]).toBe(app_num)
    // A long query searches only its most telling stems: rare ones kept, boilerplate dropped.
    const { MAX_QUERY_TERMS } = await import("../../core/search/lexical.ts")
    const [{ abstract, claim }] = await sampleQuery<{ abstract: string; claim: string }>(
      versionDir,
      `SELECT a.abstract, c.text AS claim FROM applications a JOIN read_parquet('${versionDir}/tables/claims.parquet') c ON c.app_num = a.app_num AND c.claim_num = 1
       WHERE length(a.abstract) > 900 ORDER BY a.app_num LIMIT 1`
    )
    const all = state.lexical!.queryTerms(`${abstract}\n${claim}`, Infinity)
    const kept = state.lexical!.queryTerms(`${abstract}\n${claim}`)
    expect(all.length).toBeGreaterThan(MAX_QUERY_TERMS)
    expect(kept).toEqual(all.slice(0, MAX_QUERY_TERMS))
    expect(kept).not.toContain("wherein")
    // Stems in more than the selection's share of documents are never searched: they hold most
    // postings and barely move a ranking.
    const { documents } = state.lexical!
    const common = state.lexical!.withSelection({ maxTerms: Infinity, maxDocFraction: 1 }).queryTerms(`${abstract}\n${claim}`).filter((t) => state.lexical!.documentFrequency(t) > 0.02 * documents)
    expect(common.length).toBeGreaterThan(0)
    const strict = state.lexical!.withSelection({ maxTerms: Infinity, maxDocFraction: 0.02 }).queryTerms(`${abstract}\n${claim}`)
    expect(strict.length).toBeGreaterThan(0)
    for (const t of common) expect(strict).not.toContain(t)
    for (const t of strict) expect(state.lexical!.documentFrequency(t)).toBeLessThanOrEqual(0.02 * documents)
    await state.close()
    c.closeSync()
  })
})
