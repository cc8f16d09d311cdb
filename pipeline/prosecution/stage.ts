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
 *   examiner_statistics.parquet  examiner_id, full_name, art_unit, technology_center, one JSON column per SPEC 2.9 section,
 *                                section_sizes (JSON: each withheld section's size) and top_codes (the ten largest document codes)
 *   examiner_inputs.parquet      examiner_id, applications_hash: what a night compares to rebuild only changed examiners' lists
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { tableRelation } from "../../core/artifacts/table-delta.ts"
import { type ChangedKeys, changedSince, ingestChanges } from "../ingest/changes.ts"
import { tableDeltaLimit } from "../ingest/merge.ts"
import { writeEntityTable } from "../stages/entity-delta.ts"
import { withLinkedOutputs } from "../stages/take-over.ts"
import { type Stage, type StageResult, stagePromise } from "../stages/Stage.ts"
import { sqlString, withTables } from "../stages/tables.ts"
import { stopwatch } from "../stages/stopwatch.ts"
import { aggregateBy } from "./aggregates.ts"
import { writeArtUnitProfiles } from "./art-units.ts"
import { writeCpcRouting } from "./cpc-routing.sql.ts"
import { examinerInputsFile, writeExaminerStatistics } from "./examiners.ts"
import { appStatsSql, asOfSql, factsSql } from "./facts.sql.ts"
import { ensureInputTables } from "./inputs.ts"

export const prosecutionOutputs = {
  cpc_routing: "prosecution/cpc_routing.parquet",
  art_unit_profiles: "prosecution/art_unit_profiles.parquet",
  examiner_statistics: "prosecution/examiner_statistics.parquet"
} as const

/**
 * Per application, what every statistic aggregates (facts.sql.ts): kept beside the statistics so a
 * night computes them only for the applications ingest merged again, and for analysts.
 *   application_facts.parquet   app_num, examiner_name, art_unit, filing date, disposition, timings, counts …
 *   application_events.parquet  app_num, seq, event_date, code, description, milestone: its PEDS
 *                               transactions with the milestone each is (events.ts); a whole write
 *                               leaves them in no particular order (sorting 20M rows at 1M costs more than the rest)
 */
export const applicationFactsOutputs = {
  application_facts: { file: "prosecution/application_facts.parquet", table: "application_facts", orderBy: "app_num" },
  application_events: { file: "prosecution/application_events.parquet", table: "ev", orderBy: "app_num, seq" }
} as const

/** The tables an application's facts are made of; a night needs ingest's change lists of each. */
const FACT_TABLES = ["applications", "prosecution_events", "claims", "office_actions"] as const

/**
 * The applications whose facts may differ from the earlier version's (one column `k`): those ingest
 * listed in the applications, events and claims tables, and those of the office actions it listed
 * (keyed by document: their applications now and then).
 */
const affectedApplications = async (conn: DuckDBConnection, changed: ChangedKeys, earlierDir: string) => {
  const keys = (t: string) => (changed.lists[t] ? [`SELECT k FROM read_parquet(${sqlString(changed.lists[t])})`] : [])
  const actions = changed.lists.office_actions
    ? [
        `SELECT app_num FROM read_parquet(${sqlString(changed.rows.office_actions)})`,
        `SELECT o.app_num FROM ${await tableRelation(conn, path.join(earlierDir, "tables", "office_actions.parquet"))} o SEMI JOIN read_parquet(${sqlString(changed.lists.office_actions)}) l ON l.k = o.document_id`
      ]
    : []
  const sources = [...keys("applications"), ...keys("prosecution_events"), ...keys("claims"), ...actions]
  await conn.run(`CREATE OR REPLACE TEMP TABLE affected AS SELECT DISTINCT k FROM (${sources.length ? sources.join(" UNION ALL ") : "SELECT NULL::VARCHAR"}) s(k) WHERE k IS NOT NULL`)
  return Number((await conn.runAndReadAll(`SELECT count(*) FROM affected`)).getRows()[0][0])
}

/** Runs the facts SQL with the tables it reads narrowed to the affected applications (views of the same names first on the search path). */
const factsOfAffected = async (conn: DuckDBConnection) => {
  await conn.run(`CREATE SCHEMA _affected_apps`)
  try {
    for (const t of FACT_TABLES) await conn.run(`CREATE VIEW _affected_apps.${t} AS SELECT * FROM main.${t} WHERE app_num IN (SELECT k FROM temp.affected)`)
    await conn.run(`SET search_path = '_affected_apps,main'`)
    for (const sql of factsSql) await conn.run(sql)
  } finally {
    await conn.run(`SET search_path = 'main'`)
    await conn.run(`DROP SCHEMA _affected_apps CASCADE`)
  }
}

export const prosecutionStage: Stage = {
  name: "prosecution",
  sources: ["pipeline/prosecution", "core/prosecution"],
  dependsOn: ["ingest"],
  readsCorpusFile: () => false,
  run: (ctx) =>
    Effect.flatMap(tableDeltaLimit, (deltaLimit) =>
      stagePromise(async (): Promise<StageResult> => {
        const seconds = stopwatch()
        await fs.rm(path.join(ctx.workDir, "prosecution"), { recursive: true, force: true })
        await fs.mkdir(path.join(ctx.workDir, "prosecution"), { recursive: true })
        const out = (rel: string) => path.join(ctx.workDir, rel)
        // withTables spills into a folder of its own under the build's staging folder, removed after.
        const result = await withTables(ctx.workDir, async (conn) => {
          await conn.run(`SET preserve_insertion_order = false`)
          const notes: string[] = []
          const missing = await ensureInputTables(conn)
          if (missing.length) notes.push(`input tables absent, read as empty: ${missing.join(", ")}`)
          // A night under the same code computes the facts of the applications ingest merged again only.
          const earlier = ctx.previous && ctx.previous.record.codeVersion === ctx.codeVersion ? ctx.previous : undefined
          const earlierFiles = earlier && (await Promise.all(Object.values(applicationFactsOutputs).map((o) => fs.access(path.join(earlier.dir, o.file)).then(() => true, () => false)))).every(Boolean)
          const changed = earlierFiles && missing.length === 0 ? await changedSince(ctx.outputOf(ingestChanges), earlier!.dir, FACT_TABLES) : undefined
          const deltaFiles: string[] = []
          const linked: string[] = []
          if (changed) {
            const affected = await affectedApplications(conn, changed, earlier!.dir)
            await factsOfAffected(conn)
            for (const o of Object.values(applicationFactsOutputs)) {
              const written = await writeEntityTable(conn, ctx.workDir, {
                file: out(o.file),
                earlierFile: path.join(earlier!.dir, o.file),
                entity: "app_num",
                fresh: o.table,
                affected: "affected",
                limit: deltaLimit,
                orderBy: o.orderBy
              })
              deltaFiles.push(...written.deltaFiles)
              if (written.deltaFiles.length) linked.push(o.file)
            }
            notes.push(`facts of ${affected} applications computed again (ingest's change lists), the others' taken over from ${path.basename(earlier!.dir)}${linked.length ? ": deltas beside the earlier files" : ""}`)
          } else {
            for (const sql of factsSql) await conn.run(sql)
            const facts = applicationFactsOutputs.application_facts
            await conn.run(`COPY (SELECT * FROM ${facts.table} ORDER BY ${facts.orderBy}) TO ${sqlString(out(facts.file))} (FORMAT parquet, COMPRESSION zstd)`)
            const events = applicationFactsOutputs.application_events
            await conn.run(`COPY ${events.table} TO ${sqlString(out(events.file))} (FORMAT parquet, COMPRESSION zstd)`)
            notes.push("facts of every application computed")
          }
          await conn.run(asOfSql)
          // Every application's facts and events: a night's through the files just written (the
          // earlier base, less the replaced, plus the delta); a whole computation's still in memory.
          const all = async (o: (typeof applicationFactsOutputs)[keyof typeof applicationFactsOutputs]) => (changed ? await tableRelation(conn, out(o.file)) : o.table)
          await conn.run(appStatsSql(await all(applicationFactsOutputs.application_facts)))
          await conn.run(`CREATE OR REPLACE TEMP VIEW application_events AS SELECT * FROM ${await all(applicationFactsOutputs.application_events)}`)
          ctx.progress.info(`application facts computed (${seconds()})`)

          const cpcRows = await writeCpcRouting(conn, out(prosecutionOutputs.cpc_routing))
          ctx.progress.info(`cpc routing: ${cpcRows} symbols (${seconds()})`)
          const artUnitAggregates = new Map((await aggregateBy(conn, "art_unit")).map((a) => [a.key, a]))
          const auRows = await writeArtUnitProfiles(conn, out(prosecutionOutputs.art_unit_profiles), artUnitAggregates)
          ctx.progress.info(`art units: ${auRows} (${seconds()})`)
          // A night builds the heavy sections (lists of applications) again only for examiners whose applications changed.
          const earlierExaminers =
            changed && (await fs.access(path.join(earlier!.dir, examinerInputsFile)).then(() => true, () => false))
              ? {
                  statistics: path.join(earlier!.dir, prosecutionOutputs.examiner_statistics),
                  inputs: path.join(earlier!.dir, examinerInputsFile),
                  eventsChanged: changed.lists.prosecution_events ? `read_parquet(${sqlString(changed.lists.prosecution_events)})` : undefined
                }
              : undefined
          const ex = await writeExaminerStatistics(conn, out(prosecutionOutputs.examiner_statistics), artUnitAggregates, earlierExaminers)
          ctx.progress.info(`examiners: ${ex.rows} (${ex.withStatistics} with a PEDS history; ${seconds()})`)
          notes.push(`${ex.withStatistics} of ${ex.rows} examiners have applications with a PEDS history`)
          if (ex.heavyBuilt !== undefined)
            notes.push(`application lists and document codes of ${ex.heavyBuilt} examiners built again (their applications changed), the others' taken over from ${path.basename(earlier!.dir)}`)
          const [[factRows, eventRows, inputRows]] = (
            await conn.runAndReadAll(`SELECT (SELECT count(*) FROM app_stats)::INTEGER, (SELECT count(*) FROM application_events)::INTEGER, (SELECT count(*) FROM examiner_inputs)::INTEGER`)
          ).getRowsJS() as [number, number, number][]

          return {
            outputs: [...Object.values(prosecutionOutputs), examinerInputsFile, ...Object.values(applicationFactsOutputs).map((o) => o.file), ...deltaFiles],
            rowCounts: { cpc_routing: cpcRows, art_unit_profiles: auRows, examiner_statistics: ex.rows, examiner_inputs: inputRows, application_facts: factRows, application_events: eventRows },
            notes,
            linked
          }
        })
        return withLinkedOutputs(result, ctx.previous?.record)
      })
    )
}
