/**
 * The prosecution stage: examiner statistics, art-unit profiles and the CPC → art-unit
 * routing, from the ingest tables (applications, examiners, prosecution_events,
 * cpc_assignments, cpc_scheme, office_actions, claims). All heavy work is DuckDB SQL over the
 * Parquet tables; definitions are written in facts.sql.ts (per application), sections.ts
 * (rates), events.ts (transaction codes) and core/prosecution/cost-model.ts (cost).
 *
 * Outputs (prosecution/)
 *   cpc_routing.parquet          symbol, level, total_count, unique_art_units, top_art_unit,
 *                                top_art_unit_probability, entropy, distribution LIST<STRUCT{au, count, probability}>
 *   art_unit_profiles.parquet    art_unit, technology_center, title, title_source, description, keywords (JSON),
 *                                cpc_codes (JSON), examiners (JSON roster), examiner_count, statistics (JSON or null)
 *   examiner_statistics.parquet  examiner_id, full_name, art_unit, technology_center, one JSON column per SPEC 2.9 section
 */
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { type Stage, type StageResult, stagePromise } from "../stages/Stage.ts"
import { withTables } from "../stages/tables.ts"
import { aggregateBy } from "./aggregates.ts"
import { writeArtUnitProfiles } from "./art-units.ts"
import { writeCpcRouting } from "./cpc-routing.sql.ts"
import { writeExaminerStatistics } from "./examiners.ts"
import { factsSql } from "./facts.sql.ts"
import { ensureInputTables } from "./inputs.ts"

export const prosecutionOutputs = {
  cpc_routing: "prosecution/cpc_routing.parquet",
  art_unit_profiles: "prosecution/art_unit_profiles.parquet",
  examiner_statistics: "prosecution/examiner_statistics.parquet"
} as const

export const prosecutionStage: Stage = {
  name: "prosecution",
  sources: ["pipeline/prosecution", "core/prosecution"],
  dependsOn: ["ingest"],
  readsCorpusFile: () => false,
  run: (ctx) =>
    stagePromise(async (): Promise<StageResult> => {
      await fs.rm(path.join(ctx.workDir, "prosecution"), { recursive: true, force: true })
      const out = (rel: string) => path.join(ctx.workDir, rel)
      // withTables spills into a folder of its own under the build's staging folder, removed after.
      return withTables(ctx.workDir, async (conn) => {
        await conn.run(`SET preserve_insertion_order = false`)
        const notes: string[] = []
        const missing = await ensureInputTables(conn)
        if (missing.length) notes.push(`input tables absent, read as empty: ${missing.join(", ")}`)
        for (const sql of factsSql) await conn.run(sql)
        ctx.progress.info("application facts computed")

        const cpcRows = await writeCpcRouting(conn, out(prosecutionOutputs.cpc_routing))
        ctx.progress.info(`cpc routing: ${cpcRows} symbols`)
        const artUnitAggregates = new Map((await aggregateBy(conn, "art_unit")).map((a) => [a.key, a]))
        const auRows = await writeArtUnitProfiles(conn, out(prosecutionOutputs.art_unit_profiles), artUnitAggregates)
        ctx.progress.info(`art units: ${auRows}`)
        const ex = await writeExaminerStatistics(conn, out(prosecutionOutputs.examiner_statistics), artUnitAggregates)
        ctx.progress.info(`examiners: ${ex.rows} (${ex.withStatistics} with a PEDS history)`)
        notes.push(`${ex.withStatistics} of ${ex.rows} examiners have applications with a PEDS history`)

        return {
          outputs: Object.values(prosecutionOutputs),
          rowCounts: { cpc_routing: cpcRows, art_unit_profiles: auRows, examiner_statistics: ex.rows },
          notes
        }
      })
    })
}
