/**
 * Memory per structure (issue 16): what each structure the API holds for one version costs, at
 * the sizes given, and what that makes per application and at 10.5M applications.
 *
 * One child process per version (node --expose-gc), which opens the structures one after another
 * the way the API does (core/search/open.ts and the serving record files of
 * api/artifacts/ArtifactStore.ts) and, after a full garbage collection, records what each added:
 * the JavaScript heap, memory outside it (typed arrays, buffers: `external`) and the resident set.
 * The vector index is memory-mapped: its file size is the most it can make resident, and what a
 * search touches is shown after a few hundred searches. DuckDB's own memory (the API's connection
 * pool, capped) is the resident set of the opened database before any structure is loaded.
 * Extrapolation to 10.5M is linear in the growth per added application, except for the resident
 * unit vectors, which are kept only within their budget (past it they are read by position).
 *
 *   node --import tsx bench/memory.ts --versions DIR[,DIR…] [--labels 100k,1M] [--no-write]
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { parseArgs } from "node:util"
import { defaultVectorBudgetBytes } from "../core/search/open.ts"
import { SERVING_DIR } from "../core/serving/records.ts"
import { type Column, printTable, writeResult } from "./report.ts"
import { openSearchTables } from "./search-tables.ts"

const NATIONAL = 10_500_000

interface Step {
  readonly structure: string
  readonly heapMb: number
  readonly externalMb: number
  readonly rssMb: number
  /** Bytes of a file the structure maps or holds open, where that is the right measure (mmap). */
  readonly fileMb?: number
  readonly note?: string
}

interface Measured {
  readonly versionDir: string
  readonly applications: number
  readonly vectors: number
  readonly steps: ReadonlyArray<Step>
  readonly totalRssMb: number
}

const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10

/** The child: opens one version's structures step by step and prints one JSON line. */
const measure = async (versionDir: string): Promise<Measured> => {
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc) throw new Error("run with --expose-gc")
  const settle = () => {
    gc()
    gc()
    const m = process.memoryUsage()
    return { heap: m.heapUsed, external: m.external, rss: m.rss }
  }
  const steps: Step[] = []
  let last = settle()
  const step = (structure: string, extra: { fileMb?: number; note?: string } = {}) => {
    const now = settle()
    steps.push({ structure, heapMb: mb(now.heap - last.heap), externalMb: mb(now.external - last.external), rssMb: mb(now.rss - last.rss), ...extra })
    last = now
  }

  const tables = await openSearchTables(versionDir, { threads: "2", memory_limit: "4GB" })
  const rows = tables.rows
  step("DuckDB, views opened")

  const { loadSearchCorpus } = await import("../core/search/corpus.ts")
  const { viewIndex } = await import("../core/index/hnsw.ts")
  const { readVectorFile, vectorFilePath } = await import("../core/index/vector-file.ts")
  const { DenseChannel } = await import("../core/search/dense.ts")
  const { LexicalIndex } = await import("../core/search/lexical.ts")
  const { StoredDocuments } = await import("../core/search/stored.ts")
  const { CitationGraph, loadCitationEdges } = await import("../core/search/citations.ts")
  const { vectorsFitBudget } = await import("../core/search/open.ts")
  const { RecordFile } = await import("../core/serving/reader.ts")
  step("code loaded")

  const info = JSON.parse(fs.readFileSync(path.join(versionDir, "index", "index.json"), "utf8")) as { dims: number; quantization: "b1" | "i8" | "f16" | "f32" }
  const corpus = await loadSearchCorpus(rows)
  step("search corpus (application numbers, key map, filing dates, countries, CPC subclasses)")

  const indexFile = path.join(versionDir, "index", "hnsw.usearch")
  const index = viewIndex(indexFile, info.dims, info.quantization)
  step(`vector index (${info.quantization}, memory-mapped; file size is the most it makes resident)`, { fileMb: mb(fs.statSync(indexFile).size) })

  const resident = vectorsFitBudget(corpus.vectorCount, info.dims)
  const vectors = resident ? await readVectorFile(vectorFilePath(versionDir), info.dims, corpus.vectorCount) : undefined
  const dense = new DenseChannel(index, info.dims, corpus.vectorCount, vectors)
  step(resident ? "resident unit vectors (within a quarter of RAM)" : "unit vectors (over a quarter of RAM: read by position from vectors.f32)", {
    fileMb: mb(fs.statSync(vectorFilePath(versionDir)).size)
  })

  const lexical = fs.existsSync(path.join(versionDir, "lexical", "postings.bin")) ? await LexicalIndex.open(versionDir, rows, corpus) : undefined
  step("lexical index (term dictionary, document keys; postings read by position)", { fileMb: mb(fs.statSync(path.join(versionDir, "lexical", "postings.bin")).size) })

  const stored = await StoredDocuments.open(versionDir, rows, corpus.keyOf, corpus.size)
  step("stored documents (offsets; texts read by position)")

  let graph: InstanceType<typeof CitationGraph> | undefined = new CitationGraph(corpus.size, await loadCitationEdges(rows, corpus.keyOf))
  step("citation graph (both directions, typed arrays)")

  const names = fs.readdirSync(path.join(versionDir, SERVING_DIR)).filter((n) => n.endsWith(".idx")).map((n) => n.slice(0, -4)).sort()
  const records: Array<{ readonly indexBytes: number }> = []
  for (const name of names) {
    const file = await RecordFile.open(versionDir, name)
    if (file) records.push(file)
  }
  step(`serving record indexes (${names.length} files: ${names.join(", ")})`, {
    note: `${mb(records.reduce((s, r) => s + r.indexBytes, 0))} MB of index arrays`
  })

  // What searches make resident of the mapped index: a few hundred dense searches from stored vectors.
  const rssBefore = process.memoryUsage().rss
  const probe = new Float32Array(info.dims)
  const rowsOf = await rows(`SELECT vector FROM embeddings USING SAMPLE 300 ROWS`)
  for (const r of rowsOf) {
    probe.set(r.vector as number[])
    dense.search(probe, { depth: 100 })
  }
  steps.push({ structure: "300 dense searches (pages of the mapped index and vectors touched)", heapMb: 0, externalMb: 0, rssMb: mb(process.memoryUsage().rss - rssBefore) })

  const measured: Measured = { versionDir, applications: corpus.size, vectors: corpus.vectorCount, steps, totalRssMb: mb(process.memoryUsage().rss) }
  // Keep every structure reachable until measured.
  void [lexical, stored, graph, records, vectors]
  graph = undefined
  tables.close()
  return measured
}

if (process.argv.includes("--child")) {
  const dir = process.argv[process.argv.indexOf("--child") + 1]!
  process.stdout.write(`MEASURED ${JSON.stringify(await measure(dir))}\n`)
  process.exit(0)
}

const { values } = parseArgs({
  options: {
    versions: { type: "string" },
    labels: { type: "string" },
    "no-write": { type: "boolean", default: false }
  }
})
if (!values.versions) {
  process.stderr.write("usage: bench/memory.ts --versions DIR[,DIR…] [--labels A,B] [--no-write]\n")
  process.exit(2)
}
const dirs = values.versions.split(",").map((d) => fs.realpathSync(d))
const labels = values.labels?.split(",") ?? dirs.map((d) => path.basename(d))

const runChild = (dir: string) =>
  new Promise<Measured>((resolve, reject) => {
    const p = spawn(process.execPath, ["--expose-gc", "--max-old-space-size=16384", "--import", "tsx", import.meta.filename, "--child", dir], { stdio: ["ignore", "pipe", "inherit"] })
    let out = ""
    p.stdout.on("data", (b: Buffer) => (out += b.toString()))
    p.on("close", (code) => {
      const line = out.split("\n").find((l) => l.startsWith("MEASURED "))
      if (code === 0 && line) resolve(JSON.parse(line.slice("MEASURED ".length)) as Measured)
      else reject(new Error(`measuring ${dir} exited ${code}: ${out.slice(-500)}`))
    })
  })

const measured: Measured[] = []
for (const dir of dirs) measured.push(await runChild(dir))

const structures = measured[0]!.steps.map((s) => s.structure)
interface Row {
  readonly structure: string
  readonly bySize: ReadonlyArray<Step | undefined>
}
const rows: Row[] = structures.map((structure) => ({ structure, bySize: measured.map((m) => m.steps.find((s) => s.structure === structure)) }))
/** What a structure holds: its heap and external bytes, or for a mapped file the file (the most it makes resident). */
const held = (s: Step | undefined) => (s ? Math.max(0, s.heapMb + s.externalMb, s.structure.includes("memory-mapped") ? (s.fileMb ?? 0) : 0) : 0)
const largest = measured.at(-1)!
const smallest = measured[0]!
/**
 * Bytes per application: with two sizes, the growth between them per added application (fixed
 * costs such as loaded code or the CPC subclass table drop out); with one, the average.
 */
/** The machine the 10.5M column is for (issue 16: the national corpus served from one 64 GB machine). */
const TARGET_MEMORY = 64 * 2 ** 30
/** Resident vectors are kept only up to the budget there (core/search/open.ts): past it they are read by position, none resident. */
const capped = (r: Row, bytes: number) => (r.structure.startsWith("resident unit vectors") && bytes > defaultVectorBudgetBytes(TARGET_MEMORY) ? 0 : bytes)
const perApp = (r: Row) => {
  const [a, b] = [held(r.bySize[0]), held(r.bySize.at(-1))]
  const apps = largest.applications - (measured.length > 1 ? smallest.applications : 0)
  return ((measured.length > 1 ? b - a : b) * 2 ** 20) / Math.max(1, apps)
}
const columns: Array<Column<Row>> = [
  ["structure", (r) => r.structure.slice(0, 70)],
  ...measured.flatMap((m, i): Array<Column<Row>> => [
    [`${labels[i]} held MB`, (r) => held(r.bySize[i]).toFixed(1)],
    [`${labels[i]} RSS MB`, (r) => String(r.bySize[i]?.rssMb ?? "-")]
  ]),
  [measured.length > 1 ? `B/app (${labels[0]} → ${labels.at(-1)})` : "B/app", (r) => perApp(r).toFixed(0)],
  ["10.5M GB", (r) => (capped(r, perApp(r) * NATIONAL) / 2 ** 30).toFixed(2)]
]
printTable("Memory per structure, API side (held: heap + external after GC, or a mapped file's size; RSS: resident set added)", rows, columns)
for (const [i, m] of measured.entries()) process.stdout.write(`${labels[i]}: ${m.applications} applications, ${m.vectors} vectors, process RSS ${m.totalRssMb} MB at the end\n`)

if (!values["no-write"]) {
  await writeResult("memory", {
    benchmark: "memory",
    at: new Date().toISOString(),
    national: NATIONAL,
    sizes: measured.map((m, i) => ({ label: labels[i], ...m })),
    perApplication: Object.fromEntries(rows.map((r) => [r.structure, Math.round(perApp(r))])),
    extrapolatedGb: Object.fromEntries(rows.map((r) => [r.structure, Math.round((capped(r, perApp(r) * NATIONAL) / 2 ** 30) * 100) / 100])),
    extrapolatedTotalGb: Math.round((rows.reduce((sum, r) => sum + capped(r, perApp(r) * NATIONAL), 0) / 2 ** 30) * 100) / 100,
    vectorBudgetBytes: { here: defaultVectorBudgetBytes(), target: defaultVectorBudgetBytes(TARGET_MEMORY) }
  })
}
