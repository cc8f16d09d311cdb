/**
 * Ingest benchmark: applications per second and peak memory (max RSS) of the ingest stage on
 * the sample corpus and on a synthetic corpus (generated with `make synth` if missing):
 *
 * - with one worker thread and with all of them (INGEST_WORKERS), from scratch;
 * - an incremental build: the synthetic corpus without its last weekly grant file is built, the
 *   file is added, and the build over the grown corpus (which reads only that file and reuses
 *   every other object's partition) is timed against the from-scratch build with all workers.
 *
 * Each run is a fresh child process so peak memory is that run's alone. The load average is
 * recorded before and after each run: on a machine shared with other work, parallel speed-ups
 * are understated, and the figures say so.
 *
 *   npx tsx bench/ingest.ts [--synth N]     → prints a table, writes bench/results/ingest.json
 */
import { execFileSync, spawnSync } from "node:child_process"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { parseArgs } from "node:util"
import { printTable, writeResult } from "./report.ts"

const { values } = parseArgs({
  options: { synth: { type: "string", default: "20000" }, child: { type: "string" }, root: { type: "string" } }
})

const loadAverage = () => os.loadavg().map((l) => Number(l.toFixed(2)))

/** Child mode: ingest one corpus into `root` and print the measurements as JSON. */
const child = async (corpus: string, root: string) => {
  const { Effect } = await import("effect")
  const { CorpusStore } = await import("../pipeline/corpus/CorpusStore.ts")
  const { ingestStage } = await import("../pipeline/ingest/stage.ts")
  const { runPipeline } = await import("../pipeline/stages/runner.ts")
  const loadBefore = loadAverage()
  const t0 = performance.now()
  // The merge starts when the stage says so: reading and merging are timed apart.
  let mergeAt: number | undefined
  const progress = {
    stage: () => {},
    tick: () => {},
    done: () => {},
    info: (line: string) => {
      if (line.startsWith("merging ")) mergeAt = performance.now()
    }
  }
  const out = await Effect.runPromise(
    runPipeline({ corpus, artifactsRoot: root, stages: [ingestStage], progress }).pipe(Effect.provide(CorpusStore.Default))
  )
  const end = performance.now()
  const seconds = (end - t0) / 1000
  const rec = out.manifest.stages[0]
  const inputBytes = out.manifest.corpus.files.reduce((a, f) => a + f.bytes, 0)
  const largestFile = Math.max(...out.manifest.corpus.files.map((f) => f.bytes))
  process.stdout.write(
    JSON.stringify({
      applications: rec.rowCounts.applications,
      claims: rec.rowCounts.claims,
      seconds,
      readSeconds: mergeAt === undefined ? undefined : (mergeAt - t0) / 1000,
      mergeSeconds: mergeAt === undefined ? undefined : (end - mergeAt) / 1000,
      applicationsPerSecond: rec.rowCounts.applications / seconds,
      peakRssMiB: process.resourceUsage().maxRSS / 1024,
      // CPU time of every thread of the run: under load the wall clock says little about scaling,
      // CPU seconds per application say what the threads cost.
      cpuSeconds: (process.resourceUsage().userCPUTime + process.resourceUsage().systemCPUTime) / 1e6,
      inputMiB: inputBytes / 2 ** 20,
      largestFileMiB: largestFile / 2 ** 20,
      objects: out.manifest.corpus.files.length,
      skipped: rec.skipped.count,
      notes: rec.notes ?? [],
      hashes: Object.fromEntries(rec.outputs.filter((o) => o.path.startsWith("tables/")).map((o) => [o.path, o.contentHash])),
      loadBefore,
      loadAfter: loadAverage()
    })
  )
}

interface Run {
  readonly corpus: string
  readonly workers: string
  readonly build: string
  readonly applications: number
  readonly seconds: number
  readonly readSeconds?: number
  readonly mergeSeconds?: number
  readonly applicationsPerSecond: number
  readonly peakRssMiB: number
  readonly cpuSeconds: number
  readonly inputMiB: number
  readonly largestFileMiB: number
  readonly objects: number
  readonly skipped: number
  readonly notes: ReadonlyArray<string>
  readonly hashes: Readonly<Record<string, string>>
  readonly loadBefore: ReadonlyArray<number>
  readonly loadAfter: ReadonlyArray<number>
}

const measure = async (label: string, build: string, corpus: string, workers: number | undefined, root?: string): Promise<Run> => {
  const dir = root ?? (await fs.mkdtemp(path.join(os.tmpdir(), "bench-ingest-")))
  try {
    const env = { ...process.env }
    if (workers === undefined) delete env.INGEST_WORKERS
    else env.INGEST_WORKERS = String(workers)
    const r = spawnSync(process.execPath, ["--import", "tsx", "bench/ingest.ts", "--child", corpus, "--root", dir], {
      encoding: "utf8",
      maxBuffer: 64 * 2 ** 20,
      env
    })
    if (r.status !== 0) throw new Error(`${label}: ${r.stderr}`)
    const result = JSON.parse(r.stdout.trim().split("\n").pop()!)
    return { corpus: label, workers: String(workers ?? os.availableParallelism()), build, ...result }
  } finally {
    if (!root) await fs.rm(dir, { recursive: true, force: true })
  }
}

/**
 * The synthetic corpus without its newest weekly grant file, as hard links (no copy): the corpus
 * as it was a week before, for the incremental run.
 */
const weekBefore = async (corpus: string, out: string) => {
  const grants = (await fs.readdir(path.join(corpus, "uspto", "grants"))).sort()
  const last = path.join("uspto", "grants", grants[grants.length - 1])
  await fs.rm(out, { recursive: true, force: true })
  const walk = async (rel: string): Promise<void> => {
    for (const e of await fs.readdir(path.join(corpus, rel), { withFileTypes: true })) {
      const r = path.join(rel, e.name)
      if (e.isDirectory()) {
        await fs.mkdir(path.join(out, r), { recursive: true })
        await walk(r)
      } else if (r !== last) await fs.link(path.join(corpus, r), path.join(out, r))
    }
  }
  await fs.mkdir(out, { recursive: true })
  await walk("")
  return last
}

const main = async () => {
  const n = Number(values.synth)
  const synthDir = path.resolve(`.tmp/synth-${n}`)
  const haveSynth = await fs.stat(path.join(synthDir, "uspto")).then(() => true, () => false)
  if (!haveSynth && n > 0) {
    execFileSync(process.execPath, ["--import", "tsx", "pipeline/synth/main.ts", "--n", String(n), "--out", synthDir, "--seed", "42"], {
      stdio: "inherit"
    })
  }
  const rows: Run[] = [await measure("sample", "full", path.resolve("pipeline/sample-corpus"), undefined)]
  let speedup: number | undefined
  let readSpeedup: number | undefined
  let incrementalShare: number | undefined
  let added: string | undefined
  if (n > 0) {
    const label = `synthetic ${n.toLocaleString("en-US")}`
    const one = await measure(label, "full", synthDir, 1)
    const all = await measure(label, "full", synthDir, undefined)
    rows.push(one, all)
    speedup = all.applicationsPerSecond / one.applicationsPerSecond
    // The merge runs on every core in both runs (DuckDB's threads): the reading phase is what the workers speed up.
    readSpeedup = one.readSeconds! / all.readSeconds!
    // Incremental: the week before, built in full, then the grown corpus over it.
    const root = await fs.mkdtemp(path.join(os.tmpdir(), "bench-ingest-incremental-"))
    const before = path.resolve(`.tmp/synth-${n}-week-before`)
    try {
      added = await weekBefore(synthDir, before)
      rows.push(await measure(`${label} minus ${path.basename(added)}`, "full", before, undefined, root))
      const incremental = await measure(label, `incremental (+${path.basename(added)})`, synthDir, undefined, root)
      rows.push(incremental)
      incrementalShare = incremental.seconds / all.seconds
      if (JSON.stringify(incremental.hashes) !== JSON.stringify(all.hashes)) throw new Error("incremental ingest gave other tables than the full ingest")
    } finally {
      await fs.rm(root, { recursive: true, force: true })
      await fs.rm(before, { recursive: true, force: true })
    }
  }
  printTable("Ingest", rows, [
    ["corpus", (r) => r.corpus],
    ["build", (r) => r.build],
    ["workers", (r) => r.workers],
    ["applications", (r) => r.applications.toLocaleString("en-US")],
    ["seconds", (r) => r.seconds.toFixed(1)],
    ["read s", (r) => r.readSeconds?.toFixed(1) ?? "–"],
    ["merge s", (r) => r.mergeSeconds?.toFixed(1) ?? "–"],
    ["apps/s", (r) => Math.round(r.applicationsPerSecond).toLocaleString("en-US")],
    ["CPU s", (r) => r.cpuSeconds.toFixed(0)],
    ["peak RSS MiB", (r) => r.peakRssMiB.toFixed(0)],
    ["input MiB (gz)", (r) => r.inputMiB.toFixed(1)],
    ["skipped", (r) => String(r.skipped)],
    ["load avg before → after", (r) => `${r.loadBefore[0]} → ${r.loadAfter[0]}`]
  ])
  if (speedup !== undefined) {
    console.log(`all workers vs one: ${speedup.toFixed(2)}× (reading alone ${readSpeedup!.toFixed(2)}×); incremental build / full build: ${(100 * incrementalShare!).toFixed(1)}%`)
  }
  await writeResult("ingest", {
    machine: { cpus: os.cpus().length, availableParallelism: os.availableParallelism(), node: process.version },
    note: "load average (1 min) recorded before and after each run: other work shared this machine, so the worker speed-up is understated when it was high",
    speedupAllWorkersVsOne: speedup,
    readSpeedupAllWorkersVsOne: readSpeedup,
    incrementalShareOfFull: incrementalShare,
    incrementalAdded: added,
    runs: rows.map(({ hashes: _, ...r }) => r)
  })
}

if (values.child) await child(values.child, values.root!)
else await main()
