/**
 * POST /prior-art over real HTTP against the sample build and a real hub process: the envelope
 * and fields of SPEC 2.3, every filter, hybrid legs, reranking, hyde, the cache layers and the
 * 400/500 rules of 4.1.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, startTestServer } from "../api/support.ts"
import { sampleQuery } from "./sample-db.ts"
import { startPriorArt, type PriorArtFixture } from "./support.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const versionDir = await sampleArtifacts()
let f: PriorArtFixture
const search = (body: unknown, headers?: Record<string, string>) => call(f.server.url, "POST", "/api/v1/prior-art", { key: f.key, body, headers })

const CLAIM = "A rotor blade for a wind turbine comprising a spar cap and an aerodynamic shell with a trailing edge."

/** A sample application with an abstract and a claim set of independent and dependent claims. */
let subject: { app_num: string; abstract: string; claim: string }

beforeAll(async () => {
  f = await startPriorArt(versionDir)
  ;[subject] = await sampleQuery<typeof subject>(
    versionDir,
    `SELECT a.app_num, a.abstract, c.text AS claim FROM applications a JOIN claims c ON c.app_num = a.app_num AND c.claim_num = 1
     WHERE a.abstract IS NOT NULL AND length(c.text) > 100 ORDER BY a.app_num LIMIT 1`
  )
})
afterAll(() => f?.close())

describe("POST /prior-art: plain search", () => {
  it("answers the {success, data} envelope with one entry per reference and the metadata of SPEC 2.3", async () => {
    const r = await search({ claims: CLAIM, count: 12 }, { "x-request-id": "test-request-0001" })
    expect(r.status).toBe(200)
    expect(r.json.success).toBe(true)
    const { specifications, metadata } = r.json.data
    expect(specifications).toHaveLength(12)
    expect(new Set(specifications.map((s: any) => s.application_number)).size).toBe(12)
    for (const s of specifications) {
      expect(s.application_number).toMatch(/^\d+$/)
      expect(typeof s.title).toBe("string")
      expect(s.title_source).toBe("namespace")
      expect(s).toHaveProperty("description_text", null)
      expect(s).not.toHaveProperty("claims")
      expect(s).not.toHaveProperty("matched_legs")
      expect(typeof s.score).toBe("number")
      expect(s.ranks).toHaveProperty("dense")
    }
    const scores = specifications.map((s: any) => s.score)
    expect([...scores].sort((a, b) => b - a)).toEqual(scores)
    expect(metadata).toMatchObject({
      requested_count: 12,
      returned_count: 12,
      cached_count: 0,
      newly_processed_count: 12,
      cache_hit_rate: 0,
      ocr_cost: 0,
      request_id: "test-request-0001",
      context_coverage: { title: 12, abstract: 0, claims: 0, description_text: 0 }
    })
    expect(metadata.total_cost).toBeGreaterThan(0)
    expect(metadata.total_cost).toBe(metadata.ocr_cost + metadata.model_cost)
    expect(metadata.processing_time_seconds).toBeGreaterThan(0)
    expect(Number.isNaN(Date.parse(metadata.timestamp))).toBe(false)
    expect(r.headers.get("x-request-id")).toBe("test-request-0001")
  })

  it("finds the application whose own abstract and first claim are the query (they are joined as documents are indexed)", async () => {
    const r = await search({ abstract: subject.abstract, claims: subject.claim, count: 5 })
    expect(r.json.data.specifications[0].application_number).toBe(subject.app_num)
    expect(r.json.data.specifications[0].similarity).toBeGreaterThan(0.99)
  })

  it("defaults count to 50", async () => {
    const r = await search({ abstract: "A wind turbine blade with a lightning protection system and a root attachment." })
    expect(r.json.data.metadata.requested_count).toBe(50)
    expect(r.json.data.specifications).toHaveLength(50)
  })

  it("includeClaims adds the abstract and the full claims, and the title comes from the application record", async () => {
    const r = await search({ abstract: subject.abstract, claims: subject.claim, count: 3, includeClaims: true })
    const top = r.json.data.specifications[0]
    expect(top.title_source).toBe("application")
    expect(top.abstract).toBe(subject.abstract)
    expect(top.claims[0]).toMatchObject({ number: 1, text: subject.claim, is_independent: true })
    expect(r.json.data.metadata.context_coverage.claims).toBeGreaterThanOrEqual(1)
    expect(r.json.data.metadata.context_coverage.abstract).toBeGreaterThanOrEqual(1)
  })

  it("titles and abstracts come from the stored documents (documents/), and a version built before them shows the same text", async () => {
    const body = { abstract: subject.abstract, claims: subject.claim, count: 20, includeClaims: true, forceReprocess: true }
    const stored = (await search(body)).json.data.specifications
    const rows = await sampleQuery<{ app_num: string; title: string | null; abstract: string | null }>(
      versionDir,
      `SELECT app_num, title, abstract FROM applications WHERE app_num IN (${stored.map((x: any) => `'${x.application_number}'`).join(",")})`
    )
    const byApp = new Map(rows.map((r) => [r.app_num, r]))
    for (const x of stored) expect({ title: x.title, abstract: x.abstract }).toEqual({ title: byApp.get(x.application_number)!.title, abstract: byApp.get(x.application_number)!.abstract })
    const older = fs.mkdtempSync(path.join(os.tmpdir(), "prior-art-older-"))
    fs.cpSync(fs.realpathSync(versionDir), older, { recursive: true, filter: (src) => !src.endsWith("catalog.duckdb") && !src.includes(`${path.sep}documents`) })
    const server = await startTestServer({ artifactsDir: older, hubUrl: f.hub.url })
    try {
      const r = await call(server.url, "POST", "/api/v1/prior-art", { key: await server.key({ daily: 100, monthly: 100 }), body })
      expect(r.status).toBe(200)
      // Without documents/ the references are read from the tables: the query's own application
      // still leads, and every reference reads as in the tables.
      const olderList = r.json.data.specifications
      expect(olderList[0].application_number).toBe(stored[0].application_number)
      const olderRows = await sampleQuery<{ app_num: string; title: string | null; abstract: string | null }>(
        versionDir,
        `SELECT app_num, title, abstract FROM applications WHERE app_num IN (${olderList.map((x: any) => `'${x.application_number}'`).join(",")})`
      )
      const olderByApp = new Map(olderRows.map((row) => [row.app_num, row]))
      for (const x of olderList) expect({ title: x.title, abstract: x.abstract }).toEqual({ title: olderByApp.get(x.application_number)!.title, abstract: olderByApp.get(x.application_number)!.abstract })
    } finally {
      await server.close()
      fs.rmSync(older, { recursive: true, force: true })
    }
  })
})

describe("channels", () => {
  it("hybrid fuses dense, citation and lexical rankings; matched_legs counts the retrievers that found each result", async () => {
    const r = await search({ claims: CLAIM, count: 30, hybrid: true })
    expect(r.status).toBe(200)
    const specs = r.json.data.specifications
    for (const s of specs) {
      const found = ["dense", "citations", "lexical"].filter((c) => s.ranks[c] !== null).length
      expect(s.matched_legs).toBe(found)
      expect(s.matched_legs).toBeGreaterThanOrEqual(1)
    }
    expect(specs.some((s: any) => s.ranks.lexical !== null)).toBe(true)
    expect(r.json.data.metadata.retrieval.channels.lexical).toBeGreaterThan(0)
  })

  it("useReranking rescores the top candidates by late interaction and fuses that order in (the hub loads the reranker on first use)", async () => {
    const plain = await search({ claims: CLAIM, count: 20 })
    const r = await search({ claims: CLAIM, count: 20, useReranking: true })
    expect(r.status).toBe(200)
    const specs = r.json.data.specifications
    for (const s of specs) {
      expect(typeof s.rerank_score).toBe("number")
      expect(Number.isInteger(s.ranks.rerank)).toBe(true)
    }
    // The reranker's own order: a lower rerank rank never has a lower score.
    const byRank = [...specs].sort((a: any, b: any) => a.ranks.rerank - b.ranks.rerank)
    for (let i = 1; i < byRank.length; i++) expect(byRank[i].rerank_score).toBeLessThanOrEqual(byRank[i - 1].rerank_score)
    // The answer's order is the score's: a client that sorts by score keeps the reranked order.
    for (let i = 1; i < specs.length; i++) expect(specs[i].score).toBeLessThanOrEqual(specs[i - 1].score)
    expect(r.json.data.metadata.retrieval.reranked).toBeGreaterThanOrEqual(20)
    expect(plain.json.data.specifications[0]).not.toHaveProperty("rerank_score")
  })

  it("hyde searches a drafted abstract and first claim and returns it with the name of its drafter", async () => {
    const r = await search({ claims: CLAIM, count: 10, hyde: true })
    expect(r.status).toBe(200)
    const hyde = r.json.data.metadata.hyde
    expect(hyde.generator).toBe("extractive")
    expect(hyde.abstract.length).toBeGreaterThan(20)
    expect(hyde.claim).toBe(CLAIM)
    expect(hyde.text).toContain(" [SEP] ")
    expect(hyde.sources.length).toBeGreaterThan(0)
    expect(r.json.data.specifications).toHaveLength(10)
  })
})

describe("filters", () => {
  const dates = (specs: any[]) => specs.map((s) => s.filing_date as string)

  it("filedBefore with a year excludes references filed in or after that year", async () => {
    const r = await search({ claims: CLAIM, count: 40, filedBefore: "2015" })
    const d = dates(r.json.data.specifications)
    expect(d.length).toBe(40)
    for (const x of d) expect(x < "2015-01-01").toBe(true)
    expect(r.json.data.metadata.filter).toMatchObject({ applied: true, filedBefore: { requested: "2015", filed_before: "2015-01-01" } })
  })

  it("filedAfter with a year excludes references filed in or before that year", async () => {
    const r = await search({ claims: CLAIM, count: 40, filedAfter: "2022" })
    const d = dates(r.json.data.specifications)
    expect(d.length).toBeGreaterThan(0)
    for (const x of d) expect(x > "2022-12-31").toBe(true)
    expect(r.json.data.metadata.filter.filedAfter.filed_after).toBe("2022-12-31")
  })

  it("month and day bounds are exclusive on both sides", async () => {
    const r = await search({ claims: CLAIM, count: 40, filedAfter: "2019-06", filedBefore: "2021-03-15" })
    const d = dates(r.json.data.specifications)
    expect(d.length).toBeGreaterThan(0)
    for (const x of d) expect(x > "2019-06-30" && x < "2021-03-15").toBe(true)
  })

  it("cpc3 keeps references carrying one of the subclasses and excludes references without CPC data", async () => {
    const r = await search({ claims: CLAIM, count: 50, cpc3: ["H04L", "G06N", "H04L"] })
    const specs = r.json.data.specifications
    expect(specs).toHaveLength(50)
    for (const s of specs) expect(s.cpc_subclasses.some((c: string) => c === "H04L" || c === "G06N")).toBe(true)
    expect(r.json.data.metadata.filter.cpc3).toMatchObject({ subclasses: ["G06N", "H04L"], without_cpc: "excluded" })
  })

  it("a selective filter does not starve the list: the admitted subset is searched until count results or it is exhausted", async () => {
    // A subclass held by a few dozen applications, far from the query's topic (wind turbines).
    const [{ subclass, n }] = await sampleQuery<{ subclass: string; n: number }>(
      versionDir,
      `SELECT subclass, count(DISTINCT app_num)::INTEGER AS n FROM cpc_assignments
       WHERE section IN ('A', 'C') GROUP BY subclass HAVING n BETWEEN 20 AND 90 ORDER BY n DESC, subclass LIMIT 1`
    )
    const r = await search({ claims: CLAIM, count: 100, cpc3: [subclass] })
    expect(r.json.data.metadata.returned_count).toBe(n)
    expect(r.json.data.metadata.filter.dense_search.mode).not.toBe("hnsw")
  })

  it("country keeps one publication country", async () => {
    const us = await search({ claims: CLAIM, count: 5, country: "us" })
    expect(us.json.data.specifications).toHaveLength(5)
    for (const s of us.json.data.specifications) expect(s.country).toBe("US")
    const de = await search({ claims: CLAIM, count: 5, country: "DE" })
    expect(de.status).toBe(200)
    expect(de.json.data.specifications).toHaveLength(0)
    expect(de.json.data.metadata.filter.country).toBe("DE")
  })

  it("without filters metadata.filter says none was applied", async () => {
    const r = await search({ claims: CLAIM, count: 3 })
    expect(r.json.data.metadata.filter.applied).toBe(false)
  })
})

describe("caches", () => {
  it("serves a repeated request (whitespace aside) from the result cache at no cost", async () => {
    const body = { abstract: "A heat exchanger with brazed aluminium fins and  flat tubes.", count: 7, hybrid: true }
    const first = await search(body)
    expect(first.json.data.metadata.cached_count).toBe(0)
    const again = await search({ ...body, abstract: `  ${body.abstract.replace("  ", " ")}\n` })
    expect(again.json.data.metadata).toMatchObject({ cached_count: 7, newly_processed_count: 0, cache_hit_rate: 1, total_cost: 0, model_cost: 0 })
    expect(again.json.data.metadata.cache.results).toBe("hit")
    expect(again.json.data.specifications).toEqual(first.json.data.specifications)
    expect(again.json.data.metadata.request_id).not.toBe(first.json.data.metadata.request_id)
    // Without a caller-supplied id, the body quotes the id the response header carries.
    expect(again.json.data.metadata.request_id).toBe(again.headers.get("x-request-id"))
  })

  it("a different option is a different entry; the query vector is reused from its own layer", async () => {
    const body = { abstract: "A bicycle derailleur with an electric actuator and a chain guide.", count: 5 }
    await search(body)
    const other = await search({ ...body, count: 6 })
    expect(other.json.data.metadata.cached_count).toBe(0)
    expect(other.json.data.metadata.cache.query_vector).toBe("hit")
    expect(other.json.data.metadata.model_cost).toBe(0)
  })

  it("forceReprocess bypasses and overwrites every layer, and spends", async () => {
    const body = { abstract: "A surgical stapler with an articulating jaw and a firing lockout.", count: 4 }
    await search(body)
    const dir = path.join(f.server.stateDir, "prior-art-cache")
    const files = () => fs.readdirSync(dir, { recursive: true }).map(String).filter((p) => p.endsWith(".json"))
    const mtimes = () => Object.fromEntries(files().map((p) => [p, fs.statSync(path.join(dir, p)).mtimeMs]))
    const before = mtimes()
    await new Promise((r) => setTimeout(r, 20))
    const forced = await search({ ...body, forceReprocess: true })
    expect(forced.json.data.metadata).toMatchObject({ cached_count: 0, newly_processed_count: 4, cache: { results: "bypass", query_vector: "bypass" } })
    expect(forced.json.data.metadata.total_cost).toBeGreaterThan(0)
    const after = mtimes()
    const rewritten = Object.keys(before).filter((p) => after[p] > before[p])
    expect(rewritten.some((p) => p.includes(`${path.sep}results${path.sep}`))).toBe(true)
    expect(rewritten.some((p) => p.includes(`${path.sep}vectors${path.sep}`))).toBe(true)
    const cached = await search(body)
    expect(cached.json.data.metadata.cache.results).toBe("hit")
  })

  it("keeps its entries under the served artifact version, so a new version never serves old answers", async () => {
    const version = JSON.parse(fs.readFileSync(path.join(versionDir, "manifest.json"), "utf8")).version
    expect(fs.readdirSync(path.join(f.server.stateDir, "prior-art-cache"))).toEqual([version])
  })
})

describe("400 and 500 rules of SPEC 4.1", () => {
  it("refuses every malformed search body with the field and the rule", async () => {
    const cases: Array<[unknown, string]> = [
      [{}, "claims or abstract"],
      [{ claims: "", abstract: "   " }, "claims or abstract"],
      [{ claims: CLAIM, count: 0 }, "count"],
      [{ claims: CLAIM, count: 101 }, "count"],
      [{ claims: CLAIM, count: "5" }, "count"],
      [{ claims: CLAIM, forceReprocess: "true" }, "forceReprocess"],
      [{ claims: CLAIM, useReranking: 1 }, "useReranking"],
      [{ claims: CLAIM, filedBefore: "2020-02-30" }, "filedBefore"],
      [{ claims: CLAIM, filedBefore: "20" }, "filedBefore"],
      [{ claims: CLAIM, filedAfter: "2020/01/01" }, "filedAfter"],
      [{ claims: CLAIM, cpc3: ["H04"] }, "cpc3"],
      [{ claims: CLAIM, country: "USA" }, "country"],
      [{ claims: "too short" }, "claims"],
      [{ abstract: "x".repeat(10001) }, "abstract"]
    ]
    for (const [body, field] of cases) {
      const r = await search(body)
      expect(r.status, JSON.stringify(body).slice(0, 60)).toBe(400)
      expect(r.json.success).toBe(false)
      expect(r.json.error).toContain(field)
    }
  })

  it("a failed backend (hub down) is a 500 carrying request_id", async () => {
    const server = await startTestServer({ artifactsDir: versionDir, hubUrl: "http://127.0.0.1:9" })
    try {
      const key = await server.key()
      const r = await call(server.url, "POST", "/api/v1/prior-art", { key, body: { claims: CLAIM }, headers: { "x-request-id": "hub-down-000001" } })
      expect(r.status).toBe(500)
      expect(r.json).toEqual({ success: false, error: expect.stringContaining("hub"), request_id: "hub-down-000001" })
    } finally {
      await server.close()
    }
  })
})
