/**
 * Patent-space benchmark on large synthetic artifacts (test/patent-map/synthetic-space.ts): the
 * atlas stage's time, then the latency of each /patent-map route through the whole server
 * (sequential requests, p50/p95). Locate uses a stub hub that answers encode at once, so it
 * measures the index and the dataset, not the encoder.
 *
 *   node --import tsx bench/patent-map.ts [--points 200000] [--requests 40]
 */
import * as fs from "node:fs/promises"
import { createServer } from "node:http"
import * as os from "node:os"
import * as path from "node:path"
import { createKey } from "../api/auth/issue.ts"
import { startServer } from "../api/server.ts"
import { ATLAS_FILE, buildAtlas } from "../pipeline/atlas/stage.ts"
import { writeSyntheticSpace } from "../test/patent-map/synthetic-space.ts"
import { printTable, writeResult } from "./report.ts"

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}
const POINTS = arg("points", 200_000)
const REQUESTS = arg("requests", 40)

const dir = await fs.mkdtemp(path.join(os.tmpdir(), "bench-patent-map-"))
let t = performance.now()
const space = await writeSyntheticSpace(dir, POINTS)
const writeSeconds = (performance.now() - t) / 1000
t = performance.now()
const atlas = await buildAtlas(dir)
const atlasSeconds = (performance.now() - t) / 1000
await fs.mkdir(path.join(dir, "atlas"), { recursive: true })
await fs.writeFile(path.join(dir, ATLAS_FILE), JSON.stringify(atlas))
process.stdout.write(`synthetic space: ${POINTS} points written in ${writeSeconds.toFixed(1)} s; atlas stage ${atlasSeconds.toFixed(2)} s, ${atlas.count} voids\n`)

/** Encodes every text to one fixed unit vector: the API's cost without the encoder's. */
const probe = Array.from(space.vectors.subarray(0, space.dims))
const hub = createServer((req, res) => {
  req.resume()
  req.on("end", () => {
    res.setHeader("content-type", "application/json")
    res.end(JSON.stringify({ vectors: [probe], dims: space.dims }))
  })
})
await new Promise<void>((resolve) => hub.listen(0, "127.0.0.1", resolve))
const hubUrl = `http://127.0.0.1:${(hub.address() as { port: number }).port}`

const stateDir = await fs.mkdtemp(path.join(os.tmpdir(), "bench-patent-map-state-"))
const key = await createKey(stateDir, { name: "bench", daily: 100_000_000, monthly: 3_000_000_000 })
const server = await startServer({ port: 0, stateDir, hubUrl, artifactsDir: dir, logRequests: false })

const apps = Array.from({ length: REQUESTS }, (_, i) => String(20_000_000 + Math.floor((i * POINTS) / REQUESTS)))
const scenarios: ReadonlyArray<{ name: string; request: (i: number) => [string, string, unknown?] }> = [
  { name: "GET patent/{appNum} topK=20", request: (i) => ["GET", `/api/v1/patent-map/patent/${apps[i]}`] },
  { name: "GET patent/{appNum}/citations", request: (i) => ["GET", `/api/v1/patent-map/patent/${apps[i]}/citations`] },
  { name: "POST locate query", request: () => ["POST", `/api/v1/patent-map/locate`, { query: "a synthetic query text", topK: 20 }] },
  { name: "POST locate appNum", request: (i) => ["POST", `/api/v1/patent-map/locate`, { appNum: apps[i] }] },
  { name: "GET points limit=10000", request: () => ["GET", `/api/v1/patent-map/points`] },
  { name: "GET points section=H limit=50000", request: () => ["GET", `/api/v1/patent-map/points?section=H&limit=50000`] },
  { name: "GET whitespace", request: () => ["GET", `/api/v1/patent-map/whitespace`] }
]

interface Row {
  readonly scenario: string
  readonly firstMs: number
  readonly p50ms: number
  readonly p95ms: number
  readonly failures: number
}
const rows: Row[] = []
for (const s of scenarios) {
  const times: number[] = []
  let failures = 0
  for (let i = 0; i < REQUESTS; i++) {
    const [method, p, body] = s.request(i)
    const start = performance.now()
    const r = await fetch(`${server.url}${p}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined
    })
    await r.arrayBuffer()
    times.push(performance.now() - start)
    if (r.status !== 200) failures++
  }
  const sorted = times.slice(1).sort((a, b) => a - b)
  const q = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] * 10) / 10
  rows.push({ scenario: s.name, firstMs: Math.round(times[0] * 10) / 10, p50ms: q(0.5), p95ms: q(0.95), failures })
}

await server.close()
hub.close()
await fs.rm(dir, { recursive: true, force: true })
await fs.rm(stateDir, { recursive: true, force: true })

printTable(`Patent space on ${POINTS} synthetic points (${REQUESTS} sequential requests each)`, rows, [
  ["scenario", (r) => r.scenario],
  ["first ms", (r) => String(r.firstMs)],
  ["p50 ms", (r) => String(r.p50ms)],
  ["p95 ms", (r) => String(r.p95ms)],
  ["failures", (r) => String(r.failures)]
])
await writeResult("patent-map", { points: POINTS, requests: REQUESTS, atlasSeconds, voids: atlas.count, node: process.version, cpus: os.cpus().length, rows })
