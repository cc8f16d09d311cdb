/**
 * The guidance routes answer from tables held in memory exactly what one SQL query per request
 * answered (test/guidance/sql-reference.ts): the same JSON, the same NotFound messages, and the
 * same CorpusUnavailable where the version lacks a table, for ids and searches drawn from the
 * sample's own tables and the spellings and unknown ids the routes let through.
 */
import { Effect, Either, Layer, ManagedRuntime } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { ArtifactStore } from "../../api/artifacts/ArtifactStore.ts"
import { Settings } from "../../api/config.ts"
import { GuidanceService } from "../../api/guidance/GuidanceService.ts"
import type { Query } from "../../api/guidance/stored.ts"
import { settingsWith } from "../../api/server.ts"
import { REJECTION_LABELS } from "../../core/guidance/rejection-types.ts"
import { designCodeBySql, epoGuidelineBySql, formParagraphBySql, formParagraphsBySql, guidanceGraphBySql, mpepSectionBySql } from "./sql-reference.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const guidanceAndStore = (artifactsDir: string) =>
  ManagedRuntime.make(
    Layer.provideMerge(GuidanceService.Default, ArtifactStore.Default).pipe(Layer.provide(Settings.layer(settingsWith({ artifactsDir, logRequests: false }))))
  )

const sampleDir = await sampleArtifacts()
const sample = guidanceAndStore(sampleDir)
// A version with the manifest and one table of the sample, none of the guidance stage's.
const bareDir = fs.mkdtempSync(path.join(os.tmpdir(), "guidance-held-bare-"))
fs.copyFileSync(path.join(sampleDir, "manifest.json"), path.join(bareDir, "manifest.json"))
fs.mkdirSync(path.join(bareDir, "tables"))
fs.copyFileSync(path.join(sampleDir, "tables", "mpep_sections.parquet"), path.join(bareDir, "tables", "mpep_sections.parquet"))
const bare = guidanceAndStore(bareDir)
afterAll(async () => {
  await Promise.all([sample.dispose(), bare.dispose()])
  fs.rmSync(bareDir, { recursive: true, force: true })
})

type Runtime = typeof sample
type Lookup = { readonly held: (g: GuidanceService) => Effect.Effect<unknown, { _tag: string; message: string }>; readonly bySql: (q: Query) => Effect.Effect<unknown, { _tag: string; message: string }> }

const outcome = (e: Either.Either<unknown, { _tag: string; message: string }>) =>
  JSON.stringify(Either.isRight(e) ? { body: e.right } : { error: e.left._tag, message: e.left.message })

/** Each case answered both ways; the cases whose answers differ, with both answers. */
const differences = (runtime: Runtime, cases: ReadonlyArray<readonly [string, Lookup]>) =>
  runtime.runPromise(
    Effect.gen(function* () {
      const g = yield* GuidanceService
      const { query } = yield* ArtifactStore
      const differ: Array<{ case: string; held: string; bySql: string }> = []
      let answered = 0
      for (const [label, { held, bySql }] of cases) {
        const a = outcome(yield* Effect.either(held(g)))
        const b = outcome(yield* Effect.either(bySql(query)))
        if (a.startsWith(`{"body"`)) answered++
        if (a !== b) differ.push({ case: label, held: a.slice(0, 400), bySql: b.slice(0, 400) })
      }
      return { differ, outcomes: cases.length, answered }
    })
  )

const column = async (sql: string) =>
  (await sample.runPromise(Effect.flatMap(ArtifactStore, (s) => s.query(sql)))).map((r) => String(Object.values(r)[0]))

/** At most `n` items spread over the list (the first and last included). */
const spread = <A>(xs: ReadonlyArray<A>, n: number): A[] => (xs.length <= n ? [...xs] : Array.from({ length: n }, (_, i) => xs[Math.round((i * (xs.length - 1)) / (n - 1))]))

describe("guidance held in memory answers as the SQL did", () => {
  it("MPEP sections: stored ids, other spellings and unknown ids", async () => {
    const ids = spread(await column(`SELECT section_id FROM mpep_guidance ORDER BY section_id`), 25)
    const spellings = ids.flatMap((id) => [id, id.toUpperCase(), `MPEP § ${id}`])
    const cases = [...spellings, "9999.99", "2173.05(zz)", "abc", ""].map(
      (id) => [`mpep ${id}`, { held: (g: GuidanceService) => g.getMpepSection(id), bySql: (q: Query) => mpepSectionBySql(q, id) }] as const
    )
    const { differ, answered } = await differences(sample, cases)
    expect(answered).toBeGreaterThan(cases.length / 3)
    expect(differ).toEqual([])
  }, 300_000)

  it("EPO Guidelines sections: stored ids, natural spellings and unknown ids", async () => {
    const ids = spread(await column(`SELECT section_id FROM epo_guidance ORDER BY section_id`), 50)
    const spellings = [...ids.flatMap((id) => [id, id.toLowerCase()]), ...ids.slice(0, 10).flatMap((id) => [id.replace(/-/g, ""), id.replace(/-(?=[^-]*$)/, "")])]
    const cases = [...spellings, "Z-IX-99", "not-an-id", "G-VII-999"].map(
      (id) => [`epo ${id}`, { held: (g: GuidanceService) => g.getEpoGuideline(id), bySql: (q: Query) => epoGuidelineBySql(q, id) }] as const
    )
    const { differ, answered } = await differences(sample, cases)
    expect(answered).toBeGreaterThan(cases.length / 3)
    expect(differ).toEqual([])
  }, 300_000)

  it("form paragraphs by code, with and without the paragraph sign, and unknown codes", async () => {
    const codes = spread(await column(`SELECT code FROM form_paragraph_details ORDER BY code`), 80)
    const spellings = [...codes.flatMap((c) => [c, c.toUpperCase()]), ...codes.slice(0, 10).flatMap((c) => [`¶ ${c}`, `§${c}`])]
    const cases = [...spellings, "99.99", "7.34.999", " "].map(
      (c) => [`fp ${c}`, { held: (g: GuidanceService) => g.getFormParagraph(c), bySql: (q: Query) => formParagraphBySql(q, c) }] as const
    )
    const { differ, answered } = await differences(sample, cases)
    expect(answered).toBeGreaterThan(cases.length / 3)
    expect(differ).toEqual([])
  }, 300_000)

  it("form paragraph searches by every rejection type, statute and MPEP section the sample holds", async () => {
    const statutes = await column(`SELECT DISTINCT statute_short FROM form_paragraph_details WHERE statute_short IS NOT NULL ORDER BY 1`)
    const types = await column(`SELECT DISTINCT rejection_type FROM form_paragraph_details WHERE rejection_type IS NOT NULL ORDER BY 1`)
    const sections = await column(`SELECT DISTINCT mpep_section FROM form_paragraph_details WHERE mpep_section IS NOT NULL ORDER BY 1`)
    const chapters = [...new Set(sections.flatMap((s) => [s.slice(0, 3), s.slice(0, 4), s.replace(/\(.*$/, "")]))]
    const rejectionTypes = [...new Set([...Object.keys(REJECTION_LABELS), ...types, ...statutes, "112(b)", "35 USC 103", "pre-AIA 102(e)", "teleportation", "112 second paragraph"])]
    const searches = [
      ...rejectionTypes.flatMap((rejectionType) => [1, 100].map((limit) => ({ rejectionType, limit }))),
      ...[...sections, ...chapters, "9999", "2173.05(E)"].map((mpepSection) => ({ mpepSection, limit: 100 })),
      ...spread(chapters, 5).map((mpepSection) => ({ mpepSection, limit: 2 })),
      ...rejectionTypes.slice(0, 6).flatMap((rejectionType) => spread(chapters, 6).map((mpepSection) => ({ rejectionType, mpepSection, limit: 25 })))
    ]
    const cases = searches.map(
      (search) => [`fps ${JSON.stringify(search)}`, { held: (g: GuidanceService) => g.findFormParagraphs(search), bySql: (q: Query) => formParagraphsBySql(q, search) }] as const
    )
    const { differ, outcomes, answered } = await differences(sample, cases)
    expect(outcomes).toBeGreaterThan(100)
    expect(answered).toBe(outcomes)
    expect(differ).toEqual([])
  }, 300_000)

  it("the guidance graph: nodes of both corpora, the busiest ones, every limit, unknown and unprefixed ids", async () => {
    const nodes = await column(`SELECT node_id FROM guidance_nodes ORDER BY node_id`)
    const busiest = await column(`SELECT node_id FROM guidance_nodes ORDER BY in_degree + out_degree DESC, node_id LIMIT 8`)
    const asked = [
      ...spread(nodes, 60).map((id) => [id, 5] as const),
      ...busiest.flatMap((id) => [1, 3, 50, 200].map((limit) => [id, limit] as const)),
      ...busiest.slice(0, 5).map((id) => [id.toUpperCase(), 10] as const),
      ["mpep-9999.99", 50] as const,
      ["2173.05(e)", 50] as const,
      ["epo-Z-IX-1", 50] as const
    ]
    const cases = asked.map(
      ([id, limit]) => [`graph ${id} ${limit}`, { held: (g: GuidanceService) => g.getGuidanceGraph(id, limit), bySql: (q: Query) => guidanceGraphBySql(q, id, limit) }] as const
    )
    const { differ, answered } = await differences(sample, cases)
    expect(answered).toBeGreaterThan(cases.length / 3)
    expect(differ).toEqual([])
  }, 300_000)

  it("design codes at every level, padded, and unknown codes", async () => {
    const codes = spread(await column(`SELECT code FROM design_code_entries ORDER BY code`), 100)
    const cases = [...codes, ...codes.slice(0, 5).map((c) => ` ${c} `), "99", "01.99.99", "1.2"].map(
      (c) => [`design ${c}`, { held: (g: GuidanceService) => g.getDesignCode(c), bySql: (q: Query) => designCodeBySql(q, c) }] as const
    )
    const { differ, answered } = await differences(sample, cases)
    expect(answered).toBeGreaterThan(cases.length / 3)
    expect(differ).toEqual([])
  }, 300_000)

  it("a version without the guidance tables answers the same CorpusUnavailable to every method", async () => {
    const search = { rejectionType: "frivolous", limit: 25 }
    const cases: Array<readonly [string, Lookup]> = [
      ["mpep", { held: (g) => g.getMpepSection("2173.05(e)"), bySql: (q) => mpepSectionBySql(q, "2173.05(e)") }],
      ["epo", { held: (g) => g.getEpoGuideline("not-an-id"), bySql: (q) => epoGuidelineBySql(q, "not-an-id") }],
      ["fp", { held: (g) => g.getFormParagraph("7.34.01"), bySql: (q) => formParagraphBySql(q, "7.34.01") }],
      ["fps unknown type", { held: (g) => g.findFormParagraphs(search), bySql: (q) => formParagraphsBySql(q, search) }],
      ["fps section", { held: (g) => g.findFormParagraphs({ mpepSection: "2175", limit: 5 }), bySql: (q) => formParagraphsBySql(q, { mpepSection: "2175", limit: 5 }) }],
      ["graph", { held: (g) => g.getGuidanceGraph("mpep-2142", 50), bySql: (q) => guidanceGraphBySql(q, "mpep-2142", 50) }],
      ["graph unprefixed", { held: (g) => g.getGuidanceGraph("2142", 50), bySql: (q) => guidanceGraphBySql(q, "2142", 50) }],
      ["design", { held: (g) => g.getDesignCode("01"), bySql: (q) => designCodeBySql(q, "01") }]
    ]
    const { differ } = await differences(bare, cases)
    expect(differ).toEqual([])
    // Asked again, the held tables are read again (a failed read is not kept).
    expect((await differences(bare, cases)).differ).toEqual([])
  }, 300_000)
})
