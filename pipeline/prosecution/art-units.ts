/**
 * prosecution/art_unit_profiles.parquet: one row per art unit seen on an application or in an
 * examiner's record.
 *
 * No official art-unit title list is in the corpus, so `title` is DERIVED from the CPC mix of
 * the art unit's applications (its commonest subclasses' scheme titles) and `title_source`
 * says so. `description` is generated from the same counts. `keywords` are the title words most
 * particular to the art unit (count × log(art units ÷ art units using the word)).
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { defaultPatentTokenizerSettings } from "../../core/text/tokenize.ts"
import type { Aggregates } from "./aggregates.ts"
import { emptyAggregates } from "./aggregates.ts"
import { buildSections } from "./sections.ts"
import { copyToParquet } from "../stages/tables.ts"
import { sqlString } from "../../core/artifacts/files.ts"


export const TITLE_SOURCE_DERIVED = "derived from CPC mix"
export const TITLE_SOURCE_NONE = "unavailable (no CPC data for this art unit)"

/** A scheme title as a short phrase: references in parentheses and braces dropped, sentence case, at most two clauses. */
export const shortCpcTitle = (title: string) => {
  const clean = title
    .replace(/\([^()]*\)/g, "")
    .replace(/[{}]/g, "")
    .replace(/\s+/g, " ")
    .trim()
  const clauses = clean.split(/\s*;\s*/).filter(Boolean).slice(0, 2).join("; ")
  const lower = clauses === clauses.toUpperCase() ? clauses.toLowerCase() : clauses
  return lower.charAt(0).toUpperCase() + lower.slice(1)
}

interface Subclass {
  subclass: string
  title: string | null
  count: number
  applications: number
}
interface CpcSummary {
  total: number
  applications_with_cpc: number
  by_section: Record<string, number>
  top_subclasses: Subclass[]
}

const cpcSummarySql = `
  WITH a AS (
    SELECT s.art_unit, c.app_num, upper(replace(c.symbol, ' ', '')) AS symbol, coalesce(c.subclass, substr(c.symbol, 1, 4)) AS subclass,
      coalesce(c.section, substr(c.symbol, 1, 1)) AS section
    FROM cpc_assignments c JOIN app_stats s USING (app_num) WHERE s.art_unit IS NOT NULL),
  sec AS (SELECT art_unit, section, count(*) AS n FROM a GROUP BY ALL),
  subn AS (SELECT art_unit, subclass, count(*) AS n, count(DISTINCT app_num) AS apps FROM a GROUP BY ALL),
  sub AS (SELECT *, row_number() OVER (PARTITION BY art_unit ORDER BY n DESC, subclass) AS r FROM subn),
  tot AS (SELECT art_unit, count(*) AS total, count(DISTINCT app_num) AS apps FROM a GROUP BY ALL)
  SELECT tot.art_unit,
    to_json(struct_pack(
      total := tot.total, applications_with_cpc := tot.apps,
      by_section := (SELECT map_from_entries(list((section, n) ORDER BY section)) FROM sec WHERE sec.art_unit = tot.art_unit),
      top_subclasses := (SELECT list(struct_pack(subclass := sub.subclass, title := sc.title, count := sub.n, applications := sub.apps) ORDER BY sub.r)
                         FROM sub LEFT JOIN cpc_scheme sc ON sc.symbol = sub.subclass WHERE sub.art_unit = tot.art_unit AND sub.r <= 25)
    ))::VARCHAR AS cpc_codes
  FROM tot`

/** Words in nearly every title whatever the technology: no help in telling art units apart. */
const genericTitleWords = ["method", "methods", "system", "systems", "apparatus", "apparatuses", "device", "devices", "using", "based", "use", "same", "process", "arrangement", "assembly", "thereof", "product", "non-transitory", "computer-readable", "medium", "media", "program"]

const keywordsSql = (stop: ReadonlyArray<string>) => `
  WITH w AS (
    SELECT art_unit, unnest(regexp_extract_all(lower(title), '[a-z][a-z0-9-]{2,}')) AS word
    FROM app_stats WHERE art_unit IS NOT NULL AND title IS NOT NULL),
  f AS (SELECT art_unit, word, count(*) AS tf FROM w WHERE word NOT IN (${stop.map(sqlString).join(", ")}) GROUP BY ALL),
  df AS (SELECT word, count(*) AS df FROM f GROUP BY word),
  n AS (SELECT count(DISTINCT art_unit) AS units FROM f),
  scored AS (
    SELECT f.art_unit, f.word, f.tf * ln(1 + n.units / df.df) AS score FROM f JOIN df USING (word), n WHERE f.tf >= 2)
  SELECT art_unit, to_json(list(word ORDER BY score DESC, word)[1:15])::VARCHAR AS keywords FROM scored GROUP BY art_unit`

const rosterSql = `
  WITH r AS (
    SELECT s.art_unit, s.examiner_id, any_value(x.full_name) AS full_name, count(*) AS apps,
      count(*) FILTER (WHERE s.n_events > 0) AS analysed, any_value(x.art_unit) = s.art_unit AS primary_au
    FROM app_stats s JOIN examiners x USING (examiner_id) WHERE s.art_unit IS NOT NULL GROUP BY s.art_unit, s.examiner_id)
  SELECT art_unit, count(*) FILTER (WHERE analysed > 0) AS in_statistics, count(*) AS examiner_count,
    to_json(list(struct_pack(examiner_id := examiner_id, full_name := full_name, applications := apps, analysed := analysed,
      primary_art_unit := primary_au) ORDER BY apps DESC, examiner_id))::VARCHAR AS roster
  FROM r GROUP BY art_unit`

const mapBy = async <T>(conn: DuckDBConnection, sql: string, key: string, value: (r: Record<string, unknown>) => T) => {
  const rows = (await conn.runAndReadAll(sql)).getRowObjectsJS() as Array<Record<string, unknown>>
  return new Map(rows.map((r) => [String(r[key]), value(r)]))
}

const describeArtUnit = (au: string, tc: string | null, title: string | null, cpc: CpcSummary | undefined, a: Aggregates, examiners: number) => {
  const parts = [`Art unit ${au}${tc ? ` (Technology Center ${tc})` : ""}.`]
  const apps = Number(a.n_all ?? 0)
  const years = a.first_filing_year !== null && a.last_filing_year !== null ? `, filed ${a.first_filing_year}–${a.last_filing_year}` : ""
  parts.push(`This corpus holds ${apps} application(s) examined here${years}, by ${examiners} examiner(s); ${Number(a.n_analysed ?? 0)} have a PEDS transaction history.`)
  if (cpc && cpc.top_subclasses.length) {
    const top = cpc.top_subclasses.slice(0, 3).map((s) => `${s.subclass}${s.title ? ` (${shortCpcTitle(s.title)})` : ""}`)
    parts.push(`Its CPC mix is led by ${top.join(", ")}, out of ${cpc.total} CPC assignments on ${cpc.applications_with_cpc} applications.`)
  }
  if (title) parts.push(`The title "${title}" is derived from that CPC mix: no official art-unit title list was available.`)
  else parts.push("No title is given: no official art-unit title list was available and no application of this art unit carries CPC data.")
  return parts.join(" ")
}

export const writeArtUnitProfiles = async (conn: DuckDBConnection, file: string, aggregates: ReadonlyMap<string, Aggregates>) => {
  const [[asOf]] = (await conn.runAndReadAll(`SELECT as_of::VARCHAR FROM as_of`)).getRowsJS() as [[string | null]]
  const units = (
    (await conn.runAndReadAll(`
      SELECT DISTINCT au FROM (
        SELECT art_unit AS au FROM app_stats WHERE art_unit IS NOT NULL
        UNION SELECT unnest(art_units) FROM examiners
        UNION SELECT art_unit FROM examiners WHERE art_unit IS NOT NULL)
      WHERE au IS NOT NULL AND regexp_matches(au, '^\\d{3,4}$') ORDER BY au`)).getRowsJS() as string[][]
  ).map((r) => r[0])
  const tcs = await mapBy(conn, `SELECT art_unit, mode(technology_center) AS tc FROM app_stats WHERE art_unit IS NOT NULL GROUP BY 1`, "art_unit", (r) => r.tc as string | null)
  const cpc = await mapBy(conn, cpcSummarySql, "art_unit", (r) => JSON.parse(String(r.cpc_codes)) as CpcSummary)
  const keywords = await mapBy(conn, keywordsSql([...defaultPatentTokenizerSettings.stopWords, ...genericTitleWords]), "art_unit", (r) => String(r.keywords))
  const rosters = await mapBy(conn, rosterSql, "art_unit", (r) => ({
    roster: String(r.roster),
    count: Number(r.examiner_count),
    inStatistics: Number(r.in_statistics)
  }))

  await conn.run(`CREATE OR REPLACE TABLE art_unit_rows (art_unit VARCHAR, technology_center VARCHAR, title VARCHAR, title_source VARCHAR,
    description VARCHAR, keywords VARCHAR, cpc_codes VARCHAR, examiners VARCHAR, examiner_count INTEGER, statistics VARCHAR)`)
  const ap = await conn.createAppender("art_unit_rows")
  const str = (v: string | null | undefined) => (v === null || v === undefined ? ap.appendNull() : ap.appendVarchar(v))
  for (const au of units) {
    const a = aggregates.get(au) ?? emptyAggregates(au, asOf)
    const summary = cpc.get(au)
    const tc = tcs.get(au) ?? (au.length === 4 ? `${au.slice(0, 2)}00` : null)
    const subs = summary?.top_subclasses ?? []
    let title: string | null = null
    if (subs.length && subs[0].title) {
      title = shortCpcTitle(subs[0].title)
      const second = subs[1]
      if (second?.title && second.count >= 0.2 * subs[0].count) title += ` / ${shortCpcTitle(second.title).split(";")[0]}`
    }
    const roster = rosters.get(au)
    const s = buildSections(a)
    const analysed = Number(a.n_analysed ?? 0)
    const statistics =
      analysed > 0
        ? {
            allowance: s.portfolio,
            rejections: s.rejection_analytics,
            timing: s.timeline_metrics,
            interviews: s.interview_metrics,
            rce: s.rcex_metrics,
            behavior: s.behavioral_patterns,
            estimated_cost: s.estimated_cost,
            claims_analysis: s.claims_analysis,
            examiner_count_in_statistics: roster?.inStatistics ?? 0,
            data_quality: s.data_quality
          }
        : null
    str(au)
    str(tc)
    str(title)
    str(title ? TITLE_SOURCE_DERIVED : TITLE_SOURCE_NONE)
    str(describeArtUnit(au, tc, title, summary, a, roster?.count ?? 0))
    str(keywords.get(au) ?? "[]")
    str(JSON.stringify(summary ?? { total: 0, applications_with_cpc: 0, by_section: {}, top_subclasses: [] }))
    str(roster?.roster ?? "[]")
    ap.appendInteger(roster?.count ?? 0)
    str(statistics ? JSON.stringify(statistics) : null)
    ap.endRow()
  }
  ap.flushSync()
  ap.closeSync()
  return copyToParquet(conn, `SELECT * FROM art_unit_rows ORDER BY art_unit`, file)
}
