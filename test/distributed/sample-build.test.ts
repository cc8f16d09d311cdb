/**
 * PENDING: rename to `sample-build.test.ts` once pipeline/ingest/stage.ts calls parseInQueue when
 * BUILD_QUEUE is set (the wiring is in the distributed-ingest report). Until then the build below
 * ignores BUILD_QUEUE and the test waits in vain for a worker to take an object. It passed against
 * a copy of the stage with that wiring (2 min on 2 cores).
 *
 * Issue 20, done-when: a build of the sample corpus whose objects are read by two build worker
 * processes, one of them killed (SIGKILL) in the middle of the build, publishes tables whose row
 * counts and content hashes equal those of the single-machine build, with the same skip tally.
 */
import { Effect, Redacted } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { StageRecord } from "../../core/artifacts/manifest.ts"
import { CorpusStore } from "../../pipeline/corpus/CorpusStore.ts"
import { obliterateQueue } from "../../pipeline/distributed/coordinator.ts"
import { ingestStage } from "../../pipeline/ingest/stage.ts"
import { silentProgress } from "../../pipeline/stages/progress.ts"
import { runPipeline } from "../../pipeline/stages/runner.ts"
import { type LocalS3, startLocalS3 } from "../support/s3.ts"

const REDIS = "redis://127.0.0.1:6379"
const BUCKET = "build-store"
const sample = path.resolve("pipeline/sample-corpus")
const queue = `distributed-build-test-${process.pid}-${Date.now()}`
let tmp: string
let s3: LocalS3
const children: ChildProcess[] = []

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "distributed-build-"))
  s3 = await startLocalS3(BUCKET)
})
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL")
  await Effect.runPromise(obliterateQueue({ redisUrl: Redacted.make(REDIS), queueName: queue }))
  await s3?.close()
  await fs.rm(tmp, { recursive: true, force: true })
})

const build = async (root: string, env: Record<string, string | undefined>) => {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]))
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k]
  else process.env[k] = v
  try {
    const out = await Effect.runPromise(
      runPipeline({ corpus: sample, artifactsRoot: path.join(tmp, root), stages: [ingestStage], progress: silentProgress }).pipe(Effect.provide(CorpusStore.Default))
    )
    return out.manifest.stages[0]
  } finally {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
}

const tables = (r: StageRecord) => ({
  rowCounts: r.rowCounts,
  hashes: Object.fromEntries(r.outputs.filter((o) => o.path.startsWith("tables/")).map((o) => [o.path, o.contentHash])),
  skipped: r.skipped
})

const startWorker = () => {
  const child = spawn(process.execPath, ["--import", "tsx", "pipeline/distributed/worker-main.ts"], {
    env: { ...process.env, BUILD_QUEUE: REDIS, BUILD_QUEUE_NAME: queue, S3_ENDPOINT: s3.endpoint, INGEST_WORKERS: "1", BUILD_LOCK_MS: "5000", BUILD_STALLED_INTERVAL_MS: "1000" },
    stdio: ["ignore", "pipe", "pipe"]
  })
  const lines: string[] = []
  child.stdout!.on("data", (c: Buffer) => lines.push(...c.toString().split("\n")))
  child.stderr!.on("data", (c: Buffer) => lines.push(...c.toString().split("\n")))
  children.push(child)
  return { child, lines }
}

const until = async (f: () => boolean, what: string, timeoutMs = 120_000) => {
  const start = Date.now()
  while (!f()) {
    if (Date.now() - start > timeoutMs) throw new Error(`no ${what} within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe("a distributed build of the sample", () => {
  it("equals the single-machine build, with a worker killed during it", async () => {
    const single = await build("single", { INGEST_WORKERS: "1", BUILD_QUEUE: undefined })
    const a = startWorker()
    const b = startWorker()
    await until(() => [a, b].every((w) => w.lines.some((l) => /ready on queue/.test(l))), "ready workers")
    const distributed = build("distributed", { BUILD_QUEUE: REDIS, BUILD_QUEUE_NAME: queue, BUILD_STORE: `s3://${BUCKET}/builds`, S3_ENDPOINT: s3.endpoint })
    // Kill worker A in the middle of its third object (objects go largest first: it is still reading).
    await until(() => a.lines.filter((l) => /took /.test(l)).length >= 3, "third object on worker A")
    a.child.kill("SIGKILL")
    const record = await distributed
    expect(record.rowCounts.applications).toBeGreaterThan(100)
    expect(tables(record)).toEqual(tables(single))
    const killedOn = /took (\S+) key=/.exec(a.lines.filter((l) => /took /.test(l))[2])![1]
    expect(b.lines.some((l) => l.includes(`took ${killedOn} key=`))).toBe(true)
  }, 600_000)
})
