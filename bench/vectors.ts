/**
 * Encoder, index, map and hub benchmark (issue 4), side by side in one run:
 *  - encoder throughput (documents/s, batches of 256) and single-query encode latency, on the
 *    sample artifacts' encoder and texts;
 *  - the vector index as served (HNSW candidates re-scored exactly from vectors.f32), today's f16
 *    beside the b1 codes the embed stage now prefers: bytes per application (the whole
 *    hnsw.usearch file), build time, recall@10 against exact search (raw HNSW and end to end,
 *    with a sweep of candidate counts), query p50/p99 (file re-scoring as the patent map does,
 *    resident re-scoring as prior-art does, and the dense channel at its default pool of 100),
 *    at 100k and 1M synthetic clustered unit vectors (256 dims);
 *  - map placement time for 100k vectors (UMAP on the 3,000-point sample + neighbour placement);
 *  - hub cold start to ready (process spawn → warm-up → ready), from its bundle as `make serve`
 *    starts it and from its sources through tsx;
 *  - query encoding through the warm hub's /encode over HTTP, one text per request, as the API asks.
 *
 *   node --import tsx bench/vectors.ts [--artifacts artifacts/current] [--sizes 100000,1000000]
 *     [--variants f16,b1] [--index-only] [--hub-only]
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { parseArgs } from "node:util"
import { loadTextEncoder } from "../core/encoder/encoder.ts"
import { binaryCoder } from "../core/index/binary-codes.ts"
import { exactSearch, type Quantization, viewIndex } from "../core/index/hnsw.ts"
import { candidatesFor, residentVectors } from "../core/index/rescore.ts"
import { VECTOR_FILE, writeVectorFile } from "../core/index/vector-file.ts"
import { seededRandom } from "../core/random.ts"
import { DenseChannel } from "../core/search/dense.ts"
import { B1_CODE_BLOCKS, buildIndex } from "../pipeline/embed/build-index.ts"
import { fitFrame, MAP_SAMPLE } from "../pipeline/map/stage.ts"
import { hubCommand } from "../api/hub/bundle.ts"
import { freePort, startHub } from "../test/support/hub-process.ts"
import { printTable, writeResult } from "./report.ts"

const { values } = parseArgs({
  options: {
    artifacts: { type: "string", default: "artifacts/current" },
    sizes: { type: "string", default: "100000,1000000" },
    variants: { type: "string", default: "b1,f16" },
    "index-only": { type: "boolean", default: false },
    /** Only the hub's cold start and query encoding (prints them; writes nothing). */
    "hub-only": { type: "boolean", default: false }
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

/** An index form to measure: today's f16, or the compact b1 codes the embed stage now prefers. */
interface Variant {
  readonly label: string
  readonly quantization: Quantization
  readonly connectivity?: number
  readonly codeBlocks?: number
}
const VARIANTS: Record<string, Variant> = {
  f16: { label: "f16 M16", quantization: "f16" },
  i8: { label: "i8 M16", quantization: "i8" },
  b1: { label: `b1×${B1_CODE_BLOCKS} M16`, quantization: "b1" },
  b1x1: { label: "b1×1 M16", quantization: "b1", codeBlocks: 1 },
  "i8-m6": { label: "i8 M6", quantization: "i8", connectivity: 6 }
}
/** Candidate counts swept for k = 10 (re-scored exactly), to show where recall saturates. */
const SWEEP = [10, 20, 40, 64, 100, 128, 160, 256]
const QUERIES = 300
const RECALL_QUERIES = 100
const DENSE_RECALL_QUERIES = 30

/** Hits of `found` among the exact top 10 (ties at the 10th distance count). */
const hitsOf = (found: ArrayLike<bigint>, exact: { keys: BigUint64Array; distances: Float32Array }, foundCos?: ArrayLike<number>) => {
  const inExact = new Set(Array.from(exact.keys, Number))
  let hits = 0
  for (let i = 0; i < Math.min(10, found.length); i++) if (inExact.has(Number(found[i])) || (foundCos && 1 - foundCos[i] <= exact.distances[9] + 1e-6)) hits++
  return hits
}

const indexBench = async (n: number, m: Float32Array, variant: Variant) => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "bench-index-"))
  try {
    const t0 = performance.now()
    const { raw, info, served: resident } = buildIndex(m, DIMS, variant.quantization, variant)
    const buildSeconds = (performance.now() - t0) / 1000
    const file = path.join(dir, "hnsw.usearch")
    raw.save(file)
    const bytes = (await fs.stat(file)).size
    await fs.writeFile(path.join(dir, "index.json"), JSON.stringify({ ...info, metric: "cos" }))
    await writeVectorFile(path.join(dir, VECTOR_FILE), m)
    // As the routes open it: memory-mapped, candidates re-scored by positioned reads of vectors.f32.
    const served = viewIndex(file, DIMS, variant.quantization)
    const dense = new DenseChannel(served, DIMS, n, m)
    const rnd = seededRandom(11)
    const lat: number[] = []
    const residentLat: number[] = []
    const denseLat: number[] = []
    let hits = 0
    let rawHits = 0
    let denseHits = 0
    const sweep = SWEEP.map(() => 0)
    for (let q = 0; q < QUERIES; q++) {
      const i = Math.floor(rnd() * n)
      const v = m.slice(i * DIMS, (i + 1) * DIMS)
      let s = performance.now()
      const found = served.search(v, 10, 1)
      lat.push(performance.now() - s)
      s = performance.now()
      resident.search(v, 10, 1)
      residentLat.push(performance.now() - s)
      s = performance.now()
      // The prior-art dense channel at its default pool (100, over-fetched by 16 for exclusions).
      const pool = dense.search(v, { depth: 100 })
      denseLat.push(performance.now() - s)
      if (q < DENSE_RECALL_QUERIES) {
        const exact = exactSearch(m, v, DIMS, 100)
        const inExact = new Set(Array.from(exact.keys, Number))
        denseHits += pool.hits.filter((h) => inExact.has(h.key) || 1 - h.score <= exact.distances[99] + 1e-6).length
      }
      if (q < RECALL_QUERIES) {
        const exact = exactSearch(m, v, DIMS, 10)
        hits += hitsOf(found.keys, exact, Array.from(found.distances, (d) => 1 - d))
        const coded = info.codes ? binaryCoder(info.codes).rotate(v) : v
        rawHits += hitsOf(raw.search(coded, 10, 1).keys, exact)
        SWEEP.forEach((c, j) => {
          const keys = Array.from(raw.search(coded, c, 1).keys, Number)
          const cos = residentVectors(m, DIMS).cosines(v, keys)
          const order = keys.map((_, x) => x).sort((a, b) => cos[b] - cos[a]).slice(0, 10)
          sweep[j] += hitsOf(order.map((x) => BigInt(keys[x])), exact, order.map((x) => cos[x]))
        })
      }
    }
    return {
      n,
      variant: variant.label,
      quantization: variant.quantization,
      connectivity: info.connectivity,
      codeBits: info.codes ? binaryCoder(info.codes).bits : undefined,
      candidatesAt10: candidatesFor(variant.quantization, 10, n),
      buildPerSecond: n / buildSeconds,
      buildSeconds,
      bytesPerApplication: bytes / n,
      recallAt10: hits / (RECALL_QUERIES * 10),
      rawRecallAt10: rawHits / (RECALL_QUERIES * 10),
      recallByCandidates: Object.fromEntries(SWEEP.map((c, j) => [c, sweep[j] / (RECALL_QUERIES * 10)])),
      queryP50Ms: pct(lat, 50),
      queryP99Ms: pct(lat, 99),
      residentQueryP50Ms: pct(residentLat, 50),
      residentQueryP99Ms: pct(residentLat, 99),
      denseRecallAt100: denseHits / (DENSE_RECALL_QUERIES * 100),
      densePool100P50Ms: pct(denseLat, 50),
      densePool100P99Ms: pct(denseLat, 99)
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true })
  }
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

/** CPU seconds (user + system) a process has used so far, from /proc (undefined elsewhere). */
const cpuSecondsOf = async (pid: number | undefined) => {
  const stat = await fs.readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined)
  if (stat === undefined) return undefined
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/**
 * Hub cold start, timed from before the process exists to `ready`: started as the supervisor
 * starts it (its esbuild bundle, api/hub/bundle.ts, made beforehand as a previous start would
 * have) and, for comparison, from its sources through tsx.
 */
const hubColdStart = async (artifacts: string, how: "bundle" | "tsx") => {
  const url = `http://127.0.0.1:${await freePort()}`
  const args = how === "bundle" ? await hubCommand() : ["--import", "tsx", "api/inference-hub/main.ts"]
  if (how === "bundle" && args.includes("tsx")) throw new Error("the hub bundle could not be made")
  const t0 = performance.now()
  const hub = spawn(process.execPath, [...args], { env: { ...process.env, HUB_URL: url, ARTIFACTS_DIR: artifacts }, stdio: "ignore" })
  try {
    while (!(await fetch(`${url}/status`).then((r) => r.ok, () => false))) await new Promise((r) => setTimeout(r, 20))
    const processUp = (performance.now() - t0) / 1000
    const w0 = performance.now()
    await fetch(`${url}/warmup`, { method: "POST" })
    while (!((await (await fetch(`${url}/status`)).json()) as { ready: boolean }).ready) await new Promise((r) => setTimeout(r, 10))
    const ready = (performance.now() - t0) / 1000
    return { how, processStartSeconds: processUp, modelLoadSeconds: (performance.now() - w0) / 1000, coldStartToReadySeconds: ready, cpuSecondsToReady: await cpuSecondsOf(hub.pid) }
  } finally {
    hub.kill("SIGTERM")
    await new Promise((r) => (hub.exitCode !== null ? r(undefined) : hub.once("exit", r)))
  }
}

/** Three starts each, alternating, so both see the same machine; the median start is reported with the range. */
const hubColdStarts = async (artifacts: string) => {
  const runs: Array<Awaited<ReturnType<typeof hubColdStart>>> = []
  for (let i = 0; i < 3; i++) for (const how of ["bundle", "tsx"] as const) runs.push(await hubColdStart(artifacts, how))
  return (["bundle", "tsx"] as const).map((how) => {
    const mine = runs.filter((r) => r.how === how).sort((a, b) => a.coldStartToReadySeconds - b.coldStartToReadySeconds)
    const median = mine[Math.floor(mine.length / 2)]!
    return { ...median, minSeconds: mine[0]!.coldStartToReadySeconds, maxSeconds: mine[mine.length - 1]!.coldStartToReadySeconds, loadAverage: os.loadavg()[0] }
  })
}

/**
 * Query encoding as the API asks for it: one text per POST to the hub's /encode over loopback HTTP
 * (the hub started from its bundle and warm), for a phrase (a title), a sentence (an abstract's
 * first sentence) and a whole query (abstract + first claim), 300 of each in turn.
 */
const hubQueryEncoding = async (artifacts: string) => {
  const { DuckDBInstance } = await import("@duckdb/node-api")
  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  const rows = (
    await conn.runAndReadAll(
      `SELECT a.title, a.abstract, c.text FROM read_parquet('${path.join(artifacts, "tables", "applications.parquet")}') a
       JOIN read_parquet('${path.join(artifacts, "tables", "claims.parquet")}') c ON c.app_num = a.app_num AND c.claim_num = 1
       WHERE a.abstract IS NOT NULL AND a.title IS NOT NULL ORDER BY hash(a.app_num) LIMIT 300`
    )
  ).getRowsJS() as string[][]
  db.closeSync()
  const kinds: Array<[string, (r: string[]) => string]> = [
    ["phrase (a title)", (r) => r[0]],
    ["sentence (an abstract's first)", (r) => r[1].split(/(?<=\.)\s/)[0]],
    ["abstract + first claim", (r) => `${r[1]}\n${r[2]}`]
  ]
  const hub = await startHub(artifacts)
  const url = hub.url
  try {
    await fetch(`${url}/warmup`, { method: "POST" })
    while (!((await (await fetch(`${url}/status`)).json()) as { ready: boolean }).ready) await new Promise((r) => setTimeout(r, 10))
    const encode = async (text: string) => {
      const t = performance.now()
      const r = await fetch(`${url}/encode`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ texts: [text] }) })
      const body = (await r.json()) as { vectors?: number[][] }
      if (!r.ok || !body.vectors?.[0]?.length) throw new Error(`/encode answered ${r.status}`)
      return performance.now() - t
    }
    for (const r of rows.slice(0, 50)) await encode(kinds[2][1](r)) // warm the connection and the word cache's first entries
    const out = []
    for (const [kind, text] of kinds) {
      const ms: number[] = []
      for (const r of rows) ms.push(await encode(text(r)))
      out.push({ kind, requests: ms.length, p50Ms: pct(ms, 50), p99Ms: pct(ms, 99), loadAverage: os.loadavg()[0] })
    }
    return out
  } finally {
    await hub.stop()
  }
}

const printQueryEncoding = (rows: Awaited<ReturnType<typeof hubQueryEncoding>>) =>
  printTable("Query encoding through the hub's /encode, one text per request over loopback HTTP (target p50 < 5 ms)", rows, [
    ["query", (r) => r.kind],
    ["requests", (r) => String(r.requests)],
    ["p50 ms", (r) => r.p50Ms.toFixed(2)],
    ["p99 ms", (r) => r.p99Ms.toFixed(2)],
    ["load avg", (r) => r.loadAverage.toFixed(1)]
  ])

const artifacts = path.resolve(values.artifacts!)
if (values["hub-only"]) {
  const hub = await hubColdStarts(artifacts)
  console.log(JSON.stringify(hub, null, 1))
  printQueryEncoding(await hubQueryEncoding(artifacts))
  process.exit(0)
}
const sizes = values.sizes!.split(",").map(Number).filter((n) => n > 0)
const idx: Awaited<ReturnType<typeof indexBench>>[] = []
for (const n of sizes) {
  const m = syntheticVectors(n)
  for (const name of values.variants!.split(",")) {
    const r = await indexBench(n, m, VARIANTS[name])
    process.stdout.write(`${JSON.stringify(r)}\n`)
    idx.push(r)
  }
}
printTable("Vector index at 256 dims, synthetic clustered vectors: served recall@10 = HNSW candidates re-scored exactly from vectors.f32", idx, [
  ["vectors", (r) => r.n.toLocaleString("en-US")],
  ["index", (r) => r.variant],
  ["bytes/app", (r) => Math.round(r.bytesPerApplication).toString()],
  ["build s", (r) => r.buildSeconds.toFixed(1)],
  ["cands@10", (r) => String(r.candidatesAt10)],
  ["raw recall@10", (r) => r.rawRecallAt10.toFixed(3)],
  ["recall@10", (r) => r.recallAt10.toFixed(3)],
  ["p50 ms", (r) => r.queryP50Ms.toFixed(3)],
  ["p99 ms", (r) => r.queryP99Ms.toFixed(3)],
  ["resident p50", (r) => r.residentQueryP50Ms.toFixed(3)],
  ["resident p99", (r) => r.residentQueryP99Ms.toFixed(3)],
  ["dense recall@100", (r) => r.denseRecallAt100.toFixed(3)],
  ["dense 100 p50", (r) => r.densePool100P50Ms.toFixed(3)],
  ["dense 100 p99", (r) => r.densePool100P99Ms.toFixed(3)]
])
printTable("Recall@10 by candidates re-scored (k = 10)", idx, [
  ["vectors", (r) => r.n.toLocaleString("en-US")],
  ["index", (r) => r.variant],
  ...SWEEP.map((c) => [String(c), (r: (typeof idx)[number]) => r.recallByCandidates[c].toFixed(3)] as const)
])
if (values["index-only"]) process.exit(0)
const enc = await encoderBench(artifacts)
printTable("Encoder (LSA, ONNX, sample corpus texts)", [enc], [
  ["documents", (r) => String(r.documents)],
  ["docs/s", (r) => Math.round(r.docsPerSecond).toLocaleString("en-US")],
  ["query encode p50 ms", (r) => r.queryEncodeP50Ms.toFixed(2)],
  ["p99 ms", (r) => r.queryEncodeP99Ms.toFixed(2)]
])
const map = mapBench(Math.min(100_000, Math.max(...sizes, 10_000)))
printTable("Map stage (UMAP on sample + placement)", [map], [
  ["vectors", (r) => r.n.toLocaleString("en-US")],
  ["UMAP fit s", (r) => r.fitSeconds.toFixed(1)],
  ["total s", (r) => r.totalSeconds.toFixed(1)]
])
const hub = await hubColdStarts(artifacts)
printTable("Hub cold start to ready, median of 3 (target < 1 s; the spec's service: ~71 s)", hub, [
  ["started from", (r) => (r.how === "bundle" ? "bundle (as make serve starts it)" : "sources through tsx")],
  ["process up s", (r) => r.processStartSeconds.toFixed(2)],
  ["model load s", (r) => r.modelLoadSeconds.toFixed(2)],
  ["cold start → ready s", (r) => r.coldStartToReadySeconds.toFixed(2)],
  ["range s", (r) => `${r.minSeconds.toFixed(2)}–${r.maxSeconds.toFixed(2)}`],
  ["CPU s to ready", (r) => r.cpuSecondsToReady?.toFixed(2) ?? "—"],
  ["load avg", (r) => r.loadAverage.toFixed(1)]
])
const hubEncoding = await hubQueryEncoding(artifacts)
printQueryEncoding(hubEncoding)
await writeResult("vectors", { machine: { cpus: os.cpus().length, node: process.version }, encoder: enc, index: idx, map, hub, hubEncoding })
