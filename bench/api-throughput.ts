/**
 * API throughput with autocannon (50 connections): an authenticated GET through the whole
 * gateway (auth, routing, envelopes) with and without quota accounting. The metered route pays
 * the durable counter (journal append + group-committed fdatasync before the answer); the free
 * routes pay none. Routes whose backends are not built answer their documented error cheaply,
 * which isolates the gateway's own cost.
 *
 *   node --import tsx bench/api-throughput.ts [--seconds 5]
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
// @ts-expect-error autocannon ships no type declarations
import autocannon from "autocannon"
import { createServer } from "node:http"
import { createKey } from "../api/auth/issue.ts"
import { startServer } from "../api/server.ts"
import { printTable, writeResult } from "./report.ts"

const seconds = Number(process.argv[process.argv.indexOf("--seconds") + 1]) || 5
const CONNECTIONS = 50

/** A stub hub answering /status at once, so GET /warmup measures the API, not model loading. */
const hub = createServer((_, res) => {
  res.setHeader("content-type", "application/json")
  res.end(JSON.stringify({ ready: true, warming: false, models: { encoder: true, reranker: false }, estimatedReadySeconds: 0, warmWindowSeconds: 900 }))
})
await new Promise<void>((resolve) => hub.listen(0, "127.0.0.1", resolve))
const hubUrl = `http://127.0.0.1:${(hub.address() as { port: number }).port}`

const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-api-"))
const key = await createKey(stateDir, { name: "bench", daily: 1e9, monthly: 1e9 })
const server = await startServer({ port: 0, stateDir, hubUrl, artifactsDir: path.join(stateDir, "none"), logRequests: false })

const scenarios = [
  { name: "GET /warmup (free, via stub hub)", path: "/api/v1/warmup", metered: false, expect: 200 },
  { name: "GET /patent-map/whitespace (free)", path: "/api/v1/patent-map/whitespace", metered: false, expect: 404 },
  { name: "GET /patent-intel/cpc/H04L (metered)", path: "/api/v1/patent-intel/cpc/H04L", metered: true, expect: 503 }
]

interface Row {
  readonly scenario: string
  readonly metered: boolean
  readonly requestsPerSecond: number
  readonly p50ms: number
  readonly p99ms: number
  readonly total: number
  readonly unexpected: number
}

const rows: Array<Row> = []
for (const s of scenarios) {
  const result = await autocannon({
    url: `${server.url}${s.path}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${key}` },
    expectBody: undefined
  })
  const byStatus = result.statusCodeStats as Record<string, { count: number }>
  const total = Object.values(byStatus).reduce((a, b) => a + b.count, 0)
  rows.push({
    scenario: s.name,
    metered: s.metered,
    requestsPerSecond: Math.round(result.requests.average),
    p50ms: result.latency.p50,
    p99ms: result.latency.p99,
    total,
    unexpected: total - (byStatus[String(s.expect)]?.count ?? 0)
  })
}

await server.close()
hub.close()
fs.rmSync(stateDir, { recursive: true, force: true })

printTable(`API throughput (${CONNECTIONS} connections, ${seconds} s each)`, rows, [
  ["scenario", (r) => r.scenario],
  ["quota", (r) => (r.metered ? "counted" : "free")],
  ["req/s", (r) => String(r.requestsPerSecond)],
  ["p50 ms", (r) => String(r.p50ms)],
  ["p99 ms", (r) => String(r.p99ms)],
  ["requests", (r) => String(r.total)],
  ["unexpected", (r) => String(r.unexpected)]
])
await writeResult("api-throughput", { connections: CONNECTIONS, seconds, node: process.version, cpus: os.cpus().length, rows })
