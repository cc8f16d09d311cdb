/**
 * Examiner search from the in-memory index answers exactly what its SQL over `examiners` and
 * `examiner_statistics` answered (kept below as the reference): the same examiners in the same
 * order, for surnames, name prefixes, art units and both together drawn from the sample.
 */
import type { DuckDBValue } from "@duckdb/node-api"
import { Effect, Either, Layer, ManagedRuntime } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { ArtifactStore } from "../../api/artifacts/ArtifactStore.ts"
import { Settings } from "../../api/config.ts"
import { normalizeExaminerName, type ExaminerSearch } from "../../api/patent-intel/examiner-search.ts"
import { PatentIntelService } from "../../api/patent-intel/PatentIntelService.ts"
import { str, technologyCenterOf, variantArtUnitSql, type Query } from "../../api/patent-intel/stored.ts"
import { settingsWith } from "../../api/server.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const sampleDir = await sampleArtifacts()

/** The search as one SQL query per request (the code the index replaced). */
const findExaminerBySql = (query: Query, search: ExaminerSearch) =>
  Effect.gen(function* () {
    const name = search.name === undefined ? "" : normalizeExaminerName(search.name)
    const artUnit = search.artUnit?.trim() ?? ""
    if (!name && !artUnit) return { count: 0, examiners: [] }
    const limit = Math.min(100, Math.max(1, Math.trunc(search.limit)))
    const params: DuckDBValue[] = []
    const bind = (v: DuckDBValue) => `$${params.push(v)}`
    const where: string[] = []
    const order: string[] = []
    if (name) {
      const p = bind(name)
      order.push(`max((upper(x.surname) = ${p})::INTEGER) DESC`)
      where.push(`(upper(x.surname) = ${p} OR starts_with(upper(x.full_name), ${p}))`)
    }
    if (artUnit) {
      const p = bind(artUnit)
      order.push(`max((s.art_unit = ${p})::INTEGER) DESC`)
      where.push(`(x.art_unit = ${p} OR list_contains(x.art_units, ${p}) OR s.art_unit = ${p})`)
    }
    const rows = yield* query(
      `SELECT s.examiner_id, any_value(s.full_name) AS full_name, any_value(s.art_unit) AS stored_art_unit,
         any_value(s.technology_center) AS technology_center, ${variantArtUnitSql} AS variant_art_unit
       FROM examiners x JOIN examiner_statistics s USING (examiner_id)
       WHERE ${where.join(" AND ")}
       GROUP BY s.examiner_id
       ORDER BY ${order.join(", ")}, max(x.application_count) DESC, any_value(s.full_name), s.examiner_id
       LIMIT ${bind(limit)}`,
      params,
      ["examiners", "examiner_statistics"]
    )
    const examiners = rows.map((r) => {
      const au = str(r.stored_art_unit) ?? str(r.variant_art_unit)
      return { examiner_id: String(r.examiner_id), full_name: String(r.full_name), art_unit: au, technology_center: str(r.technology_center) ?? technologyCenterOf(au) }
    })
    return { count: examiners.length, examiners }
  })

const runtime = ManagedRuntime.make(
  Layer.provideMerge(PatentIntelService.Default, ArtifactStore.Default).pipe(
    Layer.provide(Settings.layer(settingsWith({ artifactsDir: sampleDir, logRequests: false })))
  )
)
afterAll(() => runtime.dispose())

const outcome = (e: Either.Either<unknown, { _tag: string; message: string }>) =>
  JSON.stringify(Either.isRight(e) ? { body: e.right } : { error: e.left._tag, message: e.left.message })

const spread = <A>(xs: ReadonlyArray<A>, n: number): A[] => (xs.length <= n ? [...xs] : Array.from({ length: n }, (_, i) => xs[Math.round((i * (xs.length - 1)) / (n - 1))]))

describe("examiner search held in memory", () => {
  it("answers as the SQL did for surnames, prefixes, art units and both, at every limit", async () => {
    const column = async (sql: string) =>
      (await runtime.runPromise(Effect.flatMap(ArtifactStore, (store) => store.query(sql)))).map((r) => (r.v === null ? null : String(r.v)))
    const surnames = spread((await column(`SELECT DISTINCT surname AS v FROM examiners WHERE surname IS NOT NULL ORDER BY 1`)) as string[], 60)
    const fullNames = spread((await column(`SELECT DISTINCT full_name AS v FROM examiners WHERE full_name IS NOT NULL ORDER BY 1`)) as string[], 30)
    // Examiners with several name variants, and those whose art unit only another variant knows.
    const variants = (await column(
      `SELECT full_name AS v FROM examiners WHERE examiner_id IN (SELECT examiner_id FROM examiners GROUP BY 1 HAVING count(*) > 1) ORDER BY 1`
    )) as string[]
    const units = spread((await column(`SELECT DISTINCT art_unit AS v FROM examiners WHERE art_unit IS NOT NULL ORDER BY 1`)) as string[], 40)
    const statsOnlyUnits = (await column(
      `SELECT DISTINCT s.art_unit AS v FROM examiner_statistics s JOIN examiners x USING (examiner_id) WHERE s.art_unit IS NOT NULL AND x.art_unit IS NULL ORDER BY 1 LIMIT 5`
    )) as string[]
    const names = [
      ...surnames.flatMap((s) => [s, s.toLowerCase()]),
      ...fullNames.flatMap((f) => [f, f.slice(0, f.indexOf(",") + 3)]),
      ...variants,
      ...["A", "B", "S", "SM", "NGUYEN", "NGUYEN, H", "bryant ,c", "Wang", "LEE", "O'", "FÁBIÁN", "fábián-kovács", "ZZZZ", "RYANT", "%", "_", ","]
    ]
    const searches: ExaminerSearch[] = [
      ...names.map((name) => ({ name, limit: 20 })),
      ...[...units, ...statsOnlyUnits, "9999", " 2863 "].map((artUnit) => ({ artUnit, limit: 100 })),
      ...spread(units, 10).flatMap((artUnit) => [1, 5].map((limit) => ({ artUnit, limit }))),
      ...spread(surnames, 10).flatMap((name) => spread(units, 4).map((artUnit) => ({ name, artUnit, limit: 20 }))),
      ...["A", "S", "NGUYEN", "LEE"].flatMap((name) => [1, 3, 100].map((limit) => ({ name, limit }))),
      { name: "BRYANT", artUnit: "2884", limit: 20 },
      { name: "", artUnit: "", limit: 20 },
      { limit: 20 }
    ]
    let withMatches = 0
    const differ = await runtime.runPromise(
      Effect.gen(function* () {
        const service = yield* PatentIntelService
        const { query } = yield* ArtifactStore
        const out: Array<{ search: ExaminerSearch; held: string; bySql: string }> = []
        for (const search of searches) {
          const found = yield* Effect.either(service.findExaminer(search))
          if (Either.isRight(found) && found.right.count > 0) withMatches++
          const held = outcome(found)
          const bySql = outcome(yield* Effect.either(findExaminerBySql(query, search)))
          if (held !== bySql) out.push({ search, held, bySql })
        }
        return out
      })
    )
    expect(searches.length).toBeGreaterThan(200)
    expect(withMatches).toBeGreaterThan(searches.length / 2)
    expect(differ).toEqual([])
  }, 300_000)
})
