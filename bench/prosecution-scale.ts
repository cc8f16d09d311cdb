/**
 * Prosecution-statistics stage at scale: synthetic published tables for N applications (default
 * 1,000,000; ~6 PEDS events each, 8,000 examiners in 400 art units, realistic rates) are generated
 * in DuckDB, then the real stage runs on them. Prints the stage time and peak memory; writes
 * bench/results/prosecution-scale.json. The sample corpus's time is in the manifest
 * (bench/reference-routes.ts prints it).
 *
 *   node --import tsx bench/prosecution-scale.ts [--n 1000000]
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { parseArgs } from "node:util"
import { prosecutionStage } from "../pipeline/prosecution/stage.ts"
import { silentProgress } from "../pipeline/stages/progress.ts"
import { printTable, writeResult } from "./report.ts"

const { values } = parseArgs({ options: { n: { type: "string", default: "1000000" } } })
const N = Number(values.n)
const dir = await fs.mkdtemp(path.join(os.tmpdir(), "bench-prosecution-"))
const tables = path.join(dir, "tables")
await fs.mkdir(tables)

const t0 = performance.now()
{
  const conn = await (await DuckDBInstance.create(":memory:")).connect()
  const out = (name: string) => `'${path.join(tables, `${name}.parquet`)}'`
  // Deterministic pseudo-randomness from the row number (hash), so runs are comparable.
  await conn.run(`
    CREATE TABLE apps AS
    SELECT lpad(CAST(13000000 + i AS VARCHAR), 8, '0') AS app_num,
      CAST(1600 + (hash(i, 'au') % 400) AS VARCHAR) AS art_unit,
      hash(i, 'ex') % 8000 AS ex,
      DATE '2012-01-01' + CAST(hash(i, 'fd') % 3000 AS INTEGER) AS filing_date,
      (hash(i, 'outcome') % 100) AS outcome, (hash(i, 'rce') % 100) AS rce, (hash(i, 'int') % 100) AS interview
    FROM range(${N}) t(i)`)
  await conn.run(`COPY (
    SELECT app_num, art_unit, substr(art_unit, 1, 2) || '00' AS technology_center,
      'EXAMINER' || ex || ', PAT' AS examiner,
      CASE WHEN outcome < 60 THEN 'Patented Case' WHEN outcome < 85 THEN 'Abandoned' ELSE 'Docketed New Case' END AS status,
      filing_date + 900 AS status_date, filing_date, 'utility' AS doc_type, 'Synthetic application ' || app_num AS title
    FROM apps) TO ${out("applications")} (FORMAT parquet)`)
  await conn.run(`COPY (
    SELECT 'examiner' || ex || '-pat' AS examiner_id, 'EXAMINER' || ex || ', PAT' AS full_name, 'EXAMINER' || ex AS surname,
      CAST(1600 + ex % 400 AS VARCHAR) AS art_unit, [CAST(1600 + ex % 400 AS VARCHAR)] AS art_units, NULL::VARCHAR AS employee_number,
      count(*)::BIGINT AS application_count
    FROM apps GROUP BY ex) TO ${out("examiners")} (FORMAT parquet)`)
  // Histories: first action ~17 months after filing, RCE and interview for some, then allowance or abandonment.
  await conn.run(`COPY (
    WITH steps AS (
      SELECT app_num, filing_date, 0 AS k, 'CTNF' AS code, 'Non-Final Rejection' AS description, 520 AS day FROM apps
      UNION ALL SELECT app_num, filing_date, 1, 'CTFR', 'Final Rejection', 700 FROM apps WHERE outcome % 3 = 0
      UNION ALL SELECT app_num, filing_date, 2, 'EXIN', 'Interview Summary', 740 FROM apps WHERE interview < 25
      UNION ALL SELECT app_num, filing_date, 3, 'RCEX', 'Request for Continued Examination (RCE)', 760 FROM apps WHERE rce < 28
      UNION ALL SELECT app_num, filing_date, 4, 'N/=.', 'Notice of Allowance Data Verification Completed', 880 FROM apps WHERE outcome < 60
      UNION ALL SELECT app_num, filing_date, 5, 'ABN2', 'Abandonment for Failure to Respond to Office Action', 900 FROM apps WHERE outcome >= 60 AND outcome < 85)
    SELECT app_num, CAST(k AS INTEGER) AS seq, filing_date + day AS event_date, code, description, 'peds-search' AS source FROM steps
    ) TO ${out("prosecution_events")} (FORMAT parquet)`)
}
const generateSeconds = (performance.now() - t0) / 1000

const t1 = performance.now()
const result = await Effect.runPromise(
  prosecutionStage.run({
    workDir: dir,
    corpusFiles: [],
    openCorpusFile: () => {
      throw new Error("the prosecution stage reads no corpus files")
    },
    outputOf: (o) => path.join(dir, o.path),
    progress: silentProgress
  }) as Effect.Effect<{ rowCounts: Record<string, number> }, unknown>
)
const stageSeconds = (performance.now() - t1) / 1000
const peakRssMiB = process.resourceUsage().maxRSS / 1024
await fs.rm(dir, { recursive: true, force: true })

const row = { applications: N, generateSeconds, stageSeconds, peakRssMiB, examiners: result.rowCounts.examiner_statistics, artUnits: result.rowCounts.art_unit_profiles }
printTable("Prosecution statistics stage on synthetic tables", [row], [
  ["applications", (r) => r.applications.toLocaleString("en-US")],
  ["generate s", (r) => r.generateSeconds.toFixed(1)],
  ["stage s", (r) => r.stageSeconds.toFixed(1)],
  ["peak RSS MiB", (r) => r.peakRssMiB.toFixed(0)],
  ["examiners", (r) => String(r.examiners ?? "")],
  ["art units", (r) => String(r.artUnits ?? "")]
])
await writeResult("prosecution-scale", { machine: { cpus: os.cpus().length, node: process.version }, ...row })
