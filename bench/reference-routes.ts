/**
 * Guidance and prosecution-intelligence benchmark: the guidance and prosecution stage times of
 * an artifact version (from its manifest) and the latency of every /guidance and /patent-intel
 * route over real HTTP (authenticated, metered, 200 sequential requests per route after warm-up).
 *
 *   node --import tsx bench/reference-routes.ts [--artifacts artifacts/current] [--requests 200]
 */
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { parseArgs } from "node:util"
import { createKey } from "../api/auth/issue.ts"
import { startServer } from "../api/server.ts"
import { printTable, writeResult } from "./report.ts"

const { values } = parseArgs({
  options: { artifacts: { type: "string", default: "artifacts/current" }, requests: { type: "string", default: "200" } }
})
const artifactsDir = path.resolve(values.artifacts!)
const requests = Number(values.requests)
const manifest = JSON.parse(await fs.readFile(path.join(artifactsDir, "manifest.json"), "utf8")) as {
  version: string
  stages: { name: string; seconds: number; reused: boolean; rowCounts: Record<string, number> }[]
}
const stages = manifest.stages
  .filter((s) => s.name === "guidance" || s.name === "prosecution")
  .map((s) => ({ stage: s.name, seconds: s.seconds, rows: Object.values(s.rowCounts).reduce((a, b) => a + b, 0), reused: s.reused }))

const stateDir = await fs.mkdtemp(path.join(os.tmpdir(), "bench-reference-"))
const server = await startServer({ port: 0, host: "127.0.0.1", stateDir, artifactsDir, logRequests: false })
const key = await createKey(stateDir, { name: "bench", daily: 10_000_000, monthly: 10_000_000 })

const routes = [
  "/guidance/mpep/2173.05(e)",
  "/guidance/epo/G-VII-5.1",
  "/guidance/form-paragraph/7.34.01",
  "/guidance/form-paragraphs?rejectionType=103&limit=25",
  "/guidance/graph/mpep-2173.05(e)",
  "/guidance/design-code/01.01",
  "/patent-intel/cpc/G06F",
  "/patent-intel/classification/20220414841",
  "/patent-intel/art-unit/2863",
  "/patent-intel/examiners?artUnit=2863",
  "/patent-intel/examiner/bryant-christian-thomas"
]
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]
const rows = []
try {
  for (const route of routes) {
    const url = `${server.url}/api/v1${route}`
    const get = async () => {
      const r = await fetch(url, { headers: { authorization: `Bearer ${key}` } })
      await r.arrayBuffer()
      return r.status
    }
    const status = await get()
    for (let i = 0; i < 10; i++) await get()
    const ms: number[] = []
    for (let i = 0; i < requests; i++) {
      const t = performance.now()
      await get()
      ms.push(performance.now() - t)
    }
    rows.push({ route, status, p50: pct(ms, 50), p99: pct(ms, 99) })
  }
} finally {
  await server.close()
  await fs.rm(stateDir, { recursive: true, force: true })
}

printTable(`Stage times (${manifest.version})`, stages, [
  ["stage", (r) => r.stage],
  ["seconds", (r) => r.seconds.toFixed(1)],
  ["rows written", (r) => r.rows.toLocaleString("en-US")],
  ["reused", (r) => String(r.reused)]
])
printTable(`Route latency over HTTP (${requests} sequential requests each)`, rows, [
  ["route", (r) => r.route],
  ["status", (r) => String(r.status)],
  ["p50 ms", (r) => r.p50.toFixed(2)],
  ["p99 ms", (r) => r.p99.toFixed(2)]
])
await writeResult("reference-routes", { machine: { cpus: os.cpus().length, node: process.version }, artifacts: manifest.version, stages, routes: rows })
