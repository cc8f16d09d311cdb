/**
 * API throughput with autocannon against a served artifact version (real answers, never the
 * error path): a metered lookup (GET /patent-intel/cpc/{code}, rotating over CPC symbols that
 * exist in the version) and a prior-art search (rotating claims, forceReprocess so every call
 * encodes and searches), each at 1 and at 50 connections. The metered lookup pays the durable
 * quota counter too. The service runs as `make serve` runs it (api/serve.ts in a child process,
 * with its supervised hub), so the load generator does not share its event loop.
 *
 *   node --import tsx bench/api-throughput.ts [--artifacts artifacts/current[,DIR…]] [--seconds 5] [--before FILE]
 *
 * --before FILE: an earlier result of this benchmark (the older code run on the same machine just
 * before, say), printed and recorded beside this run's figures.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
// @ts-expect-error autocannon ships no type declarations
import autocannon from "autocannon"
import { printTable, writeResult } from "./report.ts"
import { serveForBench } from "./serve-process.ts"

const arg = (name: string, fallback: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1]! : fallback)
const seconds = Number(arg("--seconds", "5"))
/** Several versions (comma-separated) are measured one after another, each served alone: the sample beside 1M, say. */
const artifactDirs = arg("--artifacts", "artifacts/current").split(",").map((d) => fs.realpathSync(d))
const beforeFile = process.argv.includes("--before") ? arg("--before", "") : undefined

interface Inputs {
  readonly version: string
  readonly applications: number
  readonly cpcCodes: ReadonlyArray<string>
  readonly claims: ReadonlyArray<string>
}

/** Inputs drawn from the version itself, so every request asks for something that exists. */
const inputsOf = async (artifactsDir: string): Promise<Inputs> => {
  const manifest = JSON.parse(fs.readFileSync(path.join(artifactsDir, "manifest.json"), "utf8")) as { version: string; stages: Array<{ name: string; rowCounts: Record<string, number> }> }
  const db = await DuckDBInstance.create(":memory:")
  const connection = await db.connect()
  try {
    /** Symbols the version routed (subclasses to subgroups: H04L, H04L9/0643), each with a scheme entry or routing. */
    const cpcCodes = (
      await connection.runAndReadAll(
        `SELECT symbol AS code FROM read_parquet('${path.join(artifactsDir, "prosecution/cpc_routing.parquet")}') ORDER BY hash(symbol) LIMIT 500`
      )
    ).getRowObjectsJS().map((r) => encodeURIComponent(String(r.code)))
    const claims = (
      await connection.runAndReadAll(
        `SELECT text FROM read_parquet('${path.join(artifactsDir, "tables/claims.parquet")}') WHERE claim_num = 1 AND length(text) BETWEEN 80 AND 2000 ORDER BY hash(app_num) LIMIT 300`
      )
    ).getRowObjectsJS().map((r) => String(r.text))
    const applications = manifest.stages.find((st) => st.name === "ingest")?.rowCounts.applications ?? 0
    return { version: manifest.version, applications, cpcCodes, claims }
  } finally {
    connection.closeSync()
    db.closeSync()
  }
}

interface Scenario {
  readonly name: string
  readonly metered: boolean
  readonly request: (i: number) => { method: string; path: string; body?: string }
}

const scenariosOf = (inputs: Inputs): ReadonlyArray<Scenario> => [
  {
    name: "GET /patent-intel/cpc/{code} (metered lookup)",
    metered: true,
    request: (i) => ({ method: "GET", path: `/api/v1/patent-intel/cpc/${inputs.cpcCodes[i % inputs.cpcCodes.length]}` })
  },
  {
    name: "POST /prior-art (plain search, count 20)",
    metered: true,
    request: (i) => ({ method: "POST", path: "/api/v1/prior-art", body: JSON.stringify({ claims: inputs.claims[i % inputs.claims.length], count: 20, forceReprocess: true }) })
  }
]

interface Row {
  readonly version: string
  readonly applications: number
  readonly scenario: string
  readonly connections: number
  readonly requestsPerSecond: number
  readonly p50ms: number
  readonly p99ms: number
  readonly total: number
  readonly non200: number
}

const rows: Array<Row> = []
for (const artifactsDir of artifactDirs) {
  const inputs = await inputsOf(artifactsDir)
  const server = await serveForBench(artifactsDir)
  const key = server.key
  await fetch(`${server.url}/api/v1/warmup?wait=60`, { method: "POST", headers: { authorization: `Bearer ${key}` } })
  // The CPC index and the search state load in the background at start: wait for both.
  await fetch(`${server.url}/api/v1/patent-intel/cpc/H01B`, { headers: { authorization: `Bearer ${key}` } })
  await fetch(`${server.url}/api/v1/prior-art`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ claims: inputs.claims[0], count: 20 })
  })
  for (const s of scenariosOf(inputs)) {
    for (const connections of [1, 50]) {
      let i = 0
      const result = await autocannon({
        url: server.url,
        connections,
        duration: seconds,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        requests: [{ setupRequest: (req: object) => ({ ...req, ...s.request(i++) }) }]
      })
      const byStatus = result.statusCodeStats as Record<string, { count: number }>
      const total = Object.values(byStatus).reduce((a, b) => a + b.count, 0)
      rows.push({
        version: inputs.version,
        applications: inputs.applications,
        scenario: s.name,
        connections,
        requestsPerSecond: Math.round(result.requests.average),
        p50ms: result.latency.p50,
        p99ms: result.latency.p99,
        total,
        non200: total - (byStatus["200"]?.count ?? 0) + result.errors + result.timeouts
      })
    }
  }
  await server.stop()
}

printTable(`API throughput (${seconds} s each, real answers)`, rows, [
  ["applications", (r) => r.applications.toLocaleString("en-US")],
  ["scenario", (r) => r.scenario],
  ["conns", (r) => String(r.connections)],
  ["req/s", (r) => String(r.requestsPerSecond)],
  ["p50 ms", (r) => String(r.p50ms)],
  ["p99 ms", (r) => String(r.p99ms)],
  ["requests", (r) => String(r.total)],
  ["non-200", (r) => String(r.non200)]
])
/** The earlier run's rows, matched to this run's by corpus size, scenario and connections. */
const before = beforeFile ? (JSON.parse(fs.readFileSync(beforeFile, "utf8")) as { at: string; rows: ReadonlyArray<Row> }) : undefined
const beforeOf = (r: Row) => before?.rows.find((b) => b.applications === r.applications && b.scenario === r.scenario && b.connections === r.connections)
if (before) {
  printTable(`Before (${before.at}) and now, req/s`, rows, [
    ["applications", (r) => r.applications.toLocaleString("en-US")],
    ["scenario", (r) => r.scenario],
    ["conns", (r) => String(r.connections)],
    ["before", (r) => String(beforeOf(r)?.requestsPerSecond ?? "–")],
    ["now", (r) => String(r.requestsPerSecond)],
    ["ratio", (r) => (beforeOf(r) ? (r.requestsPerSecond / beforeOf(r)!.requestsPerSecond).toFixed(2) : "–")]
  ])
}
await writeResult("api-throughput", {
  ...(before ? { measuredBefore: { at: before.at, rows: before.rows } } : {}),
  versions: artifactDirs.map((d) => path.basename(d)),
  seconds,
  node: process.version,
  cpus: os.cpus().length,
  before: "2026-11-22: 1,465 req/s for the metered lookup timed a 503 with no artifacts; 26 req/s with 1 client and 15 req/s at 50 connections with artifacts (each request opened its own DuckDB connection)",
  rows
})
