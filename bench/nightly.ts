/**
 * Nightly build benchmark (issue 17): a full build against the next night's incremental build.
 *
 * A synthetic corpus of N applications (`make synth`, under <root>/synth-N/corpus, made when
 * missing) is split into "up to last week" and "last week": the corpus folder the builds read holds
 * every file except the latest weekly application file and the latest weekly grant file. That
 * folder is built from scratch (the full build), the two files are then added (one more week of the
 * same docket, about 7,600 applications at 1M) and the same command builds again (the nightly
 * build: ingest reads only the new objects, the encoder and the map frame stay pinned, only new
 * vectors are encoded). Both are `make artifacts` as operators run it (pipeline/main.ts, a child
 * process, all stages); per-stage seconds come from the manifests, peak memory from /usr/bin/time
 * where it exists.
 *
 *   node --import tsx bench/nightly.ts [--n 1000000] [--root .tmp/bench-nightly] [--no-write] [--resume]
 *
 * --resume: a full build that was interrupted (its corpus split and its work folder are still under
 * the root) is finished, taking over what it had done, before the night is built: the night's
 * figures are whole, the full build's are not (the results say `fullResumed`).
 *
 * --again: the root already holds a full build and its night (an earlier run, of other code): the
 * last week is taken out of the corpus again and the full build made again by this checkout's code
 * (stages whose code did not change are reused, ingest reads no object again), then the night. The
 * night's figures are whole; the full build's are not (`fullRebuilt`).
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { parseArgs } from "node:util"
import { printTable, writeResult } from "./report.ts"

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "1000000" },
    root: { type: "string", default: ".tmp/bench-nightly" },
    "no-write": { type: "boolean", default: false },
    resume: { type: "boolean", default: false },
    again: { type: "boolean", default: false }
  }
})
const N = Number(values.n)
if (!Number.isInteger(N) || N < 1000) {
  process.stderr.write("usage: bench/nightly.ts [--n 1000000] [--root DIR] [--no-write]\n")
  process.exit(2)
}
const dir = path.resolve(values.root!, `synth-${N}`)
const corpus = path.join(dir, "corpus")
const nightly = path.join(dir, "nightly-corpus")
const artifacts = path.join(dir, "artifacts")
const log = (line: string) => process.stdout.write(`${line}\n`)

const hasTime = fs.existsSync("/usr/bin/time")

/** Runs a node script as a child; resolves with its wall seconds and peak resident memory (MB, when /usr/bin/time exists). */
const runNode = (args: ReadonlyArray<string>) =>
  new Promise<{ seconds: number; peakMb?: number }>((resolve, reject) => {
    const started = performance.now()
    const node = [process.execPath, "--max-old-space-size=8192", "--import", "tsx", ...args]
    const p = hasTime
      ? spawn("/usr/bin/time", ["-f", "PEAK_KB %M", ...node], { stdio: ["ignore", "inherit", "pipe"] })
      : spawn(node[0], node.slice(1), { stdio: ["ignore", "inherit", "pipe"] })
    // /usr/bin/time writes its line last; keep the tail of stderr to find it whole.
    let tail = ""
    p.stderr.on("data", (chunk: Buffer) => {
      const text = chunk.toString()
      tail = (tail + text).slice(-200)
      process.stderr.write(text.replace(/PEAK_KB \d+\n?/, ""))
    })
    p.on("close", (code) => {
      const m = /PEAK_KB (\d+)/.exec(tail)
      if (code === 0) resolve({ seconds: (performance.now() - started) / 1000, peakMb: m ? Math.round(Number(m[1]) / 1024) : undefined })
      else reject(new Error(`${args.join(" ")} exited ${code}`))
    })
  })

const latest = (folder: string) => fs.readdirSync(folder).filter((f) => /\d{6}\.xml\.gz$/.test(f)).sort().at(-1)!

/** Hard-links every file of `from` into `to` except `leave` (corpus-relative paths). */
const linkTree = (from: string, to: string, leave: ReadonlySet<string>, rel = "") => {
  for (const e of fs.readdirSync(path.join(from, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name
    if (e.isDirectory()) {
      fs.mkdirSync(path.join(to, r), { recursive: true })
      linkTree(from, to, leave, r)
    } else if (!leave.has(r)) fs.linkSync(path.join(from, r), path.join(to, r))
  }
}

interface StageTimes {
  readonly [stage: string]: number
}
const stageSeconds = (versionDir: string): StageTimes => {
  const manifest = JSON.parse(fs.readFileSync(path.join(versionDir, "manifest.json"), "utf8")) as { stages: { name: string; seconds: number; reused: boolean }[] }
  return Object.fromEntries(manifest.stages.map((s) => [s.name, s.reused ? 0 : s.seconds]))
}
const notesOf = (versionDir: string) => {
  const manifest = JSON.parse(fs.readFileSync(path.join(versionDir, "manifest.json"), "utf8")) as { stages: { name: string; notes?: string[] }[] }
  return Object.fromEntries(manifest.stages.map((s) => [s.name, (s.notes ?? []).join(" | ")]))
}

if (!fs.existsSync(path.join(corpus, "uspto"))) {
  log(`synthesising ${N} applications into ${corpus}`)
  await runNode(["pipeline/synth/main.ts", "--n", String(N), "--out", corpus, "--seed", "42"])
}
const lastWeek = [`uspto/applications/${latest(path.join(corpus, "uspto", "applications"))}`, `uspto/grants/${latest(path.join(corpus, "uspto", "grants"))}`]
const resumed = values.resume && fs.existsSync(nightly) && !fs.existsSync(path.join(artifacts, "current"))
const rebuilt = values.again && fs.existsSync(path.join(artifacts, "current"))
if (resumed) log(`resuming the interrupted full build under ${artifacts}: its figures are not a whole build's`)
else if (rebuilt) {
  for (const rel of lastWeek) fs.rmSync(path.join(nightly, rel), { force: true })
  log(`building the full corpus again with this code under ${artifacts}: its figures are not a whole build's`)
} else {
  fs.rmSync(nightly, { recursive: true, force: true })
  fs.rmSync(artifacts, { recursive: true, force: true })
  fs.mkdirSync(nightly, { recursive: true })
  linkTree(corpus, nightly, new Set(lastWeek))
}

const build = () => runNode(["pipeline/main.ts", "--corpus", nightly, "--artifacts", artifacts])
const current = () => fs.realpathSync(path.join(artifacts, "current"))

log(`full build of ${N} applications less last week (${lastWeek.join(", ")} held back)`)
const full = await build()
const fullDir = current()
for (const rel of lastWeek) fs.linkSync(path.join(corpus, rel), path.join(nightly, rel))
log(`nightly build after adding ${lastWeek.join(", ")}`)
const next = await build()
const nextDir = current()

const fullStages = stageSeconds(fullDir)
const nextStages = stageSeconds(nextDir)
const rows = Object.keys(fullStages).map((stage) => ({ stage, full: fullStages[stage]!, nightly: nextStages[stage] ?? 0 }))
const fmt = (s: number) => s.toFixed(1)
printTable(`Full build against the next night's build, ${N.toLocaleString("en-US")} synthetic applications (seconds per stage)`, [...rows, { stage: "total (wall)", full: full.seconds, nightly: next.seconds }], [
  ["stage", (r) => r.stage],
  ["full", (r) => fmt(r.full)],
  ["nightly", (r) => fmt(r.nightly)],
  ["nightly / full", (r) => (r.full > 0 ? `${((r.nightly / r.full) * 100).toFixed(1)}%` : "-")]
])
if (hasTime) log(`peak memory: full build ${full.peakMb} MB, nightly build ${next.peakMb} MB`)
const notes = notesOf(nextDir)
for (const stage of ["ingest", "encoder", "embed", "map"]) log(`${stage}: ${notes[stage]}`)

if (!values["no-write"]) {
  await writeResult("nightly", {
    benchmark: "nightly",
    at: new Date().toISOString(),
    applications: N,
    heldBack: lastWeek,
    full: { seconds: full.seconds, peakMb: full.peakMb, stages: fullStages, version: path.basename(fullDir), ...(resumed ? { fullResumed: true } : {}), ...(rebuilt ? { fullRebuilt: true } : {}) },
    nightly: { seconds: next.seconds, peakMb: next.peakMb, stages: nextStages, version: path.basename(nextDir), notes },
    nightlyShareOfFull: next.seconds / full.seconds,
    loadAverage: (await import("node:os")).loadavg()[0]
  })
}
