/**
 * Encoder, index, map and hub benchmark (issue 4), side by side in one run:
 *  - encoder throughput (documents/s, batches of 256) and single-query encode latency, on the
 *    sample artifacts' encoder and texts;
 *  - HNSW build rate, query latency p50/p99, recall@10 against exact search and index bytes per
 *    application, at 100k and 1M synthetic clustered unit vectors (256 dims);
 *  - map placement time for 100k vectors (UMAP on the 3,000-point sample + neighbour placement);
 *  - hub cold start to ready (process spawn → warm-up → ready).
 *
 *   node --import tsx bench/vectors.ts [--artifacts artifacts/current] [--sizes 100000,1000000]
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { parseArgs } from "node:util"
import { loadTextEncoder } from "../core/encoder/encoder.ts"
import { createIndex, exactSearch, type Quantization } from "../core/index/hnsw.ts"
import { seededRandom } from "../core/random.ts"
import { fitFrame, MAP_SAMPLE } from "../pipeline/map/stage.ts"
import { freePort } from "../test/support/hub-process.ts"
import { printTable, writeResult } from "./report.ts"

const { values } = parseArgs({
  options: {
    artifacts: { type: "string", default: "artifacts/current" },
    sizes: { type: "string", default: "100000,1000000" },
    quantization: { type: "string", default: "f16" }
  }
})
const DIMS = 256
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]
}

/** Clustered unit vectors: topics as random centres, documents as noisy copies (like patent space). */
const syntheticVectors = (n: number, seed = 7) => {
  const rnd = seededRandom(seed)
  const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd())
  const centres = Array.from({ length: 2000 }, () => Float32Array.from({ length: DIMS }, gauss))
  const m = new Float32Array(n * DIMS)
  for (let i = 0; i < n; i++) {
    const c = centres[Math.floor(rnd() * centres.length)]
    let norm = 0
    for (let d = 0; d < DIMS; d++) {
      const v = c[d] + 0.8 * gauss()
      m[i * DIMS + d] = v
      norm += v * v
    }
    norm = Math.sqrt(norm)
    for (let d = 0; d < DIMS; d++) m[i * DIMS + d] /= norm
  }
  return m
}

const encoderBench = async (artifacts: string) => {
  const encoder = await loadTextEncoder(path.join(artifacts, "encoder"))
  const { DuckDBInstance } = await import("@duckdb/node-api")
  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  const texts = (
    await conn.runAndReadAll(
      `SELECT coalesce(abstract, title) FROM read_parquet('${path.join(artifacts, "tables", "applications.parquet")}') WHERE coalesce(abstract, title) IS NOT NULL LIMIT 5000`
    )
  ).getRowsJS().map((r) => String(r[0]))
  const t0 = performance.now()
  for (let i = 0; i < texts.length; i += 256) await encoder.encode(texts.slice(i, i + 256))
  const docsPerSecond = texts.length / ((performance.now() - t0) / 1000)
  const lat: number[] = []
  for (const t of texts.slice(0, 300)) {
    const s = performance.now()
    await encoder.encode([t])
    lat.push(performance.now() - s)
  }
  await encoder.close()
  return { documents: texts.length, docsPerSecond, queryEncodeP50Ms: pct(lat, 50), queryEncodeP99Ms: pct(lat, 99) }
}

const indexBench = async (n: number, quantization: Quantization) => {
  const m = syntheticVectors(n)
  const index = createIndex(DIMS, quantization)
  const t0 = performance.now()
  index.add(BigUint64Array.from({ length: n }, (_, i) => BigInt(i)), m, 0)
  const buildSeconds = (performance.now() - t0) / 1000
  const rnd = seededRandom(11)
  const lat: number[] = []
  let hits = 0
  const queries = 300
  for (let q = 0; q < queries; q++) {
    const i = Math.floor(rnd() * n)
    const v = m.slice(i * DIMS, (i + 1) * DIMS)
    const s = performance.now()
    const approx = index.search(v, 10, 1)
    lat.push(performance.now() - s)
    if (q < 100) {
      const exact = exactSearch(m, v, DIMS, 10)
      const a = new Set(Array.from(approx.keys, Number))
      for (const k of exact.keys) if (a.has(Number(k))) hits++
    }
  }
  const file = path.join(os.tmpdir(), `bench-${n}.usearch`)
  index.save(file)
  const bytes = (await fs.stat(file)).size
  await fs.rm(file, { force: true })
  return { n, quantization, buildPerSecond: n / buildSeconds, buildSeconds, queryP50Ms: pct(lat, 50), queryP99Ms: pct(lat, 99), recallAt10: hits / 1000, bytesPerApplication: bytes / n }
}

const mapBench = (n: number) => {
  const m = syntheticVectors(n, 3)
  const t0 = performance.now()
  const step = n / MAP_SAMPLE
  const sampleIdx = Array.from({ length: MAP_SAMPLE }, (_, i) => Math.floor(i * step))
  const fitted = fitFrame(sampleIdx.map((i) => Array.from(m.subarray(i * DIMS, (i + 1) * DIMS))), 42)
  const fitSeconds = (performance.now() - t0) / 1000
  const sample = new Float32Array(MAP_SAMPLE * DIMS)
  sampleIdx.forEach((i, j) => sample.set(m.subarray(i * DIMS, (i + 1) * DIMS), j * DIMS))
  for (let i = 0; i < n; i++) exactSearch(sample, m.subarray(i * DIMS, (i + 1) * DIMS), DIMS, 8)
  return { n, fitSeconds, totalSeconds: (performance.now() - t0) / 1000, fittedPoints: fitted.length }
}

const hubColdStart = async (artifacts: string) => {
  // Spawned here rather than through startHub: the timing starts before the process does.
  const url = `http://127.0.0.1:${await freePort()}`
  const t0 = performance.now()
  const hub = spawn(process.execPath, ["--import", "tsx", "api/inference-hub/main.ts"], {
    env: { ...process.env, HUB_URL: url, ARTIFACTS_DIR: artifacts },
    stdio: "ignore"
  })
  try {
    while (!(await fetch(`${url}/status`).then((r) => r.ok, () => false))) await new Promise((r) => setTimeout(r, 20))
    const processUp = (performance.now() - t0) / 1000
    const w0 = performance.now()
    await fetch(`${url}/warmup`, { method: "POST" })
    while (!((await (await fetch(`${url}/status`)).json()) as { ready: boolean }).ready) await new Promise((r) => setTimeout(r, 10))
    return { processStartSeconds: processUp, modelLoadSeconds: (performance.now() - w0) / 1000, coldStartToReadySeconds: (performance.now() - t0) / 1000 }
  } finally {
    hub.kill("SIGTERM")
  }
}

const artifacts = path.resolve(values.artifacts!)
const sizes = values.sizes!.split(",").map(Number).filter((n) => n > 0)
const enc = await encoderBench(artifacts)
printTable("Encoder (LSA, ONNX, sample corpus texts)", [enc], [
  ["documents", (r) => String(r.documents)],
  ["docs/s", (r) => Math.round(r.docsPerSecond).toLocaleString("en-US")],
  ["query encode p50 ms", (r) => r.queryEncodeP50Ms.toFixed(2)],
  ["p99 ms", (r) => r.queryEncodeP99Ms.toFixed(2)]
])
const idx = []
for (const n of sizes) idx.push(await indexBench(n, values.quantization as Quantization))
printTable("HNSW index (usearch, cosine, synthetic clustered vectors)", idx, [
  ["vectors", (r) => r.n.toLocaleString("en-US")],
  ["quant", (r) => r.quantization],
  ["build/s", (r) => Math.round(r.buildPerSecond).toLocaleString("en-US")],
  ["build s", (r) => r.buildSeconds.toFixed(1)],
  ["query p50 ms", (r) => r.queryP50Ms.toFixed(3)],
  ["query p99 ms", (r) => r.queryP99Ms.toFixed(3)],
  ["recall@10", (r) => r.recallAt10.toFixed(3)],
  ["bytes/app", (r) => Math.round(r.bytesPerApplication).toString()]
])
const map = mapBench(Math.min(100_000, Math.max(...sizes, 10_000)))
printTable("Map stage (UMAP on sample + placement)", [map], [
  ["vectors", (r) => r.n.toLocaleString("en-US")],
  ["UMAP fit s", (r) => r.fitSeconds.toFixed(1)],
  ["total s", (r) => r.totalSeconds.toFixed(1)]
])
const hub = await hubColdStart(artifacts)
printTable("Hub cold start (spec's service: ~71 s; target < 3 s)", [hub], [
  ["process up s", (r) => r.processStartSeconds.toFixed(2)],
  ["model load s", (r) => r.modelLoadSeconds.toFixed(2)],
  ["cold start → ready s", (r) => r.coldStartToReadySeconds.toFixed(2)]
])
await writeResult("vectors", { machine: { cpus: os.cpus().length, node: process.version }, encoder: enc, index: idx, map, hub })
