/**
 * Serving record files (core/serving) at 100k, 1M and 10M keys: the structure every lookup route
 * reads. Shows that a lookup's cost does not grow with the corpus, and what the in-memory index
 * costs per key (the figure the README's memory plan for 10.5M applications rests on).
 *
 * Keys are 8-digit application numbers; records are ~250-byte JSON rows (a map point's size).
 * Files are written under .tmp/bench-serving (reused when present) and read warm from the page
 * cache, as a served version is after its first minutes.
 *
 *   node --import tsx bench/serving-records.ts [--sizes 100000,1000000,10000000] [--lookups 3000]
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { parseArgs } from "node:util"
import { seededRandom } from "../core/random.ts"
import { RecordFile } from "../core/serving/reader.ts"
import { RecordFileKind, recordFileNames } from "../core/serving/records.ts"
import { openRecordWriter } from "../pipeline/serving/write-records.ts"
import { printTable, writeResult } from "./report.ts"

const { values } = parseArgs({
  options: { sizes: { type: "string", default: "100000,1000000,10000000" }, lookups: { type: "string", default: "3000" } }
})
const sizes = values.sizes!.split(",").map(Number)
const lookups = Number(values.lookups)
const root = path.resolve(".tmp/bench-serving")

/** Application numbers spread like the collection's (series 10–17, sparse serials), in byte order. */
const appNum = (i: number, n: number) => String(10_000_000 + Math.floor((i * 89_999_999) / n)).padStart(8, "0")

const record = (i: number, app: string) => ({
  app_num: app,
  x: Math.sin(i) * 7.123456789,
  y: Math.cos(i) * 5.987654321,
  z: Math.sin(i / 3) * 3.14159,
  section: "ABCDEFGH"[i % 8],
  art_unit: String(1600 + (i % 1000)),
  filing_date: "2019-03-14",
  title: `SYSTEM AND METHOD FOR SYNTHETIC RECORD NUMBER ${i} WITH A TITLE OF TYPICAL LENGTH FOR A UTILITY APPLICATION`
})

const build = async (n: number) => {
  const dir = path.join(root, String(n))
  const done = await fs.stat(path.join(dir, recordFileNames("apps").index)).then(() => true, () => false)
  if (done) return { dir, writeSeconds: undefined }
  await fs.rm(dir, { recursive: true, force: true })
  const t0 = performance.now()
  const w = await openRecordWriter(dir, "apps", RecordFileKind.Keyed)
  for (let i = 0; i < n; i++) {
    const app = appNum(i, n)
    await w.add(app, record(i, app))
  }
  await w.finish()
  return { dir, writeSeconds: (performance.now() - t0) / 1000 }
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]
}

const rows = []
for (const n of sizes) {
  const { dir, writeSeconds } = await build(n)
  const heapBefore = process.memoryUsage().arrayBuffers
  const t0 = performance.now()
  const file = (await RecordFile.open<{ app_num: string }>(dir, "apps"))!
  const openMs = performance.now() - t0
  const indexBytes = file.indexBytes
  const random = seededRandom(7)
  const pick = () => appNum(Math.floor(random() * n), n)
  // Warm the page cache the way traffic does, then time.
  for (let i = 0; i < 2000; i++) await file.get(pick())
  const one: number[] = []
  for (let i = 0; i < lookups; i++) {
    const key = pick()
    const s = performance.now()
    const r = await file.get(key)
    one.push(performance.now() - s)
    if (r?.app_num !== key) throw new Error(`lookup of ${key} answered ${r?.app_num}`)
  }
  const batch: number[] = []
  for (let i = 0; i < lookups / 10; i++) {
    const keys = Array.from({ length: 25 }, pick)
    const s = performance.now()
    const found = await file.getMany(keys)
    batch.push(performance.now() - s)
    if (found.size !== new Set(keys).size) throw new Error("a batch lost keys")
  }
  const missing: number[] = []
  for (let i = 0; i < lookups; i++) {
    const s = performance.now()
    await file.get(`9${String(i).padStart(7, "0")}x`)
    missing.push(performance.now() - s)
  }
  const dataBytes = (await fs.stat(path.join(dir, recordFileNames("apps").data))).size
  rows.push({
    keys: n,
    writeSeconds: writeSeconds === undefined ? null : Math.round(writeSeconds * 10) / 10,
    openMs: Math.round(openMs),
    indexBytesPerKey: Math.round((indexBytes / n) * 10) / 10,
    indexMiB: Math.round(indexBytes / 2 ** 20),
    dataBytesPerKey: Math.round(dataBytes / n),
    getP50us: Math.round(quantile(one, 0.5) * 1000),
    getP99us: Math.round(quantile(one, 0.99) * 1000),
    get25P50us: Math.round(quantile(batch, 0.5) * 1000),
    get25P99us: Math.round(quantile(batch, 0.99) * 1000),
    missP50us: Math.round(quantile(missing, 0.5) * 1000),
    arrayBufferGrowthMiB: Math.round((process.memoryUsage().arrayBuffers - heapBefore) / 2 ** 20)
  })
  await file.close()
}

const base = rows[0]
printTable("Serving record files: lookups by application number (warm page cache, one process, sequential)", rows, [
  ["keys", (r) => r.keys.toLocaleString("en-US")],
  ["write s", (r) => (r.writeSeconds === null ? "reused" : String(r.writeSeconds))],
  ["open ms", (r) => String(r.openMs)],
  ["index B/key", (r) => String(r.indexBytesPerKey)],
  ["index MiB", (r) => String(r.indexMiB)],
  ["get p50 µs", (r) => String(r.getP50us)],
  ["get p99 µs", (r) => String(r.getP99us)],
  ["25 keys p50 µs", (r) => String(r.get25P50us)],
  ["25 keys p99 µs", (r) => String(r.get25P99us)],
  ["absent p50 µs", (r) => String(r.missP50us)],
  ["growth vs first", (r) => `${(r.get25P50us / base.get25P50us).toFixed(2)}×`]
])
await writeResult("serving-records", {
  benchmark: "serving-records",
  at: new Date().toISOString(),
  node: process.version,
  note: "before this structure the same lookups ran SQL over Parquet: POST /prior-art/claims (5 numbers) p50 14 ms at 9.4k and 108 ms at 100k applications (issue 16)",
  rows
})
