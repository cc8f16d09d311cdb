/**
 * The prosecution stage on the real sample PEDS files: the two PEDS dialects and the
 * office-action texts go through the real readers and the ingest merge into the published
 * tables, the stage runs on them, and real examiners' figures are checked against counts done
 * here directly from the raw JSON transactions (no code shared with the stage).
 */
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { gunzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readerTables } from "../../core/artifacts/tables.ts"
import type { CorpusFile, CorpusReader } from "../../core/corpus/reader.ts"
import { publishedTables } from "../../pipeline/ingest/published-tables.ts"
import { officeActionReader } from "../../pipeline/ingest/readers/office-actions.ts"
import { pedsSearchReader } from "../../pipeline/ingest/readers/peds-search.ts"
import { pedsSt96Reader } from "../../pipeline/ingest/readers/peds-st96.ts"
import { rowProblem, Staging } from "../../pipeline/ingest/staging.ts"
import { prosecutionStage } from "../../pipeline/prosecution/stage.ts"
import { silentProgress } from "../../pipeline/stages/progress.ts"
import { json, readParquet } from "./fixture.ts"

const sample = path.resolve("pipeline/sample-corpus")
const ST96 = "peds/uva-seed-set-examinations.json.gz"
const SEARCH = "peds/patent-client-peds-apps.json.gz"
const OFFICE_ACTIONS = "peds/uva-seed-set-office-actions.json.gz"

const corpusFile = (rel: string): CorpusFile => ({
  path: rel,
  open: async function* () {
    yield gunzipSync(await fs.readFile(path.join(sample, rel)))
  }
})

// ---------------------------------------------------------------------------------------------
// Independent count from the raw JSON, following the written definitions (facts.sql.ts):
// allowed = a notice of allowance (N/=.) not withdrawn later (W/N=, WFIS), or failing any
// disposition event a status saying patented; abandoned = an ABNn other than ABN9 not rescinded
// later (NRAB, PREV, WPABN, WABN), or failing events a status saying abandoned.
// ---------------------------------------------------------------------------------------------
interface RawApp {
  examiner: string | null
  status: string | null
  events: Array<{ date: string; code: string }>
}
const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "")
const day = (d: unknown) => String(d ?? "").slice(0, 10)

const rawApps = async () => {
  const apps = new Map<string, RawApp>()
  const st96 = JSON.parse(gunzipSync(await fs.readFile(path.join(sample, ST96))).toString("utf8")) as any[]
  for (const r of st96) {
    const m = r.patentCaseMetadata
    const num = String(m.applicationNumberText?.value ?? "")
    const names: string[] = []
    for (const bag of m.partyBag?.applicantBagOrInventorBagOrOwnerBag ?? [])
      for (const p of [bag.primaryExaminerOrAssistantExaminerOrAuthorizedOfficer ?? []].flat())
        for (const n of p?.name?.personNameOrOrganizationNameOrEntityName ?? []) if (n.personFullName) names.push(n.personFullName)
    const events = (r.prosecutionHistoryDataBag?.prosecutionHistoryData ?? []).map((e: any) => ({ date: day(e.eventDate), code: String(e.eventCode ?? "").trim() }))
    apps.set(num, { examiner: names[0] ?? null, status: m.applicationStatusCategory ?? null, events })
  }
  const search = JSON.parse(gunzipSync(await fs.readFile(path.join(sample, SEARCH))).toString("utf8")) as any[]
  for (const r of search) {
    const num = String(r.applId ?? "")
    if (!/^\d+$/.test(num)) continue
    const events = (r.transactions ?? []).map((t: any) => ({ date: day(t.recordDate), code: String(t.code ?? "").trim() }))
    const known = apps.get(num)
    // PEDS ST96 is the better source for the history, the examiner and the status; the search API fills gaps.
    if (known) apps.set(num, { examiner: known.examiner ?? r.appExamName ?? null, status: known.status ?? r.appStatus ?? null, events: known.events.length ? known.events : events })
    else apps.set(num, { examiner: r.appExamName ?? null, status: r.appStatus ?? null, events })
  }
  return apps
}

const lastDate = (events: RawApp["events"], test: (code: string) => boolean) =>
  events.filter((e) => test(e.code)).reduce<string | null>((m, e) => (m === null || e.date > m ? e.date : m), null)

const disposition = (a: RawApp): "allowed" | "abandoned" | "pending" => {
  const allow = lastDate(a.events, (c) => c === "N/=.")
  const withdrawn = lastDate(a.events, (c) => c === "W/N=" || c === "WFIS")
  if (allow && (!withdrawn || allow > withdrawn)) return "allowed"
  const abn = lastDate(a.events, (c) => /^ABN(\d+|X|F)?$/.test(c) && c !== "ABN9")
  const resc = lastDate(a.events, (c) => ["NRAB", "PREV", "WPABN", "WABN"].includes(c))
  if (abn && (!resc || resc < abn)) return "abandoned"
  if (/^patent/i.test(a.status ?? "")) return "allowed"
  if (/abandon/i.test(a.status ?? "")) return "abandoned"
  return "pending"
}

interface Count {
  analysed: number
  allowed: number
  abandoned: number
  rceApps: number
  interviewApps: number
}
const MERITS = new Set(["CTNF", "CTFR", "CTEQ", "FAIA", "N/=."])
const INTERVIEWS = new Set(["EXIN", "EXAT", "EXIA", "EXET", "EXIE", "EXAC", "EXAP", "EXEC"])

/** Examiners ranked by analysed applications, without PEDS's "CENTRAL, DOCKET" placeholder. */
const busiestExaminers = (n: number) =>
  [...expected.entries()].filter(([id]) => id !== "central-docket").sort((a, b) => b[1].analysed - a[1].analysed).slice(0, n)

const countByExaminer = (apps: Map<string, RawApp>) => {
  const out = new Map<string, Count>()
  for (const a of apps.values()) {
    if (!a.examiner || a.events.length === 0) continue
    const id = slug(a.examiner)
    const c = out.get(id) ?? { analysed: 0, allowed: 0, abandoned: 0, rceApps: 0, interviewApps: 0 }
    c.analysed++
    const d = disposition(a)
    if (d === "allowed") c.allowed++
    if (d === "abandoned") c.abandoned++
    const examined = a.events.some((e) => MERITS.has(e.code))
    if (examined && a.events.some((e) => e.code === "RCEX")) c.rceApps++
    if (a.events.some((e) => INTERVIEWS.has(e.code))) c.interviewApps++
    out.set(id, c)
  }
  return out
}

// ---------------------------------------------------------------------------------------------

let dir: string
let examiners: Map<string, Record<string, any>>
let expected: Map<string, Count>

const ingest = async (staging: Staging, reader: CorpusReader, rel: string, doc: number) => {
  for await (const ev of reader(corpusFile(rel))) {
    if (ev.kind !== "row") continue
    if (rowProblem(readerTables[ev.table], ev.row as Record<string, unknown>)) continue
    await staging.append(ev.table, ev.row as Record<string, unknown>, rel, doc)
  }
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "prosecution-peds-"))
  await fs.mkdir(path.join(dir, "tables"))
  const staging = await Staging.open(path.join(dir, "staging.duckdb"))
  try {
    await ingest(staging, pedsSt96Reader, ST96, 0)
    await ingest(staging, pedsSearchReader, SEARCH, 1)
    await ingest(staging, officeActionReader, OFFICE_ACTIONS, 2)
    staging.flush()
    for (const t of publishedTables) {
      await staging.conn.run(`COPY (${t.select}) TO '${path.join(dir, "tables", `${t.name}.parquet`)}' (FORMAT parquet)`)
    }
  } finally {
    staging.close()
  }
  await Effect.runPromise(
    prosecutionStage.run({ workDir: dir, corpusFiles: [], openCorpusFile: () => { throw new Error("no corpus") }, outputOf: () => "", progress: silentProgress })
  )
  examiners = new Map((await readParquet(path.join(dir, "prosecution/examiner_statistics.parquet"))).map((r) => [r.examiner_id, r]))
  expected = countByExaminer(await rawApps())
}, 240_000)

afterAll(async () => {
  if (dir && !process.env.KEEP) await fs.rm(dir, { recursive: true, force: true })
})

describe("prosecution statistics on the sample PEDS corpus", () => {
  it("computes every examiner's allowed and abandoned counts as counted from the raw transactions", () => {
    const busiest = busiestExaminers(5)
    expect(busiest[0][1].analysed).toBeGreaterThan(30)
    for (const [id, c] of busiest) {
      const row = examiners.get(id)
      expect(row, id).toBeDefined()
      const p = json(row!.portfolio)
      expect({ id, analysed: p.analysed, allowed: p.allowed, abandoned: p.abandoned }).toEqual({ id, analysed: c.analysed, allowed: c.allowed, abandoned: c.abandoned })
      expect(p.allowance_rate.denominator).toBe(c.allowed + c.abandoned)
      expect(p.allowance_rate.value).toBeCloseTo(c.allowed / (c.allowed + c.abandoned), 4)
      expect(p.allowance_rate.ci95.low).toBeLessThanOrEqual(p.allowance_rate.value)
      expect(p.allowance_rate.ci95.high).toBeGreaterThanOrEqual(p.allowance_rate.value)
    }
  })

  it("agrees with the raw count for the whole corpus, examiner by examiner", () => {
    let mismatches: string[] = []
    let allowed = 0
    for (const [id, c] of expected) {
      const row = examiners.get(id)
      if (!row) {
        mismatches.push(`${id}: missing`)
        continue
      }
      const p = json(row.portfolio)
      allowed += p.allowed
      if (p.allowed !== c.allowed || p.abandoned !== c.abandoned || p.analysed !== c.analysed) mismatches.push(`${id}: ${JSON.stringify({ p: [p.analysed, p.allowed, p.abandoned], raw: c })}`)
    }
    expect(mismatches).toEqual([])
    expect(allowed).toBeGreaterThan(1000)
  })

  it("counts RCE and interview applications as the raw transactions do", () => {
    const busiest = busiestExaminers(5)
    for (const [id, c] of busiest) {
      const row = examiners.get(id)!
      expect({ id, rce: json(row.rcex_metrics).rce_rate.numerator }).toEqual({ id, rce: c.rceApps })
      expect({ id, interviews: json(row.interview_metrics).interview_rate.numerator }).toEqual({ id, interviews: c.interviewApps })
    }
  })

  it("flags PEDS's undocketed placeholder instead of ranking it as an examiner", () => {
    const row = examiners.get("central-docket")!
    const dq = json(row.data_quality)
    expect(dq.placeholder_name).toBe(true)
    expect(dq.notes[0]).toMatch(/not an examiner/)
    expect(row.percentile_rankings).toBeNull()
  })

  it("serves every section with its data quality and never an unlisted null figure", () => {
    const busiest = busiestExaminers(1)[0][0]
    const row = examiners.get(busiest)!
    const dq = json(row.data_quality)
    expect(Object.keys(dq.populations)).toEqual(["all_applications", "analysed", "with_documents", "with_office_actions", "with_filing_date"])
    expect(["moderate", "high"]).toContain(dq.volume.tier)
    const t = json(row.timeline_metrics)
    expect(t.months_to_first_action === null ? dq.withheld.map((w: any) => w.field) : [t.months_to_first_action.median_months > 0]).toEqual(
      t.months_to_first_action === null ? expect.arrayContaining(["timeline_metrics.months_to_first_action"]) : [true]
    )
    const ranks = json(row.percentile_rankings)
    expect(ranks.allowance_rate.percentile).toBeGreaterThanOrEqual(0)
    expect(ranks.allowance_rate.percentile).toBeLessThanOrEqual(100)
    for (const heavy of ["rejection_analysis", "applications_with_interviews", "applications_with_rcex", "document_code_breakdown", "by_sequence_length", "behavioral_patterns"]) {
      expect(row[heavy], heavy).not.toBeNull()
    }
  })
})
