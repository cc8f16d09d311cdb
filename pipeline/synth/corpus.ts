/**
 * Writes a synthetic corpus: reference folders copied, topics chosen, the docket built, then the
 * work units (see units.ts) written by worker threads, or in this thread when workers is 0. Each
 * document is generated, written and dropped, so memory does not grow with N beyond the docket.
 */
import { availableParallelism } from "node:os"
import path from "node:path"
import { Worker } from "node:worker_threads"
import { isoDate } from "./dates.ts"
import { Docket } from "./docket.ts"
import { copyReference, prepareOut, writeReadme, type Provenance } from "./reference.ts"
import { loadTopics } from "./topics.ts"
import { planUnits, runUnit, type Unit } from "./units.ts"
import type { WorkerInit, WorkerMessage } from "./worker.ts"

export interface SynthOptions {
  readonly n: number
  readonly seed: number
  readonly out: string
  /** The sample corpus: CPC titles to draw topics from, reference folders to copy. */
  readonly sampleDir: string
  /** About how many CPC subgroups to use as topics (default 4000). */
  readonly topics?: number
  /** gzip level (default 2: fast, and about 7:1 on this XML). */
  readonly level?: number
  /** Writer threads (default: one per core, at most 4); 0 writes in this thread. */
  readonly workers?: number
}

export interface SynthProgress {
  readonly phase: "topics" | "docket" | "documents" | "done"
  readonly applications: number
  readonly grants: number
  readonly totalGrants: number
}

export type SynthResult = Provenance

/** Hands units to threads as they free up; the output does not depend on the order. */
const runInWorkers = async (units: readonly Unit[], count: number, init: WorkerInit, progress: (a: number, g: number) => void): Promise<void> => {
  const queue = [...units]
  const workers: Worker[] = []
  try {
    await Promise.all(
      Array.from({ length: Math.min(count, queue.length) }, () =>
        new Promise<void>((resolve, reject) => {
          const worker = new Worker(new URL("./worker-entry.mjs", import.meta.url), {
            workerData: init,
            // Generation allocates many short-lived strings: a larger young generation means fewer scavenges.
            resourceLimits: { maxYoungGenerationSizeMb: 48 }
          })
          workers.push(worker)
          const next = () => worker.postMessage(queue.shift() ?? null)
          worker.on("message", (m: WorkerMessage) => {
            if (m.type === "progress") progress(m.applications, m.grants)
            else if (m.type === "done") next()
            else reject(new Error(m.error))
          })
          worker.on("error", reject)
          worker.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`synth worker exited with code ${code}`))))
          next()
        })
      )
    )
  } finally {
    await Promise.all(workers.map((w) => w.terminate()))
  }
}

export const synthesize = async (options: SynthOptions, onProgress: (p: SynthProgress) => void = () => {}): Promise<SynthResult> => {
  const { n, seed, out, sampleDir } = options
  if (!Number.isInteger(n) || n < 1) throw new Error(`N must be a positive integer, got ${n}`)
  const level = options.level ?? 2
  const workers = options.workers ?? Math.min(4, availableParallelism())
  await prepareOut(out)
  await copyReference(sampleDir, out)

  onProgress({ phase: "topics", applications: 0, grants: 0, totalGrants: 0 })
  const topics = await loadTopics({ seed, cpcDir: path.join(sampleDir, "cpc"), target: options.topics })
  onProgress({ phase: "docket", applications: 0, grants: 0, totalGrants: 0 })
  const docket = Docket.build(n, seed, topics)
  const totalGrants = docket.issueOrder.length
  const plan = planUnits(docket)

  let applications = 0
  let grants = 0
  const progress = (a: number, g: number) => {
    applications += a
    grants += g
    onProgress({ phase: "documents", applications, grants, totalGrants })
  }
  if (workers <= 0) {
    for (const unit of plan.units) await runUnit({ docket, out, level, progress }, unit)
  } else {
    await runInWorkers(plan.units, workers, { n, seed, topics, data: docket.data, out, level }, progress)
  }

  const result: SynthResult = {
    n,
    seed,
    topics: topics.topics.length,
    artUnits: topics.artUnits.length,
    applications: n,
    grants: totalGrants,
    firstFiling: isoDate(docket.filingDay(0)),
    lastFiling: isoDate(docket.filingDay(n - 1)),
    snapshot: isoDate(docket.snapshotDay),
    grantFiles: plan.grantFiles,
    applicationFiles: plan.applicationFiles,
    pedsFiles: plan.pedsFiles
  }
  await writeReadme(out, result)
  onProgress({ phase: "done", applications, grants, totalGrants })
  return result
}
