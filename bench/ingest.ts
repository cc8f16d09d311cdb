/**
 * Ingest benchmark: applications per second and peak memory (max RSS) of the ingest stage on
 * the sample corpus and on a synthetic corpus (generated with `make synth` if missing).
 * Each run is a fresh child process so peak memory is that run's alone.
 *
 *   npx tsx bench/ingest.ts [--synth N]     → prints a table, writes bench/results/ingest.json
 */
import { execFileSync, spawnSync } from "node:child_process"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { parseArgs } from "node:util"
import { printTable, writeResult } from "./report.ts"

const { values } = parseArgs({ options: { synth: { type: "string", default: "100000" }, child: { type: "string" } } })

/** Child mode: ingest one corpus and print the measurements as JSON. */
const child = async (corpus: string) => {
  const { Effect } = await import("effect")
  const { CorpusStore } = await import("../pipeline/corpus/CorpusStore.ts")
  const { ingestStage } = await import("../pipeline/ingest/stage.ts")
  const { silentProgress } = await import("../pipeline/stages/progress.ts")
  const { runPipeline } = await import("../pipeline/stages/runner.ts")
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "bench-ingest-"))
  const t0 = performance.now()
  const out = await Effect.runPromise(
    runPipeline({ corpus, artifactsRoot: root, stages: [ingestStage], progress: silentProgress }).pipe(Effect.provide(CorpusStore.Default))
  )
  const seconds = (performance.now() - t0) / 1000
  const rec = out.manifest.stages[0]
  const inputBytes = out.manifest.corpus.files.reduce((a, f) => a + f.bytes, 0)
  const largestFile = Math.max(...out.manifest.corpus.files.map((f) => f.bytes))
  await fs.rm(root, { recursive: true, force: true })
  process.stdout.write(
    JSON.stringify({
      applications: rec.rowCounts.applications,
      claims: rec.rowCounts.claims,
      seconds,
      applicationsPerSecond: rec.rowCounts.applications / seconds,
      peakRssMiB: process.resourceUsage().maxRSS / 1024,
      inputMiB: inputBytes / 2 ** 20,
      largestFileMiB: largestFile / 2 ** 20,
      skipped: rec.skipped.count
    })
  )
}

const measure = (label: string, corpus: string) => {
  const r = spawnSync(process.execPath, ["--import", "tsx", "bench/ingest.ts", "--child", corpus], {
    encoding: "utf8",
    maxBuffer: 64 * 2 ** 20
  })
  if (r.status !== 0) throw new Error(`${label}: ${r.stderr}`)
  return { corpus: label, ...JSON.parse(r.stdout.trim().split("\n").pop()!) }
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
  const rows = [measure("sample", path.resolve("pipeline/sample-corpus"))]
  if (n > 0) rows.push(measure(`synthetic ${n.toLocaleString("en-US")}`, synthDir))
  printTable("Ingest", rows, [
    ["corpus", (r) => r.corpus],
    ["applications", (r) => r.applications.toLocaleString("en-US")],
    ["seconds", (r) => r.seconds.toFixed(1)],
    ["apps/s", (r) => Math.round(r.applicationsPerSecond).toLocaleString("en-US")],
    ["peak RSS MiB", (r) => r.peakRssMiB.toFixed(0)],
    ["input MiB (gz)", (r) => r.inputMiB.toFixed(1)],
    ["largest file MiB", (r) => r.largestFileMiB.toFixed(1)],
    ["skipped", (r) => String(r.skipped)]
  ])
  await writeResult("ingest", { machine: { cpus: os.cpus().length, node: process.version }, runs: rows })
}

if (values.child) await child(values.child)
else await main()
