/**
 * The five /patent-map routes over real HTTP against the sample build: neighbourhood, citations,
 * locate (with a real inference hub), points and whitespace, with their documented statuses,
 * ordering rules and limits.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, startTestServer, type TestServer } from "../api/support.ts"
import { vectorFilePath } from "../../core/index/vector-file.ts"
import { copyVersion, DESIGN_APP, removeCopies, sql, startHub, variant, withoutAtlas, withoutCoordinates, withPlantedVoid } from "./support.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const sample = await sampleArtifacts()
const q = (f: string) => `'${path.join(sample, f)}'`

let hub: { url: string; stop: () => void }
let main: TestServer, atlas: TestServer, noAtlas: TestServer, noCoords: TestServer, alt: TestServer, hubless: TestServer
let key: string, atlasKey: string, noAtlasKey: string, noCoordsKey: string, altKey: string, hublessKey: string
let atlasDir: string
let v: Awaited<ReturnType<typeof variant>>

beforeAll(async () => {
  hub = await startHub(sample)
  // The whitespace routes are served from a copy with a planted void: the sample's own atlas may hold none.
  atlasDir = await withPlantedVoid(sample)
  v = await variant(sample)
  main = await startTestServer({ artifactsDir: sample, hubUrl: hub.url })
  atlas = await startTestServer({ artifactsDir: atlasDir, hubUrl: hub.url })
  noAtlas = await startTestServer({ artifactsDir: await withoutAtlas(sample), hubUrl: hub.url })
  noCoords = await startTestServer({ artifactsDir: await withoutCoordinates(sample), hubUrl: hub.url })
  alt = await startTestServer({ artifactsDir: v.dir, hubUrl: hub.url })
  hubless = await startTestServer({ artifactsDir: sample, hubUrl: "http://127.0.0.1:9" })
  ;[key, atlasKey, noAtlasKey, noCoordsKey, altKey, hublessKey] = await Promise.all([main, atlas, noAtlas, noCoords, alt, hubless].map((s) => s.key({ daily: 100_000, monthly: 100_000 })))
})
afterAll(async () => {
  hub?.stop()
  await Promise.all([main, atlas, noAtlas, noCoords, alt, hubless].map((s) => s?.close()))
  await removeCopies()
})

const get = (p: string, server = main, k = key) => call(server.url, "GET", `/api/v1/patent-map${p}`, { key: k })
const post = (body: unknown, server = main, k = key) => call(server.url, "POST", "/api/v1/patent-map/locate", { key: k, body })

const coordinatesOf = async (appNum: string) => (await sql(`SELECT x, y, z FROM read_parquet(${q("map/coordinates.parquet")}) WHERE app_num = '${appNum}'`))[0]
const firstApps = async (n: number) => (await sql(`SELECT app_num FROM read_parquet(${q("map/coordinates.parquet")}) ORDER BY key LIMIT ${n}`)).map((r) => r.app_num as string)
const isDescending = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1] >= x)

describe("GET /patent-map/patent/{appNum}", () => {
  it("a version built before index/vectors.f32 gives the same neighbourhood (vectors read from Parquet)", async () => {
    const dir = await copyVersion(sample, "no-vector-file")
    await fs.rm(vectorFilePath(dir))
    const older = await startTestServer({ artifactsDir: dir, hubUrl: hub.url })
    try {
      const [app] = await firstApps(1)
      const [a, b] = [await get(`/patent/${app}?topK=12`), await get(`/patent/${app}?topK=12`, older, await older.key({ daily: 100, monthly: 100 }))]
      expect(b.status).toBe(200)
      expect(b.json.neighbors).toEqual(a.json.neighbors)
    } finally {
      await older.close()
    }
  })

  it("returns self at its exact stored coordinates and topK neighbours ordered by cosine similarity", async () => {
    const [app] = await firstApps(1)
    const r = await get(`/patent/${app}?topK=7`)
    expect(r.status).toBe(200)
    expect(r.headers.get("cache-control")).toBe("private, max-age=86400")
    expect(r.json.appNum).toBe(app)
    expect(r.json.self).toMatchObject({ appNum: app, ...(await coordinatesOf(app)) })
    expect(r.json.neighbors).toHaveLength(7)
    expect(r.json.count).toBe(7)
    expect(r.json.neighbors.map((n: any) => n.appNum)).not.toContain(app)
    expect(isDescending(r.json.neighbors.map((n: any) => n.score))).toBe(true)
    for (const n of r.json.neighbors) {
      expect(n).toMatchObject(await coordinatesOf(n.appNum))
      expect(n.score).toBeGreaterThan(-1)
      expect(n.score).toBeLessThanOrEqual(1)
      expect(n.filingDate === null || /^\d{4}-\d{2}-\d{2}$/.test(n.filingDate)).toBe(true)
    }
    expect(typeof r.json.timestamp).toBe("string")
  })

  it("defaults to 20 neighbours", async () => {
    const [app] = await firstApps(1)
    expect((await get(`/patent/${app}`)).json.count).toBe(20)
  })

  it("answers self null with no neighbours for an application known without a vector", async () => {
    for (const app of [DESIGN_APP, v.unvectored]) {
      const r = await get(`/patent/${app}`, alt, altKey)
      expect(r.status).toBe(200)
      expect(r.json).toMatchObject({ appNum: app, self: null, neighbors: [], count: 0 })
    }
  })

  it("answers 404 NOT_INDEXED for an unknown application and 400 for bad input", async () => {
    const r = await get(`/patent/99999999`)
    expect(r.status).toBe(404)
    expect(r.json.code).toBe("NOT_INDEXED")
    expect((await get(`/patent/12ab5678`)).json.code).toBe("VALIDATION_ERROR")
    expect((await get(`/patent/123456`)).status).toBe(400)
    const [app] = await firstApps(1)
    expect((await get(`/patent/${app}?topK=0`)).status).toBe(400)
    expect((await get(`/patent/${app}?topK=101`)).status).toBe(400)
  })
})

describe("GET /patent-map/patent/{appNum}/citations", () => {
  it("resolves cited applications to points with examiner and title; the rest count as not indexed", async () => {
    const [row] = await sql(
      `SELECT citing_app, count(DISTINCT coalesce(cited_app, cited_doc))::INTEGER AS total, count(DISTINCT cited_app)::INTEGER AS resolved
       FROM read_parquet(${q("tables/citations.parquet")}) GROUP BY 1 HAVING count(cited_app) > 3 ORDER BY 1 LIMIT 1`
    )
    const r = await get(`/patent/${row.citing_app}/citations`)
    expect(r.status).toBe(200)
    expect(r.json.citedTotal).toBe(row.total)
    expect(r.json.count).toBe(r.json.points.length)
    expect(r.json.count + r.json.notIndexed).toBe(row.total)
    expect(r.json.count).toBe(row.resolved)
    for (const p of r.json.points) {
      expect(typeof p.examiner).toBe("boolean")
      expect("title" in p).toBe(true)
      expect(p).toMatchObject(await coordinatesOf(p.appNum))
    }
  })

  it("puts examiner citations first, never drops them, and stops at 150 references", async () => {
    const r = await get(`/patent/${v.citing}/citations`, alt, altKey)
    expect(r.status).toBe(200)
    expect(r.json.citedTotal).toBe(175)
    expect(r.json.count).toBe(150)
    const flags = r.json.points.map((p: any) => p.examiner)
    expect(flags.slice(0, 5)).toEqual([true, true, true, true, true])
    expect(flags.slice(5).every((f: boolean) => !f)).toBe(true)
    expect(r.json.points.slice(0, 5).map((p: any) => p.appNum).sort()).toEqual([...v.examiner].sort())
  })

  it("narrows by the citing application's filing year", async () => {
    expect((await get(`/patent/${v.citing}/citations?year=2016`, alt, altKey)).json.citedTotal).toBe(175)
    expect((await get(`/patent/${v.citing}/citations?year=2001`, alt, altKey)).json).toMatchObject({ citedTotal: 0, count: 0, points: [] })
    expect((await get(`/patent/${v.citing}/citations?year=1969`, alt, altKey)).status).toBe(400)
  })
})

describe("POST /patent-map/locate", () => {
  const centroid = (hits: any[]) => {
    const w = hits.slice(0, 8).map((_, i) => 1 / (i + 1))
    const total = w.reduce((a, b) => a + b, 0)
    return ["x", "y", "z"].map((d) => hits.slice(0, 8).reduce((s, h, i) => s + w[i] * h[d], 0) / total)
  }

  it("locates query text at the rank-weighted centroid of its top 8 hits", async () => {
    const r = await post({ query: "a rotor blade for a wind turbine with a pitch bearing", topK: 10 })
    expect(r.status).toBe(200)
    expect(r.headers.get("cache-control")).toBe("no-store")
    expect(r.json.located_by).toBe("query_text")
    expect(r.json.count).toBe(10)
    expect(r.json.self).toBeUndefined()
    expect(isDescending(r.json.neighbors.map((n: any) => n.score))).toBe(true)
    const [x, y, z] = centroid(r.json.neighbors)
    expect(r.json.landing.x).toBeCloseTo(x, 9)
    expect(r.json.landing.y).toBeCloseTo(y, 9)
    expect(r.json.landing.z).toBeCloseTo(z, 9)
  })

  it("locates an indexed application at its stored point and leaves it out of the neighbours", async () => {
    const [app] = await firstApps(1)
    const r = await post({ appNum: app, topK: 5 })
    expect(r.json.located_by).toBe("stored_vector")
    const coords = await coordinatesOf(app)
    expect(r.json.self).toMatchObject({ appNum: app, ...coords })
    expect(r.json.landing).toEqual(coords)
    expect(r.json.count).toBe(5)
    expect(r.json.neighbors.map((n: any) => n.appNum)).not.toContain(app)
  })

  it("lets query win when both are given", async () => {
    const [app] = await firstApps(1)
    expect((await post({ appNum: app, query: "heat exchanger tubes for a boiler" })).json.located_by).toBe("query_text")
  })

  it("re-encodes the text of an application without a vector, with a note", async () => {
    const r = await post({ appNum: v.unvectored, topK: 3 }, alt, altKey)
    expect(r.status).toBe(200)
    expect(r.json.located_by).toBe("re_encoded_text")
    expect(r.json.note).toMatch(/not in the vector index/)
    expect(r.json.count).toBe(3)
    expect(r.json.neighbors.map((n: any) => n.appNum)).not.toContain(v.unvectored)
  })

  it("answers 404 NOT_FOUND when the application has no text", async () => {
    for (const appNum of [DESIGN_APP, "99999999"]) {
      const r = await post({ appNum }, alt, altKey)
      expect(r.status).toBe(404)
      expect(r.json.code).toBe("NOT_FOUND")
    }
  })

  it("answers 503 MAP_COORDINATES_UNAVAILABLE without coordinates, 502 without a hub, 400 without input", async () => {
    const none = await post({ query: "a rotor blade for a wind turbine" }, noCoords, noCoordsKey)
    expect(none.status).toBe(503)
    expect(none.json.code).toBe("MAP_COORDINATES_UNAVAILABLE")
    const down = await post({ query: "a rotor blade for a wind turbine" }, hubless, hublessKey)
    expect(down.status).toBe(502)
    expect(down.json.code).toBe("UPSTREAM_ERROR")
    expect((await post({ topK: 5 })).json.code).toBe("VALIDATION_ERROR")
    expect((await post({ query: "short" })).status).toBe(400)
  })
})

describe("GET /patent-map/points", () => {
  it("pages the index in stored order, the same every time", async () => {
    const a = await get(`/points?limit=100`)
    expect(a.status).toBe(200)
    expect(a.headers.get("cache-control")).toBe("private, max-age=1800")
    expect(a.json.points.map((p: any) => p.appNum)).toEqual(await firstApps(100))
    expect(a.json).toMatchObject({ count: 100, truncated: false })
    expect((await get(`/points?limit=100`)).json.points).toEqual(a.json.points)
    const first = a.json.points[0]
    expect(first).toMatchObject(await coordinatesOf(first.appNum))
  })

  it("returns the whole small index by default, not truncated", async () => {
    const [{ n }] = await sql(`SELECT count(*)::INTEGER AS n FROM read_parquet(${q("map/coordinates.parquet")})`)
    const r = await get(`/points`)
    expect(r.json.count).toBe(Math.min(10_000, n))
    expect(r.json.truncated).toBe(false)
  })

  it("filters by CPC section and art-unit prefix", async () => {
    const h = await get(`/points?section=H&limit=500`)
    expect(h.json.count).toBeGreaterThan(0)
    expect(h.json.points.every((p: any) => p.section === "H")).toBe(true)
    const au = await get(`/points?artUnit=28&limit=500`)
    expect(au.json.count).toBeGreaterThan(0)
    expect(au.json.points.every((p: any) => p.artUnit.startsWith("28"))).toBe(true)
    expect((await get(`/points?limit=99`)).status).toBe(400)
    expect((await get(`/points?artUnit=28x`)).status).toBe(400)
    expect((await get(`/points?section=Z`)).status).toBe(400)
  })
})

describe("GET /patent-map/whitespace", () => {
  const whitespace = (query = "") => get(`/whitespace${query}`, atlas, atlasKey)

  it("lists voids by opportunity with every documented field", async () => {
    const r = await whitespace()
    expect(r.status).toBe(200)
    expect(r.headers.get("cache-control")).toBe("private, max-age=1800")
    expect(r.json.count).toBe(r.json.voids.length)
    // `count` is what the default limit (100) lets through of the `total` matches.
    expect(r.json.count).toBe(Math.min(r.json.total, 100))
    expect(r.json.count).toBeGreaterThan(0)
    expect(isDescending(r.json.voids.map((x: any) => x.opportunity))).toBe(true)
    for (const x of r.json.voids) {
      expect(x.id).toMatch(/^void-/)
      expect(x.opportunity).toBeGreaterThanOrEqual(0)
      expect(x.opportunity).toBeLessThanOrEqual(1)
      expect(x.radius).toBeGreaterThan(0)
      expect(Object.keys(x.position)).toEqual(["x", "y", "z"])
      expect(x.section).toMatch(/^[A-HY]$/)
      expect(x.borderingCpc.length).toBeGreaterThan(0)
      for (const c of x.borderingCpc) expect(c.fraction).toBeGreaterThan(0)
      expect(x.borderingCpc.some((c: any) => typeof c.title === "string")).toBe(true)
      expect(typeof x.temporal.hot).toBe("boolean")
      expect(typeof x.temporal.medianFilingYear).toBe("number")
      expect(x.summary.length).toBeGreaterThan(20)
      expect(x.summarySource).toMatch(/template/)
      expect(x.exemplars.length).toBeGreaterThan(0)
      expect(Array.isArray(x.assignees)).toBe(true)
    }
  })

  it("applies limit, section and minOpportunity; total counts every match", async () => {
    const all = (await whitespace()).json
    const one = (await whitespace(`?limit=1`)).json
    expect(one).toMatchObject({ count: 1, total: all.total })
    expect(one.voids[0]).toEqual(all.voids[0])
    const section = all.voids[0].section
    const bySection = (await whitespace(`?section=${section}`)).json
    expect(bySection.total).toBe(all.voids.filter((x: any) => x.section === section).length)
    const threshold = all.voids[0].opportunity
    const top = (await whitespace(`?minOpportunity=${threshold}`)).json
    expect(top.voids.every((x: any) => x.opportunity >= threshold)).toBe(true)
    expect(top.total).toBe(all.voids.filter((x: any) => x.opportunity >= threshold).length)
    expect((await whitespace(`?minOpportunity=1.5`)).status).toBe(400)
    expect((await whitespace(`?limit=501`)).status).toBe(400)
  })

  it("keeps the loaded atlas for 30 minutes", async () => {
    const before = (await whitespace()).json
    const file = path.join(atlasDir, "atlas", "atlas.json")
    const saved = await fs.readFile(file)
    await fs.rm(file)
    try {
      expect((await whitespace()).json.voids).toEqual(before.voids)
    } finally {
      await fs.writeFile(file, saved)
    }
  })

  it("answers 404 NOT_FOUND while no atlas is built", async () => {
    const r = await get(`/whitespace`, noAtlas, noAtlasKey)
    expect(r.status).toBe(404)
    expect(r.json.code).toBe("NOT_FOUND")
  })
})
