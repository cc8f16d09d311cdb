/**
 * The serving records change how routes read a version, never what they answer: every lookup
 * route gives the same JSON on the sample build with serving/ (record files) and on a copy of it
 * without serving/ (a version built before the serving stage, read through SQL over Parquet).
 */
import { DuckDBInstance } from "@duckdb/node-api"
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { tableFilesOf, tableRelation } from "../../core/artifacts/table-delta.ts"
import { heavySections } from "../../core/prosecution/sections.ts"
import { call, startTestServer, type TestServer } from "../api/support.ts"
import { startPriorArt, type PriorArtFixture } from "../prior-art/support.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const versionDir = await sampleArtifacts()
let current: PriorArtFixture
let legacy: TestServer
let legacyKey: string
let legacyDir: string

/** Picks from the version's own tables, so the requests name real applications, examiners and art units. */
const picks = async () => {
  const db = await DuckDBInstance.create(":memory:")
  const c = await db.connect()
  try {
    // Each table as it reads, with a night's delta where the version has one.
    for (const f of await tableFilesOf(versionDir)) await c.run(`CREATE VIEW ${path.basename(f, ".parquet")} AS SELECT * FROM ${await tableRelation(c, path.join(versionDir, f))}`)
    const list = async (sql: string) => ((await c.runAndReadAll(sql)).getRowsJS() as unknown[][]).map((r) => String(r[0]))
    return {
      withClaims: await list(`SELECT DISTINCT app_num FROM claims ORDER BY app_num LIMIT 25`),
      mapped: await list(`SELECT app_num FROM coordinates ORDER BY hash(app_num) LIMIT 6`),
      citing: await list(`SELECT citing_app FROM citations WHERE cited_app IS NOT NULL GROUP BY citing_app ORDER BY count(*) DESC, citing_app LIMIT 3`),
      unmapped: await list(`SELECT a.app_num FROM applications a JOIN claims c ON c.app_num = a.app_num AND c.claim_num = 1
                            WHERE a.app_num NOT IN (SELECT app_num FROM coordinates) AND a.abstract IS NOT NULL ORDER BY a.app_num LIMIT 2`),
      publications: await list(`SELECT pub_num FROM publications WHERE app_num IS NOT NULL ORDER BY hash(pub_num) LIMIT 4`),
      withParents: await list(`SELECT DISTINCT child_app FROM continuity WHERE child_app IN (SELECT app_num FROM claims) ORDER BY 1 LIMIT 2`),
      examiners: await list(`(SELECT examiner_id FROM examiner_statistics ORDER BY hash(examiner_id) LIMIT 4)
                             UNION ALL (SELECT examiner_id FROM examiner_statistics ORDER BY json_array_length(document_code_breakdown) DESC NULLS LAST, examiner_id LIMIT 2)`),
      artUnits: await list(`SELECT art_unit FROM art_unit_profiles ORDER BY hash(art_unit) LIMIT 3`)
    }
  } finally {
    c.closeSync()
    db.closeSync()
  }
}

let chosen: Awaited<ReturnType<typeof picks>>

beforeAll(async () => {
  current = await startPriorArt(versionDir)
  const real = fs.realpathSync(versionDir)
  // Real folders with every file hard-linked (same file system, so beside the version): the
  // version's readers list plain files and folders, which symbolic links are not.
  legacyDir = fs.mkdtempSync(path.join(path.dirname(path.dirname(real)), "serving-legacy-"))
  const mirror = (from: string, to: string) => {
    for (const e of fs.readdirSync(from, { withFileTypes: true })) {
      if (e.isDirectory()) {
        fs.mkdirSync(path.join(to, e.name))
        mirror(path.join(from, e.name), path.join(to, e.name))
      } else fs.linkSync(path.join(from, e.name), path.join(to, e.name))
    }
  }
  for (const e of fs.readdirSync(real, { withFileTypes: true })) {
    if (e.name === "serving") continue
    if (e.isDirectory()) {
      fs.mkdirSync(path.join(legacyDir, e.name))
      mirror(path.join(real, e.name), path.join(legacyDir, e.name))
    } else fs.linkSync(path.join(real, e.name), path.join(legacyDir, e.name))
  }
  legacy = await startTestServer({ artifactsDir: legacyDir, hubUrl: current.hub.url })
  legacyKey = await legacy.key({ daily: 100_000, monthly: 1_000_000 })
  chosen = await picks()
})
afterAll(async () => {
  await legacy?.close()
  await current?.close()
  if (legacyDir) fs.rmSync(legacyDir, { recursive: true, force: true })
})

/** Drops what differs between two answers by design: clocks, timings and request ids. */
const stable = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(stable)
    : v && typeof v === "object"
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([k]) => !["timestamp", "request_id", "processing_time_seconds", "ms"].includes(k) && !k.endsWith("_ms"))
            .map(([k, x]) => [k, stable(x)])
        )
      : v

const both = async (method: string, route: string, body?: unknown) => {
  const [a, b] = await Promise.all([
    call(current.server.url, method, route, { key: current.key, body }),
    call(legacy.url, method, route, { key: legacyKey, body })
  ])
  return { records: { status: a.status, body: stable(a.json) }, tables: { status: b.status, body: stable(b.json) } }
}

const expectSame = async (method: string, route: string, body?: unknown) => {
  const { records, tables } = await both(method, route, body)
  expect(records.status, `${method} ${route}`).toBeLessThan(500)
  expect(records, `${method} ${route}`).toEqual(tables)
  return records
}

describe("routes read the same answers from serving records as from the tables", () => {
  it("claims lookup, raw and independent-only, with unknown numbers", async () => {
    const ok = await expectSame("POST", "/api/v1/prior-art/claims", { appNumbers: chosen.withClaims })
    expect(ok.status).toBe(200)
    await expectSame("POST", "/api/v1/prior-art/claims", { appNumbers: [...chosen.withClaims.slice(0, 4), "99999999"], format: "raw", independentOnly: true })
  })

  it("patent space: neighbourhoods, citations, locate by application (stored and re-encoded), points", async () => {
    for (const app of [...chosen.mapped, ...chosen.unmapped]) await expectSame("GET", `/api/v1/patent-map/patent/${app}?topK=12`)
    for (const app of chosen.citing) {
      const r = await expectSame("GET", `/api/v1/patent-map/patent/${app}/citations`)
      expect(r.status).toBe(200)
    }
    for (const app of [...chosen.mapped.slice(0, 2), ...chosen.unmapped]) await expectSame("POST", "/api/v1/patent-map/locate", { appNum: app, topK: 10 })
    const points = await expectSame("GET", "/api/v1/patent-map/points?limit=3000")
    expect((points.body as any).data?.points?.length ?? (points.body as any).points?.length).toBeGreaterThan(0)
    await expectSame("GET", "/api/v1/patent-map/points?limit=500&section=H")
  })

  it("prosecution intelligence: classification by publication and application number, examiner and art-unit profiles", async () => {
    for (const n of [...chosen.publications, ...chosen.mapped.slice(0, 3), "99999999999"]) await expectSame("GET", `/api/v1/patent-intel/classification/${n}`)
    for (const id of [...chosen.examiners, "no-such-examiner"]) {
      // Withheld sections are summarised from the profile record; included ones come from their own record file.
      await expectSame("GET", `/api/v1/patent-intel/examiner/${id}`)
      await expectSame("GET", `/api/v1/patent-intel/examiner/${id}?include=rejection_analysis`)
      await expectSame("GET", `/api/v1/patent-intel/examiner/${id}?include=${heavySections.join(",")}`)
    }
    for (const au of [...chosen.artUnits, "9999"]) await expectSame("GET", `/api/v1/patent-intel/art-unit/${au}`)
  })

  it("claim validation from the warehouse: antecedent basis of filed claims, support mapping with the continuity walk", async () => {
    for (const app of chosen.withClaims.slice(0, 4)) await expectSame("GET", `/api/v1/claim-validation/antecedent-basis/${app}`)
    for (const app of [...chosen.withParents, ...chosen.withClaims.slice(0, 2)]) await expectSame("GET", `/api/v1/claim-validation/support/${app}`)
  })
})
