/**
 * Scale benchmark (issue 16): every route's latency at two corpus sizes, side by side in one run.
 *
 * For each size N (default 100,000 and 1,000,000 synthetic applications) the version under
 * `<root>/synth-N/artifacts/current` is brought up to date the way `make serve` does it (the
 * pipeline runs over `<root>/synth-N/corpus`, synthesised first when missing, and reuses every
 * finished stage), then served as operators run it (api/serve.ts with its supervised hub, a child
 * process: bench/serve-process.ts). After a warm-up (models and reranker loaded, every route
 * called a few times), each of the 24 routes is called `--requests` times in sequence, some in
 * two or three variants (prior-art plain/hybrid/rerank, claims lookup of 5 and of 25 numbers,
 * locate by text and by application). Every request's inputs are drawn from that version's own
 * tables (real application numbers, claim texts, examiner ids, CPC symbols, guidance ids, …) and
 * differ from request to request, so result caches do not answer them. Only 2xx answers that
 * carry a real result count; anything else is counted as a failure and reported, never timed.
 *
 * Printed: p50/p99 per route at each size, the growth of p50 from the next-to-largest to the
 * largest size, the issue's target beside each figure and whether it is met (targets are for
 * 1,000,000 applications on the 2-core machine), and the resident memory of the API and of the
 * hub after each size's run. bench/results/scale.json records it all.
 *
 *   node --import tsx bench/scale.ts [--sizes 100000,1000000] [--requests 100] [--warm 3]
 *        [--root .tmp/bench-retrieval] [--sample [DIR]] [--no-build] [--seed 1] [--no-write]
 *
 * --no-build: use the versions as they are, and skip a size whose version is missing.
 * --only TEXT: measure only the routes whose name contains TEXT (comma-separated alternatives);
 *   for before/after comparisons of a few routes. Implies --no-write.
 * --sample: also measure the sample build (artifacts/current, or DIR) as a further column.
 * SCALE_DEBUG=1 prints the first answer of every route.
 */
import { spawn } from "node:child_process"
import { DuckDBInstance } from "@duckdb/node-api"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { parseArgs } from "node:util"
import { type Column, printTable, writeResult } from "./report.ts"
import { HUB_BUNDLE } from "../api/hub/bundle.ts"
import { serveForBench } from "./serve-process.ts"

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "100000,1000000" },
    requests: { type: "string", default: "100" },
    warm: { type: "string", default: "3" },
    root: { type: "string", default: ".tmp/bench-retrieval" },
    sample: { type: "string" },
    "no-build": { type: "boolean", default: false },
    seed: { type: "string", default: "1" },
    "no-write": { type: "boolean", default: false },
    only: { type: "string" }
  },
  // `--sample` alone means the sample build at artifacts/current.
  args: process.argv.slice(2).flatMap((a, i, all) => (a === "--sample" && (all[i + 1] === undefined || all[i + 1]!.startsWith("--")) ? [a, "artifacts/current"] : [a]))
})
const REQUESTS = Number(values.requests)
const WARM = Number(values.warm)
const SEED = Number(values.seed)
const ROOT = path.resolve(values.root!)
const SIZES = values.sizes!.split(",").filter(Boolean).map(Number)
if (!SIZES.every((n) => Number.isInteger(n) && n > 0) || !(REQUESTS > 0) || !(WARM >= 0)) {
  process.stderr.write("usage: bench/scale.ts [--sizes 100000,1000000] [--requests 100] [--warm 3] [--root DIR] [--sample [DIR]] [--no-build]\n")
  process.exit(2)
}
const log = (line: string) => process.stdout.write(`${line}\n`)

// ---------------------------------------------------------------------------------------------
// Versions
// ---------------------------------------------------------------------------------------------

const runNode = (args: ReadonlyArray<string>) =>
  new Promise<void>((resolve, reject) => {
    const p = spawn(process.execPath, ["--max-old-space-size=8192", "--import", "tsx", ...args], { stdio: ["ignore", "inherit", "inherit"] })
    p.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(" ")} exited ${code}`))))
  })

/** Processes other than this one whose command line names `dir` (a build of that version already running). */
const processesUsing = (dir: string) =>
  fs
    .readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid)
    .flatMap((p) => {
      try {
        const cmd = fs.readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0")
        const names = cmd.some((a) => a === dir || a.startsWith(`${dir}/`) || path.resolve(a) === dir || path.resolve(a).startsWith(`${dir}/`))
        return names && cmd.some((a) => a.includes("pipeline/")) ? [`${p} ${cmd.join(" ").slice(0, 160)}`] : []
      } catch {
        return []
      }
    })

const manifestOf = (versionDir: string) => path.join(versionDir, "manifest.json")

/**
 * The version to serve for n synthetic applications: built (or brought up to date, which reuses
 * every finished stage) unless --no-build; undefined when --no-build and there is none. A build
 * of the same directories already running in another process is waited for, never doubled.
 */
const versionFor = async (n: number): Promise<string | undefined> => {
  const dir = path.join(ROOT, `synth-${n}`)
  const corpus = path.join(dir, "corpus")
  const artifacts = path.join(dir, "artifacts")
  const current = path.join(artifacts, "current")
  for (let waited = 0; !values["no-build"]; waited++) {
    const others = processesUsing(dir)
    if (others.length === 0) break
    if (waited % 20 === 0) log(`synth-${n}: another process is building it, waiting:\n  ${others.join("\n  ")}`)
    await new Promise((r) => setTimeout(r, 30_000))
  }
  if (!values["no-build"]) {
    if (!fs.existsSync(path.join(corpus, "uspto"))) {
      log(`synth-${n}: synthesising the corpus`)
      await runNode(["pipeline/synth/main.ts", "--n", String(n), "--out", corpus, "--seed", "42"])
    }
    log(`synth-${n}: building (or confirming) the artifacts`)
    await runNode(["pipeline/main.ts", "--corpus", corpus, "--artifacts", artifacts])
  }
  return fs.existsSync(manifestOf(current)) ? fs.realpathSync(current) : undefined
}

// ---------------------------------------------------------------------------------------------
// Inputs, drawn from the version's own tables
// ---------------------------------------------------------------------------------------------

interface Inputs {
  readonly documents: number
  /** Applications with a stored vector (map coordinates), for neighbourhoods and locate by application. */
  readonly indexedApps: ReadonlyArray<string>
  readonly citingApps: ReadonlyArray<string>
  /** Applications with claims on file (7-8 digits), their claims and specification sections. */
  readonly claimApps: ReadonlyArray<{
    readonly appNum: string
    readonly abstract: string | null
    readonly claims: ReadonlyArray<{ number: number; text: string }>
    readonly sections: ReadonlyArray<{ name: string; text: string }>
  }>
  readonly allClaimAppNums: ReadonlyArray<string>
  readonly locateTexts: ReadonlyArray<string>
  readonly classificationNumbers: ReadonlyArray<string>
  readonly cpcCodes: ReadonlyArray<string>
  readonly artUnits: ReadonlyArray<string>
  readonly examinerIds: ReadonlyArray<string>
  readonly examinerQueries: ReadonlyArray<Record<string, string>>
  readonly mpep: ReadonlyArray<string>
  readonly epo: ReadonlyArray<string>
  readonly formParagraphs: ReadonlyArray<string>
  readonly formParagraphQueries: ReadonlyArray<Record<string, string>>
  readonly graphNodes: ReadonlyArray<string>
  readonly designCodes: ReadonlyArray<string>
}

const drawInputs = async (versionDir: string, perRoute: number): Promise<Inputs> => {
  const db = await DuckDBInstance.create(":memory:")
  const c = await db.connect()
  const file = (rel: string) => path.join(versionDir, `${rel}.parquet`)
  const has = (rel: string) => fs.existsSync(file(rel))
  const t = (rel: string) => `read_parquet('${file(rel).replaceAll("'", "''")}')`
  const rows = async (sql: string) => (await c.runAndReadAll(sql)).getRowObjectsJS() as Array<Record<string, unknown>>
  const column = async (sql: string) => (await rows(sql)).map((r) => String(Object.values(r)[0]))
  /** A deterministic pseudo-random order for this run's seed. */
  const shuffled = (col: string) => `ORDER BY hash(${col} || '${SEED}')`
  const k = perRoute

  const [{ documents }] = await rows(`SELECT count(*) AS documents FROM ${t("tables/applications")}`)
  const indexedSource = has("map/coordinates") ? "map/coordinates" : has("index/vectors") ? "index/vectors" : "tables/applications"
  const indexedApps = await column(`SELECT app_num FROM ${t(indexedSource)} ${shuffled("app_num")} LIMIT ${2 * k}`)
  const citingApps = await column(`SELECT DISTINCT citing_app FROM ${t("tables/citations")} WHERE citing_app IS NOT NULL ${shuffled("citing_app")} LIMIT ${k}`)

  // Applications with claims: prior-art queries (three modes and locate need distinct texts),
  // antecedent and support checks (the text routes and the warehouse routes).
  const allClaimAppNums = await column(`SELECT DISTINCT app_num FROM ${t("tables/claims")} WHERE length(app_num) BETWEEN 7 AND 8 ${shuffled("app_num")} LIMIT ${8 * k}`)
  const chosen = allClaimAppNums.slice(0, 6 * k)
  const list = chosen.map((a) => `'${a}'`).join(",") || "NULL"
  const claimRows = await rows(`SELECT app_num, claim_num, text FROM ${t("tables/claims")} WHERE app_num IN (${list}) AND length(text) >= 10 ORDER BY app_num, claim_num`)
  const paraRows = has("tables/description_paragraphs")
    ? await rows(`SELECT app_num, seq, heading, text FROM ${t("tables/description_paragraphs")} WHERE app_num IN (${list}) ORDER BY app_num, seq`)
    : []
  const abstracts = new Map(
    (await rows(`SELECT app_num, abstract FROM ${t("tables/applications")} WHERE app_num IN (${list})`)).map((r) => [String(r.app_num), r.abstract as string | null])
  )
  const claimsOf = new Map<string, Array<{ number: number; text: string }>>()
  for (const r of claimRows) {
    const a = String(r.app_num)
    if (!claimsOf.has(a)) claimsOf.set(a, [])
    const list = claimsOf.get(a)!
    if (list.length < 300) list.push({ number: Number(r.claim_num), text: String(r.text) })
  }
  const sectionsOf = new Map<string, Array<{ name: string; text: string }>>()
  for (const r of paraRows) {
    const a = String(r.app_num)
    if (!sectionsOf.has(a)) sectionsOf.set(a, [])
    const list = sectionsOf.get(a)!
    const name = (r.heading as string | null) || "Description"
    const last = list[list.length - 1]
    if (last && last.name === name) last.text = `${last.text}\n${String(r.text)}`.slice(0, 50_000)
    else if (list.length < 60) list.push({ name, text: String(r.text) })
  }
  const claimApps = chosen
    .filter((a) => claimsOf.has(a))
    .map((a) => ({ appNum: a, abstract: abstracts.get(a) ?? null, claims: claimsOf.get(a)!, sections: sectionsOf.get(a) ?? [] }))

  const locateTexts = (
    await column(`SELECT abstract FROM ${t("tables/applications")} WHERE length(abstract) >= 40 ${shuffled("app_num")} LIMIT ${k}`)
  ).map((a) => a.slice(0, 400))

  // Classification: publication numbers and application numbers of classified applications.
  const classified = await rows(
    `WITH a AS (SELECT DISTINCT app_num FROM ${t("tables/cpc_assignments")} ${shuffled("app_num")} LIMIT ${k})
     SELECT a.app_num, any_value(p.pub_num) AS pub_num FROM a LEFT JOIN ${t("tables/publications")} p USING (app_num) GROUP BY a.app_num ${shuffled("a.app_num")}`
  )
  const classificationNumbers = classified.map((r, i) => (i % 2 === 0 && r.pub_num && /^\d{7,12}$/.test(String(r.pub_num)) ? String(r.pub_num) : String(r.app_num)))

  const cpcCodes = await column(`SELECT symbol FROM ${t("prosecution/cpc_routing")} ${shuffled("symbol")} LIMIT ${k}`)
  const artUnits = await column(`SELECT art_unit FROM ${t("prosecution/art_unit_profiles")} WHERE regexp_full_match(art_unit, '\\d{3,4}') ${shuffled("art_unit")} LIMIT ${k}`)
  const examinerIds = await column(`SELECT examiner_id FROM ${t("prosecution/examiner_statistics")} WHERE length(examiner_id) BETWEEN 2 AND 120 ${shuffled("examiner_id")} LIMIT ${k}`)
  const bySurname = await column(`SELECT DISTINCT surname FROM ${t("tables/examiners")} WHERE length(surname) BETWEEN 2 AND 80 ${shuffled("surname")} LIMIT ${k}`)
  const byArtUnit = await column(`SELECT DISTINCT art_unit FROM ${t("tables/examiners")} WHERE regexp_full_match(art_unit, '\\d{3,4}') ${shuffled("art_unit")} LIMIT ${k}`)
  const examinerQueries = interleave(
    bySurname.map((name) => ({ name })),
    byArtUnit.map((artUnit) => ({ artUnit }))
  )
  const mpep = await column(`SELECT section_id FROM ${t("guidance/mpep_guidance")} ${shuffled("section_id")} LIMIT ${k}`)
  const epo = await column(`SELECT section_id FROM ${t("guidance/epo_guidance")} ${shuffled("section_id")} LIMIT ${k}`)
  const formParagraphs = await column(`SELECT code FROM ${t("guidance/form_paragraph_details")} ${shuffled("code")} LIMIT ${k}`)
  const fpSections = await column(`SELECT DISTINCT mpep_section FROM ${t("guidance/form_paragraph_details")} WHERE mpep_section IS NOT NULL ${shuffled("mpep_section")} LIMIT ${k}`)
  const fpTypes = await column(`SELECT DISTINCT rejection_type FROM ${t("guidance/form_paragraph_details")} WHERE rejection_type IS NOT NULL ${shuffled("rejection_type")}`)
  const formParagraphQueries = interleave(
    fpSections.map((mpepSection) => ({ mpepSection })),
    fpTypes.map((rejectionType) => ({ rejectionType }))
  )
  const graphNodes = await column(`SELECT node_id FROM ${t("guidance/guidance_nodes")} ${shuffled("node_id")} LIMIT ${k}`)
  const designCodes = await column(`SELECT code FROM ${t("guidance/design_code_entries")} ${shuffled("code")} LIMIT ${k}`)
  c.closeSync()
  db.closeSync()
  return {
    documents: Number(documents),
    indexedApps,
    citingApps,
    claimApps,
    allClaimAppNums,
    locateTexts,
    classificationNumbers,
    cpcCodes,
    artUnits,
    examinerIds,
    examinerQueries,
    mpep,
    epo,
    formParagraphs,
    formParagraphQueries,
    graphNodes,
    designCodes
  }
}

const interleave = <A, B>(a: ReadonlyArray<A>, b: ReadonlyArray<B>): Array<A | B> => {
  const out: Array<A | B> = []
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i < a.length) out.push(a[i]!)
    if (i < b.length) out.push(b[i]!)
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

interface Call {
  readonly method: "GET" | "POST"
  readonly path: string
  readonly body?: unknown
}

interface Scenario {
  /** Row label: method, path and variant. */
  readonly name: string
  /** The route (one of the 24) this row times. */
  readonly route: string
  /** p50 target in ms at 1,000,000 applications, and where it comes from. */
  readonly target?: number
  /** Growth of p50 from 100k to 1M at most 1.3× (the issue's lookup routes). */
  readonly lookup: boolean
  readonly call: (i: number) => Call
  /** Why a 2xx answer is not a real result (empty, not available), or undefined. */
  readonly check?: (json: any) => string | undefined
}

const GET_TARGET = 20
const GROWTH_TARGET = 1.3
const at = <T>(xs: ReadonlyArray<T>, i: number) => xs[i % xs.length]!
const q = (params: Record<string, string | number | undefined>) => {
  const s = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined).map(([k, v]): [string, string] => [k, String(v)])).toString()
  return s ? `?${s}` : ""
}
const e = encodeURIComponent
const nonEmpty = (what: string, n: unknown) => (Number(n) > 0 ? undefined : `no ${what}`)

/** A batch of n claim-bearing application numbers, different for each request. */
const batch = (apps: ReadonlyArray<string>, i: number, n: number) => Array.from({ length: n }, (_, j) => at(apps, i * n + j))

/**
 * The antecedent checker's cost follows the claims it reads (their number and length), and a
 * random 100 applications of one corpus differ from another 100 in that by a third or more: the
 * two sizes' checks are drawn from the same band of claim-set lengths, so their growth compares
 * like with like, and the GET and the POST check the same applications (what the GET adds is the
 * read of the filed claims).
 */
const CLAIM_SET_CHARS = { min: 3_000, max: 8_000 }
const claimSetChars = (a: Inputs["claimApps"][number]) => a.claims.reduce((n, c) => n + c.text.length, 0)
const banded = (apps: Inputs["claimApps"]) => {
  const inBand = apps.filter((a) => claimSetChars(a) >= CLAIM_SET_CHARS.min && claimSetChars(a) <= CLAIM_SET_CHARS.max)
  return inBand.length >= 10 ? inBand : apps
}

const scenarios = (inp: Inputs): ReadonlyArray<Scenario> => {
  const apps = inp.claimApps
  const checked = banded(apps)
  // Distinct query texts for the three search modes and locate: no vector or result cache hit.
  // Utility and plant applications with an abstract and a distinct first claim (design claims
  // repeat one sentence, which the result cache would answer).
  const seen = new Set<string>()
  const distinct = apps.filter((a) => a.abstract && a.claims[0]!.text.length >= 80 && !seen.has(a.claims[0]!.text) && seen.add(a.claims[0]!.text))
  const searchApps = distinct.length >= 3 ? distinct : apps
  const searchBody = (i: number, mode: number) => {
    const a = at(searchApps, i * 3 + mode)
    return { claims: a.claims[0]!.text.slice(0, 20_000), ...(a.abstract ? { abstract: a.abstract.slice(0, 10_000) } : {}), count: 50 }
  }
  const searchCheck = (j: any) =>
    !j?.success ? "success false" : j?.data?.metadata?.cache_hit_rate > 0 ? "answered from the result cache" : nonEmpty("references", j?.data?.specifications?.length)
  const claimsCheck = (j: any) =>
    !j?.success ? "success false" : j?.data?.metadata?.not_found?.length ? `not found: ${j.data.metadata.not_found.join(",")}` : nonEmpty("claims", j?.data?.specifications?.length)
  return [
    { name: "POST /prior-art (plain)", route: "POST /prior-art", target: 30, lookup: false, call: (i) => ({ method: "POST", path: "/prior-art", body: searchBody(i, 0) }), check: searchCheck },
    {
      name: "POST /prior-art (hybrid)",
      route: "POST /prior-art",
      target: 60,
      lookup: false,
      call: (i) => ({ method: "POST", path: "/prior-art", body: { ...searchBody(i, 1), hybrid: true } }),
      check: searchCheck
    },
    {
      name: "POST /prior-art (rerank)",
      route: "POST /prior-art",
      target: 80,
      lookup: false,
      call: (i) => ({ method: "POST", path: "/prior-art", body: { ...searchBody(i, 2), useReranking: true } }),
      check: searchCheck
    },
    {
      name: "POST /prior-art/claims (5 numbers)",
      route: "POST /prior-art/claims",
      lookup: true,
      call: (i) => ({ method: "POST", path: "/prior-art/claims", body: { appNumbers: batch(inp.allClaimAppNums, i, 5) } }),
      check: claimsCheck
    },
    {
      name: "POST /prior-art/claims (25 numbers)",
      route: "POST /prior-art/claims",
      target: 30,
      lookup: true,
      call: (i) => ({ method: "POST", path: "/prior-art/claims", body: { appNumbers: batch(inp.allClaimAppNums, i + 1000, 25) } }),
      check: claimsCheck
    },
    {
      name: "GET /patent-map/patent/{appNum}",
      route: "GET /patent-map/patent/{appNum}",
      target: GET_TARGET,
      lookup: true,
      call: (i) => ({ method: "GET", path: `/patent-map/patent/${at(inp.indexedApps, i)}` }),
      check: (j) => nonEmpty("neighbours", j?.count)
    },
    {
      name: "GET /patent-map/patent/{appNum}/citations",
      route: "GET /patent-map/patent/{appNum}/citations",
      target: GET_TARGET,
      lookup: true,
      call: (i) => ({ method: "GET", path: `/patent-map/patent/${at(inp.citingApps, i)}/citations` }),
      check: (j) => nonEmpty("cited references", j?.citedTotal)
    },
    {
      name: "POST /patent-map/locate (query)",
      route: "POST /patent-map/locate",
      target: 30,
      lookup: false,
      call: (i) => ({ method: "POST", path: "/patent-map/locate", body: { query: at(inp.locateTexts, i) } }),
      check: (j) => nonEmpty("neighbours", j?.count)
    },
    {
      name: "POST /patent-map/locate (appNum)",
      route: "POST /patent-map/locate",
      target: 30,
      lookup: true,
      call: (i) => ({ method: "POST", path: "/patent-map/locate", body: { appNum: at(inp.indexedApps, i + Math.floor(inp.indexedApps.length / 2)) } }),
      check: (j) => nonEmpty("neighbours", j?.count)
    },
    // Two whitespace rows: with filters and limits up to 500 the answer is every void that passes,
    // and a larger atlas has more of them (13 voids at 100k, 54 at 1M), so that row's cost follows
    // the answer and is not a lookup; limits of 1 to 10 ask for the same number of voids at both
    // sizes, which is what tells whether serving the atlas depends on the corpus size.
    {
      name: "GET /patent-map/whitespace (limit 1-10)",
      route: "GET /patent-map/whitespace",
      target: GET_TARGET,
      lookup: true,
      call: (i) => ({ method: "GET", path: `/patent-map/whitespace${q({ limit: 1 + (i % 10) })}` }),
      check: (j) => nonEmpty("voids", j?.count)
    },
    {
      name: "GET /patent-map/whitespace (filters, limit 1-500)",
      route: "GET /patent-map/whitespace",
      target: GET_TARGET,
      lookup: false,
      call: (i) => ({ method: "GET", path: `/patent-map/whitespace${q({ limit: 1 + ((i * 37) % 500), section: i % 3 === 0 ? undefined : at([..."ABCDEFGHY"], i), minOpportunity: ((i * 7) % 5) / 10 })}` })
    },
    {
      name: "GET /patent-map/points (limit 10000)",
      route: "GET /patent-map/points",
      target: 60,
      lookup: true,
      call: () => ({ method: "GET", path: `/patent-map/points${q({ limit: 10_000 })}` }),
      check: (j) => nonEmpty("points", j?.count)
    },
    {
      name: "POST /claim-validation/antecedent-basis (text)",
      route: "POST /claim-validation/antecedent-basis",
      lookup: false,
      call: (i) => ({ method: "POST", path: "/claim-validation/antecedent-basis", body: { claims: at(checked, i + 3).claims } })
    },
    {
      name: "GET /claim-validation/antecedent-basis/{appNum}",
      route: "GET /claim-validation/antecedent-basis/{appNum}",
      target: GET_TARGET,
      lookup: true,
      call: (i) => ({ method: "GET", path: `/claim-validation/antecedent-basis/${at(checked, i + 3).appNum}` }),
      check: (j) => (j?.available === false ? `not available: ${j?.reason}` : undefined)
    },
    {
      name: "POST /claim-validation/support (sections)",
      route: "POST /claim-validation/support",
      lookup: false,
      call: (i) => {
        const a = at(apps.filter((x) => x.sections.length > 0).length ? apps.filter((x) => x.sections.length > 0) : apps, i + 7)
        return { method: "POST", path: "/claim-validation/support", body: { claims: a.claims, sections: a.sections.length ? a.sections : [{ name: "Abstract", text: a.abstract ?? a.claims[0]!.text }] } }
      }
    },
    {
      name: "GET /claim-validation/support/{appNum}",
      route: "GET /claim-validation/support/{appNum}",
      target: GET_TARGET,
      lookup: true,
      call: (i) => ({ method: "GET", path: `/claim-validation/support/${at(apps, i + 11).appNum}` })
    },
    { name: "POST /warmup", route: "POST /warmup", lookup: false, call: () => ({ method: "POST", path: "/warmup" }) },
    { name: "GET /warmup", route: "GET /warmup", target: GET_TARGET, lookup: false, call: () => ({ method: "GET", path: "/warmup" }) },
    {
      name: "GET /patent-intel/cpc/{code}",
      route: "GET /patent-intel/cpc/{code}",
      target: GET_TARGET,
      lookup: true,
      call: (i) => ({ method: "GET", path: `/patent-intel/cpc/${e(at(inp.cpcCodes, i))}` })
    },
    {
      name: "GET /patent-intel/classification/{number}",
      route: "GET /patent-intel/classification/{number}",
      target: GET_TARGET,
      lookup: true,
      call: (i) => ({ method: "GET", path: `/patent-intel/classification/${at(inp.classificationNumbers, i)}` })
    },
    {
      name: "GET /patent-intel/art-unit/{artUnit}",
      route: "GET /patent-intel/art-unit/{artUnit}",
      target: GET_TARGET,
      lookup: true,
      call: (i) => ({ method: "GET", path: `/patent-intel/art-unit/${at(inp.artUnits, i)}` })
    },
    {
      name: "GET /patent-intel/examiners",
      route: "GET /patent-intel/examiners",
      target: GET_TARGET,
      lookup: true,
      call: (i) => ({ method: "GET", path: `/patent-intel/examiners${q(at(inp.examinerQueries, i))}` }),
      check: (j) => nonEmpty("examiners", j?.count)
    },
    {
      name: "GET /patent-intel/examiner/{examiner}",
      route: "GET /patent-intel/examiner/{examiner}",
      target: GET_TARGET,
      lookup: true,
      call: (i) => ({ method: "GET", path: `/patent-intel/examiner/${e(at(inp.examinerIds, i))}` })
    },
    { name: "GET /guidance/mpep/{sectionId}", route: "GET /guidance/mpep/{sectionId}", target: GET_TARGET, lookup: true, call: (i) => ({ method: "GET", path: `/guidance/mpep/${e(at(inp.mpep, i))}` }) },
    { name: "GET /guidance/epo/{sectionId}", route: "GET /guidance/epo/{sectionId}", target: GET_TARGET, lookup: true, call: (i) => ({ method: "GET", path: `/guidance/epo/${e(at(inp.epo, i))}` }) },
    {
      name: "GET /guidance/form-paragraph/{code}",
      route: "GET /guidance/form-paragraph/{code}",
      target: GET_TARGET,
      lookup: true,
      call: (i) => ({ method: "GET", path: `/guidance/form-paragraph/${e(at(inp.formParagraphs, i))}` })
    },
    {
      name: "GET /guidance/form-paragraphs",
      route: "GET /guidance/form-paragraphs",
      target: GET_TARGET,
      lookup: true,
      call: (i) => ({ method: "GET", path: `/guidance/form-paragraphs${q(at(inp.formParagraphQueries, i))}` }),
      check: (j) => nonEmpty("form paragraphs", j?.count)
    },
    { name: "GET /guidance/graph/{nodeId}", route: "GET /guidance/graph/{nodeId}", target: GET_TARGET, lookup: true, call: (i) => ({ method: "GET", path: `/guidance/graph/${e(at(inp.graphNodes, i))}` }) },
    {
      name: "GET /guidance/design-code/{code}",
      route: "GET /guidance/design-code/{code}",
      target: GET_TARGET,
      lookup: true,
      call: (i) => ({ method: "GET", path: `/guidance/design-code/${e(at(inp.designCodes, i))}` })
    }
  ]
}

// ---------------------------------------------------------------------------------------------
// Measuring one version
// ---------------------------------------------------------------------------------------------

interface RouteResult {
  readonly ok: number
  readonly failed: number
  readonly p50ms: number | null
  readonly p99ms: number | null
  readonly meanMs: number | null
  readonly failures: ReadonlyArray<string>
}

interface SizeResult {
  readonly label: string
  readonly requestedN: number | null
  readonly documents: number
  readonly versionDir: string
  readonly version: string
  /** The version's stages with the code version each was built by (a version built before a stage existed lacks it). */
  readonly stages: Record<string, string>
  readonly serveStartSeconds: number
  readonly inputsSeconds: number
  readonly memory: { apiRssMb: number; apiPeakMb: number; hubRssMb: number | null; hubPeakMb: number | null }
  readonly routes: Record<string, RouteResult>
}

const pct = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!
const round1 = (x: number) => Math.round(x * 10) / 10

/** VmRSS and VmHWM of a process, in MB. */
const memoryOf = (pid: number) => {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8")
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
    return { rssMb: Math.round(kb("VmRSS") / 1024), peakMb: Math.round(kb("VmHWM") / 1024) }
  } catch {
    return undefined
  }
}

/** The hub: the API process's child running the inference hub (its esbuild bundle, api/hub/bundle.ts, or its sources through tsx). */
const hubPid = (apiPid: number) => {
  const children = fs
    .readdirSync(`/proc/${apiPid}/task`)
    .flatMap((tid) => {
      try {
        return fs.readFileSync(`/proc/${apiPid}/task/${tid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)
      } catch {
        return []
      }
    })
  return children.find((pid) => {
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8")
      return cmdline.includes("inference-hub") || cmdline.includes(HUB_BUNDLE)
    } catch {
      return false
    }
  })
}

const measure = async (label: string, requestedN: number | null, versionDir: string): Promise<SizeResult> => {
  const manifest = JSON.parse(fs.readFileSync(manifestOf(versionDir), "utf8")) as { version: string; stages?: Array<{ name: string; codeVersion?: string }> }
  const version = manifest.version
  const stages = Object.fromEntries((manifest.stages ?? []).map((st) => [st.name, st.codeVersion ?? ""]))
  log(`\n${label}: ${versionDir} (version ${version}): drawing inputs`)
  let t0 = performance.now()
  const inputs = await drawInputs(versionDir, WARM + REQUESTS)
  const inputsSeconds = round1((performance.now() - t0) / 1000)
  log(`${label}: ${inputs.documents.toLocaleString("en-US")} applications, ${inputs.claimApps.length} with claims drawn (${inputsSeconds} s); starting the service`)

  t0 = performance.now()
  process.env.WARM_WINDOW_SECONDS = "3600"
  const served = await serveForBench(versionDir)
  const serveStartSeconds = round1((performance.now() - t0) / 1000)
  const headers = { authorization: `Bearer ${served.key}`, "content-type": "application/json" }
  try {
    for (let i = 0; i < 600; i++) {
      const r = await fetch(`${served.url}/healthz`).catch(() => undefined)
      await r?.arrayBuffer()
      if (r?.status === 200) break
      await new Promise((r) => setTimeout(r, 500))
    }
    // The hub may still be starting (make serve starts the API after 30 s regardless): retry
    // until both models are loaded, so no timed request pays a model load.
    let state: any = null
    for (let i = 0; i < 20 && !(state?.ready && state?.models?.reranker); i++) {
      const warm = await fetch(`${served.url}/api/v1/warmup?wait=120&rerank=true`, { method: "POST", headers }).catch(() => undefined)
      state = await warm?.json().catch(() => null)
      if (!(state?.ready && state?.models?.reranker)) await new Promise((r) => setTimeout(r, 3000))
    }
    log(`${label}: service up in ${serveStartSeconds} s, warm-up ${JSON.stringify(state).slice(0, 160)}`)
    if (!(state?.ready && state?.models?.reranker)) throw new Error(`${label}: the hub never reported both models loaded`)

    const call = async (c: Call) => {
      const t = performance.now()
      const r = await fetch(`${served.url}/api/v1${c.path}`, {
        method: c.method,
        headers,
        body: c.body === undefined ? undefined : JSON.stringify(c.body),
        signal: AbortSignal.timeout(60_000)
      })
      const text = await r.text()
      return { ms: performance.now() - t, status: r.status, text }
    }
    const only = values.only?.split(",").filter(Boolean)
    const list = scenarios(inputs).filter((s) => only === undefined || only.some((o) => s.name.includes(o)))
    // Warm every route with inputs the measured requests do not use.
    for (const s of list) for (let i = 0; i < WARM; i++) await call(s.call(REQUESTS + i)).catch(() => undefined)

    const routes: Record<string, RouteResult> = {}
    for (const s of list) {
      const ms: Array<number> = []
      const failures: Array<string> = []
      let failed = 0
      for (let i = 0; i < REQUESTS; i++) {
        const c = s.call(i)
        try {
          const r = await call(c)
          let reason: string | undefined
          if (r.status < 200 || r.status >= 300) reason = `${r.status} ${r.text.slice(0, 160)}`
          else if (s.check) {
            try {
              reason = s.check(JSON.parse(r.text))
            } catch {
              reason = "answer is not JSON"
            }
          }
          if (process.env.SCALE_DEBUG && i === 0) log(`  ${r.status} ${c.method} ${c.path.slice(0, 80)} → ${r.text.slice(0, 300)}`)
          if (reason === undefined) ms.push(r.ms)
          else {
            failed++
            if (failures.length < 5) failures.push(`${c.method} ${c.path.slice(0, 80)}: ${reason}`)
          }
        } catch (err) {
          failed++
          if (failures.length < 5) failures.push(`${c.method} ${c.path.slice(0, 80)}: ${err instanceof Error ? err.message : String(err)}`)
        }
      }
      ms.sort((a, b) => a - b)
      routes[s.name] = {
        ok: ms.length,
        failed,
        p50ms: ms.length ? round1(pct(ms, 0.5)) : null,
        p99ms: ms.length ? round1(pct(ms, 0.99)) : null,
        meanMs: ms.length ? round1(ms.reduce((a, b) => a + b, 0) / ms.length) : null,
        failures
      }
      log(`${label}  ${s.name.padEnd(52)} p50 ${String(routes[s.name]!.p50ms).padStart(7)}  p99 ${String(routes[s.name]!.p99ms).padStart(7)}  ok ${ms.length}${failed ? `  FAILED ${failed}: ${failures[0]}` : ""}`)
    }
    const api = memoryOf(served.process.pid!)
    const hubId = hubPid(served.process.pid!)
    const hub = hubId === undefined ? undefined : memoryOf(hubId)
    return {
      label,
      requestedN,
      documents: inputs.documents,
      versionDir,
      version,
      stages,
      serveStartSeconds,
      inputsSeconds,
      memory: { apiRssMb: api?.rssMb ?? 0, apiPeakMb: api?.peakMb ?? 0, hubRssMb: hub?.rssMb ?? null, hubPeakMb: hub?.peakMb ?? null },
      routes
    }
  } finally {
    await served.stop()
  }
}

// ---------------------------------------------------------------------------------------------
// Run
// ---------------------------------------------------------------------------------------------

const sizeLabel = (n: number) =>
  n >= 1_000_000 ? `${round1(n / 1_000_000)}M` : n >= 1000 ? `${n % 1000 === 0 ? n / 1000 : round1(n / 1000)}k` : String(n)

const versions: Array<{ label: string; n: number | null; dir: string }> = []
const skipped: Array<string> = []
if (values.sample) {
  const dir = path.resolve(values.sample)
  if (fs.existsSync(manifestOf(dir))) versions.push({ label: "sample", n: null, dir: fs.realpathSync(dir) })
  else skipped.push(`sample (${dir} has no manifest.json)`)
}
for (const n of SIZES) {
  const dir = await versionFor(n)
  if (dir) versions.push({ label: sizeLabel(n), n, dir })
  else {
    skipped.push(`${sizeLabel(n)} (no version under ${path.join(ROOT, `synth-${n}`, "artifacts", "current")}; --no-build)`)
    log(`skipping ${sizeLabel(n)}: no version built and --no-build given`)
  }
}
if (versions.length === 0) {
  log("no version to measure")
  process.exit(1)
}

const results: Array<SizeResult> = []
for (const v of versions) results.push(await measure(v.label, v.n, v.dir))
// Columns from the smallest corpus to the largest; growth is between the two largest.
results.sort((a, b) => a.documents - b.documents)
const columnLabel = (r: SizeResult) => (r.label === "sample" ? `sample ${sizeLabel(r.documents)}` : r.label)

// The targets are for 1M; they are checked against the largest size measured (and say so).
const largest = results[results.length - 1]!
const previous = results.length > 1 ? results[results.length - 2]! : undefined
const targetNote = largest.documents >= 900_000 ? "" : ` (targets are for 1M; checked here at ${columnLabel(largest)})`
const names = Object.keys(largest.routes)
const list = scenarios({ claimApps: [], allClaimAppNums: [], indexedApps: [] } as unknown as Inputs)
const rows = names.map((name) => {
  const s = list.find((x) => x.name === name)!
  const big = largest.routes[name]!
  const small = previous?.routes[name]
  const growth = big.p50ms !== null && small?.p50ms ? Math.round((big.p50ms / small.p50ms) * 100) / 100 : null
  return {
    name,
    route: s.route,
    target: s.target ?? null,
    targetMet: s.target === undefined ? null : big.p50ms !== null && big.ok > 0 && big.p50ms <= s.target,
    lookup: s.lookup,
    growth,
    growthMet: !s.lookup || !previous ? null : growth !== null && growth <= GROWTH_TARGET,
    bySize: Object.fromEntries(results.map((r) => [columnLabel(r), r.routes[name]!]))
  }
})
type Row = (typeof rows)[number]
const fmt = (x: number | null | undefined) => (x === null || x === undefined ? "—" : x >= 100 ? String(Math.round(x)) : x.toFixed(1))
const yesNo = (b: boolean | null) => (b === null ? "" : b ? "yes" : "NO")
const columns: Array<Column<Row>> = [["route", (r) => r.name]]
for (const res of results) {
  const l = columnLabel(res)
  columns.push([`p50 ${l}`, (r) => fmt(r.bySize[l]!.p50ms)], [`p99 ${l}`, (r) => fmt(r.bySize[l]!.p99ms)])
}
columns.push(["target p50", (r) => (r.target === null ? "" : `≤ ${r.target}`)], ["met", (r) => yesNo(r.targetMet)])
if (previous) columns.push([`growth ${columnLabel(previous)}→${columnLabel(largest)}`, (r) => (r.growth === null ? "—" : `${r.growth.toFixed(2)}×`)], [`≤ ${GROWTH_TARGET}×`, (r) => yesNo(r.growthMet)])
columns.push(["failed", (r) => results.map((res) => r.bySize[columnLabel(res)]!.failed).join("/")])
printTable(
  `Scale: p50/p99 ms per route, ${REQUESTS} sequential requests each (2xx real answers only), served as make serve runs it, ${os.cpus().length} cores${targetNote}`,
  rows,
  columns
)
printTable("Resident memory after the run (MB)", results, [
  ["size", (r) => columnLabel(r)],
  ["applications", (r) => r.documents.toLocaleString("en-US")],
  ["API RSS", (r) => String(r.memory.apiRssMb)],
  ["API peak", (r) => String(r.memory.apiPeakMb)],
  ["hub RSS", (r) => String(r.memory.hubRssMb ?? "—")],
  ["hub peak", (r) => String(r.memory.hubPeakMb ?? "—")],
  ["start s", (r) => String(r.serveStartSeconds)]
])
const failing = rows.filter((r) => Object.values(r.bySize).some((x) => x.failed > 0))
for (const r of failing) for (const [l, x] of Object.entries(r.bySize)) if (x.failed > 0) log(`failures ${l} ${r.name}: ${x.failed}; ${x.failures.join(" | ")}`)
const missed = rows.filter((r) => r.targetMet === false || r.growthMet === false)
log(`\n${rows.length - missed.length}/${rows.length} rows meet their targets${missed.length ? `; missed: ${missed.map((r) => r.name).join(", ")}` : ""}`)
if (skipped.length) log(`skipped: ${skipped.join("; ")}`)

if (!values["no-write"] && values.only === undefined)
  await writeResult("scale", {
    cpus: os.cpus().length,
    requestsPerRoute: REQUESTS,
    warmRequestsPerRoute: WARM,
    seed: SEED,
    targets: { getP50Ms: GET_TARGET, pointsP50Ms: 60, locateP50Ms: 30, claims25P50Ms: 30, priorArtP50Ms: { plain: 30, hybrid: 60, rerank: 80 }, growth: GROWTH_TARGET, checkedAt: columnLabel(largest) },
    growthFrom: previous ? columnLabel(previous) : null,
    growthTo: columnLabel(largest),
    skipped,
    sizes: results.map((r) => ({ ...r, routes: undefined, label: columnLabel(r) })),
    routes: rows
  })
