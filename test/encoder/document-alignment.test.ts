/**
 * The document map (pipeline/encoder/document-alignment.ts): learned from applications sharing a
 * main CPC subgroup, only from the dev half of the held-out citation queries, and only where the
 * corpus has enough subgroups to estimate it.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { splitOf } from "../../bench/held-out.ts"
import type { PatentTextEncoder } from "../../core/encoder/encoder.ts"
import { applyDocumentMap } from "../../core/encoder/ensemble-encoder.ts"
import { seededRandom } from "../../core/random.ts"
import { alignmentPlan, learnDocumentMap } from "../../pipeline/encoder/document-alignment.ts"
import { isDevApplication } from "../../pipeline/encoder/held-out.ts"

const appNums = Array.from({ length: 4000 }, (_, i) => String(16_000_000 + i * 7))
const SUBGROUPS = 40
const subgroupOf = (i: number) => `H01M${(i % SUBGROUPS) + 1}/00`

describe("which applications teach the map", () => {
  it("takes the dev half of the held-out citation queries, as the retrieval bench splits them", () => {
    for (const a of appNums) expect(isDevApplication(a)).toBe(splitOf(a) === "dev")
  })

  it("pairs documents of one subgroup as related and of different subgroups as unrelated, dev half only", () => {
    const plan = alignmentPlan(appNums.map((appNum, i) => ({ appNum, subgroup: subgroupOf(i) })), 4, { maxDocuments: 1000, subgroupsPerDimension: 4, shrinkage: 0.1 })
    if (plan._tag !== "Plan") throw new Error(plan.reason)
    expect(plan.documents.length).toBe(1000)
    expect(plan.documents.every(isDevApplication)).toBe(true)
    const subgroup = new Map(appNums.map((a, i) => [a, subgroupOf(i)]))
    expect(plan.related.length).toBeGreaterThan(1800)
    for (const [i, j] of plan.related) expect(subgroup.get(plan.documents[i])).toBe(subgroup.get(plan.documents[j]))
    expect(plan.unrelated.length).toBeGreaterThan(900)
    for (const [i, j] of plan.unrelated) expect(subgroup.get(plan.documents[i])).not.toBe(subgroup.get(plan.documents[j]))
    // The same corpus gives the same plan.
    expect(alignmentPlan(appNums.map((appNum, i) => ({ appNum, subgroup: subgroupOf(i) })), 4, { maxDocuments: 1000, subgroupsPerDimension: 4, shrinkage: 0.1 })).toEqual(plan)
  })

  it("learns no map where there are too few subgroups for its width, and says so", () => {
    const plan = alignmentPlan(appNums.map((appNum, i) => ({ appNum, subgroup: subgroupOf(i) })), 356)
    expect(plan).toEqual({ _tag: "Skip", reason: expect.stringMatching(/40 CPC subgroups .*a 356-wide map needs 1424/) })
  })
})

describe("learning the map from the tables", () => {
  const D = 6
  let dir: string
  // Each subgroup owns a direction among the first two dimensions; the other four carry
  // drafting noise, larger than the signal, shared by every document alike.
  const random = seededRandom(7)
  const gauss = () => Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random())
  const vectorOf = new Map<string, Float32Array>()
  appNums.forEach((a, i) => {
    const angle = (2 * Math.PI * (i % SUBGROUPS)) / SUBGROUPS
    const v = Float32Array.from([Math.cos(angle) + 0.05 * gauss(), Math.sin(angle) + 0.05 * gauss(), ...Array.from({ length: D - 2 }, () => 2 * gauss())])
    vectorOf.set(`text of ${a}`, v)
  })
  const encoder: PatentTextEncoder = {
    kind: "patent-ensemble",
    dimensions: D,
    encode: async (texts) => texts.map((t) => vectorOf.get(t) ?? new Float32Array(D)),
    encodeTokens: async () => ({ tokens: [], vectors: [], weights: new Float32Array(0) }),
    encodeTokensBatch: async () => [],
    close: async () => {}
  }

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "document-map-"))
  })
  afterAll(() => fs.rm(dir, { recursive: true, force: true }))

  it("writes a D × D map under which a subgroup's documents are closer than strangers", async () => {
    const conn = await (await DuckDBInstance.create(":memory:")).connect()
    await conn.run(`CREATE TABLE applications (app_num VARCHAR, title VARCHAR, abstract VARCHAR, doc_type VARCHAR)`)
    await conn.run(`CREATE TABLE claims (app_num VARCHAR, claim_num INTEGER, text VARCHAR)`)
    await conn.run(`CREATE TABLE cpc_assignments (app_num VARCHAR, symbol VARCHAR, is_main BOOLEAN)`)
    await conn.run(`INSERT INTO applications SELECT a, 'title of ' || a, 'text of ' || a, 'utility' FROM unnest([${appNums.map((a) => `'${a}'`).join(",")}]) t(a)`)
    await conn.run(`INSERT INTO cpc_assignments SELECT a, 'H01M' || (((i - 1) % ${SUBGROUPS}) + 1) || '/00', true FROM unnest([${appNums.map((a) => `'${a}'`).join(",")}]) WITH ORDINALITY t(a, i)`)
    const result = await learnDocumentMap(conn, encoder, dir, "document-map.f32", { maxDocuments: 2000, subgroupsPerDimension: 4, shrinkage: 0.1 })
    if (result._tag !== "Learned") throw new Error(result.reason)
    expect(result.dimensions).toBe(D)
    const bytes = await fs.readFile(path.join(dir, "document-map.f32"))
    expect(bytes.byteLength).toBe(D * D * 4)
    const w = new Float32Array(D * D)
    new Uint8Array(w.buffer).set(bytes)
    const unit = (v: Float32Array) => v.map((x) => x / Math.hypot(...v))
    const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, k) => s + x * b[k], 0)
    // Test-half documents, which the map never saw: the same subgroup (i, i + SUBGROUPS) against one a quarter turn away (i + SUBGROUPS / 4).
    const test = appNums.map((a, i) => ({ a, i })).filter(({ a }) => !isDevApplication(a))
    let [same, other, sameMapped, otherMapped, n] = [0, 0, 0, 0, 0]
    for (const { i } of test) {
      if (i + SUBGROUPS >= appNums.length) continue
      const [v, s, o] = [i, i + SUBGROUPS, i + SUBGROUPS / 4].map((k) => vectorOf.get(`text of ${appNums[k]}`)!)
      same += cos(unit(v), unit(s))
      other += cos(unit(v), unit(o))
      sameMapped += cos(applyDocumentMap(w, v), applyDocumentMap(w, s))
      otherMapped += cos(applyDocumentMap(w, v), applyDocumentMap(w, o))
      n++
    }
    expect(n).toBeGreaterThan(1000)
    // Before, the noise drowns the subgroup; after, a subgroup's documents stand well above their neighbours'.
    expect((same - other) / n).toBeLessThan(0.1)
    expect((sameMapped - otherMapped) / n).toBeGreaterThan(0.5)
  })
})
