/**
 * Soak: `make serve` as operators run it (API + supervised hub, a child process), all 24 routes
 * mixed at 32 connections for a bounded time (10 minutes by default), with about one request in
 * twenty abandoned by its client mid-flight. Prints requests, errors (5xx or a dropped answer to a
 * request the client did not abandon), p99 and the API's resident memory at start and end.
 *
 *   node --import tsx bench/soak.ts [--artifacts artifacts/current] [--minutes 10] [--connections 32]
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { routeExamples } from "../api/docs/examples.ts"
import { printTable, writeResult } from "./report.ts"
import { serveForBench } from "./serve-process.ts"

const arg = (name: string, fallback: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1]! : fallback)
const minutes = Number(arg("--minutes", "10"))
const connections = Number(arg("--connections", "32"))
const artifactsDir = fs.realpathSync(arg("--artifacts", "artifacts/current"))
const ABORT_SHARE = 0.05

/** Every route with its documented example (the same ones the OpenAPI walk test answers). */
const calls = Object.entries(routeExamples).map(([route, example]) => {
  const [method, template] = route.split(" ") as [string, string]
  let p = template
  for (const [k, v] of Object.entries(example.params ?? {})) p = p.replace(`:${k}`, encodeURIComponent(v))
  const query = new URLSearchParams(example.query ?? {}).toString()
  return { route, method, path: `${p}${query ? `?${query}` : ""}`, body: example.body === undefined ? undefined : JSON.stringify(example.body) }
})

const served = await serveForBench(artifactsDir)
const { key, url: base } = served
const serve = served.process
await fetch(`${base}/api/v1/warmup?wait=60&rerank=1`, { method: "POST", headers: { authorization: `Bearer ${key}` } })

const rssMb = () => {
  const status = fs.readFileSync(`/proc/${serve.pid}/status`, "utf8")
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
}


const latencies: Array<number> = []
const byRoute = new Map<string, { requests: number; errors: number; aborted: number }>()
let requests = 0
let errors = 0
let aborted = 0
const errorSamples: Array<string> = []
let recording = false

const worker = async (seed: number, end: number) => {
  let i = seed
  while (Date.now() < end) {
    const c = calls[(i = (i * 1103515245 + 12345) >>> 0) % calls.length]!
    const abandon = (i >>> 8) % 1000 < ABORT_SHARE * 1000
    const controller = new AbortController()
    if (abandon) setTimeout(() => controller.abort(), (i >>> 4) % 40)
    const stats = byRoute.get(c.route) ?? { requests: 0, errors: 0, aborted: 0 }
    byRoute.set(c.route, stats)
    const t0 = performance.now()
    try {
      const r = await fetch(`${base}${c.path}`, {
        method: c.method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: c.body,
        signal: controller.signal
      })
      await r.arrayBuffer()
      if (!recording) continue
      latencies.push(performance.now() - t0)
      requests++
      stats.requests++
      if (r.status >= 500) {
        errors++
        stats.errors++
        if (errorSamples.length < 10) errorSamples.push(`${c.route}: ${r.status}`)
      }
    } catch (e) {
      if (!recording) continue
      if (controller.signal.aborted) {
        aborted++
        stats.aborted++
      } else {
        errors++
        stats.errors++
        requests++
        if (errorSamples.length < 10) errorSamples.push(`${c.route}: ${e instanceof Error ? e.message : String(e)}`)
      }
    }
  }
}
/**
 * The same load for a warm-up period first (a fifth of the run, at most a minute): caches, pools,
 * worker threads and the heap reach their working size, so the start figure is a served process
 * rather than a cold one and growth after it is what a leak would show.
 */
const warmUpMs = Math.min(60_000, minutes * 60_000 * 0.2)
await Promise.all(Array.from({ length: connections }, (_, w) => worker(w * 7919 + 1, Date.now() + warmUpMs)))
const rssStart = rssMb()
recording = true
const started = Date.now()
await Promise.all(Array.from({ length: connections }, (_, w) => worker(w * 104729 + 3, started + minutes * 60_000)))
const seconds = (Date.now() - started) / 1000
const rssEnd = rssMb()
await served.stop()

latencies.sort((a, b) => a - b)
const q = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0)
const summary = {
  minutes,
  warmUpSeconds: warmUpMs / 1000,
  connections,
  routes: calls.length,
  requests,
  abandoned: aborted,
  errors,
  requestsPerSecond: Math.round(requests / seconds),
  p50ms: q(0.5),
  p99ms: q(0.99),
  rssStartMb: Math.round(rssStart),
  rssEndMb: Math.round(rssEnd),
  rssGrowth: Number(((rssEnd - rssStart) / rssStart).toFixed(3))
}
printTable(`Soak: ${calls.length} routes, ${connections} connections, ${minutes} min, ~${ABORT_SHARE * 100}% abandoned by the client`, [summary], [
  ["requests", (r) => String(r.requests)],
  ["abandoned", (r) => String(r.abandoned)],
  ["errors", (r) => String(r.errors)],
  ["req/s", (r) => String(r.requestsPerSecond)],
  ["p50 ms", (r) => String(r.p50ms)],
  ["p99 ms", (r) => String(r.p99ms)],
  ["RSS start MB", (r) => String(r.rssStartMb)],
  ["RSS end MB", (r) => String(r.rssEndMb)],
  ["growth", (r) => `${(r.rssGrowth * 100).toFixed(1)}%`]
])
if (errorSamples.length > 0) process.stdout.write(`errors, first ${errorSamples.length}: ${errorSamples.join("; ")}\n`)
await writeResult("soak", {
  version: JSON.parse(fs.readFileSync(path.join(artifactsDir, "manifest.json"), "utf8")).version,
  cpus: os.cpus().length,
  ...summary,
  errorSamples,
  byRoute: Object.fromEntries(byRoute)
})
