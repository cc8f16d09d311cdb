/**
 * Issue 20, done-when: a build of the sample corpus whose objects are read and whose texts are
 * encoded by two build worker processes, one killed (SIGKILL) in the middle of ingest and another
 * in the middle of embedding, publishes tables whose row counts and content hashes equal those of
 * the single-machine build, with the same skip tally, the same encoder, and vectors equal byte for
 * byte (index/vectors.f32) and row for row (index/vectors.parquet: key, app_num, vector, text_hash).
 * The distributed build encodes in batches of another size than the local one: a text's vector
 * does not depend on its batch.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { Effect, Redacted } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sqlString } from "../../core/artifacts/files.ts"
import type { StageRecord } from "../../core/artifacts/manifest.ts"
import { CorpusStore } from "../../pipeline/corpus/CorpusStore.ts"
import { obliterateQueue } from "../../pipeline/distributed/coordinator.ts"
import { keyedVectorsSql } from "../../pipeline/embed/embeddings.ts"
import { embedStage } from "../../pipeline/embed/stage.ts"
import { encoderStage } from "../../pipeline/encoder/stage.ts"
import { ingestStage } from "../../pipeline/ingest/stage.ts"
import { silentProgress } from "../../pipeline/stages/progress.ts"
import { runPipeline } from "../../pipeline/stages/runner.ts"
import { type LocalS3, startLocalS3 } from "../support/s3.ts"
import { REDIS, startWorker, stopWorkers } from "./worker-process.ts"

const BUCKET = "build-store"
const sample = path.resolve("pipeline/sample-corpus")
const queue = `distributed-build-test-${process.pid}-${Date.now()}`
let tmp: string
let s3: LocalS3

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "distributed-build-"))
  s3 = await startLocalS3(BUCKET)
})
afterAll(async () => {
  await stopWorkers()
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
      runPipeline({ corpus: sample, artifactsRoot: path.join(tmp, root), stages: [ingestStage, encoderStage, embedStage], progress: silentProgress }).pipe(
        Effect.provide(CorpusStore.Default)
      )
    )
    const stage = (name: string) => out.manifest.stages.find((s) => s.name === name)!
    return { versionDir: out.versionDir, ingest: stage("ingest"), encoder: stage("encoder"), embed: stage("embed") }
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

/** The encoder's files, by content (training.json, the training report, also says how long training took). */
/** The encoder's files but its training summaries (encoder/training.json, and each ensemble part's), which hold timings. */
const encoderFiles = (r: StageRecord) =>
  Object.fromEntries(r.outputs.filter((o) => o.path.startsWith("encoder/") && path.basename(o.path) !== "training.json").map((o) => [o.path, o.sha256]))

/** Vectors (with their keys) of one version missing from the other, both ways, and both counts. */
const compareVectorTables = async (a: string, b: string) => {
  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  try {
    const [x, y] = await Promise.all([a, b].map((dir) => keyedVectorsSql(conn, dir)))
    const [[countA, countB, onlyA, onlyB]] = (
      await conn.runAndReadAll(
        `SELECT (SELECT count(*) FROM ${x}), (SELECT count(*) FROM ${y}),
                (SELECT count(*) FROM (SELECT * FROM ${x} EXCEPT ALL SELECT * FROM ${y})),
                (SELECT count(*) FROM (SELECT * FROM ${y} EXCEPT ALL SELECT * FROM ${x}))`
      )
    ).getRows()
    return { countA: Number(countA), countB: Number(countB), onlyA: Number(onlyA), onlyB: Number(onlyB) }
  } finally {
    conn.closeSync()
    db.closeSync()
  }
}

let started = 0
const startQueueWorker = () =>
  startWorker(`worker-${++started}`, { BUILD_QUEUE: REDIS, BUILD_QUEUE_NAME: queue, S3_ENDPOINT: s3.endpoint, INGEST_WORKERS: "1", BUILD_LOCK_MS: "5000", BUILD_STALLED_INTERVAL_MS: "1000" })

const until = async (f: () => boolean, what: string, timeoutMs = 120_000) => {
  const start = Date.now()
  while (!f()) {
    if (Date.now() - start > timeoutMs) throw new Error(`no ${what} within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

// The test is about distribution, not the encoder's quality: both builds train it on a small
// budget (one setting for both, so they must still train the same encoder), minutes less on CI.
const ENCODER_BUDGET = { ENCODER_TRAINING_WORDS: "1000000" }

describe("a distributed build of the sample", () => {
  it("equals the single-machine build, with a worker killed during ingest and another during embedding", async () => {
    const single = await build("single", { ...ENCODER_BUDGET, INGEST_WORKERS: "1", BUILD_QUEUE: undefined })
    const a = startQueueWorker()
    const b = startQueueWorker()
    await until(() => [a, b].every((w) => w.lines.some((l) => /ready on queue \S+\.embed /.test(l))), "ready workers")
    const distributed = build("distributed", {
      ...ENCODER_BUDGET,
      BUILD_QUEUE: REDIS,
      BUILD_QUEUE_NAME: queue,
      BUILD_STORE: `s3://${BUCKET}/builds`,
      S3_ENDPOINT: s3.endpoint,
      // Batches of another size than the local 256: the vectors must not depend on the batch boundaries.
      BUILD_EMBED_BATCH: "100"
    })
    // Kill worker A in the middle of its third object (objects go largest first: it is still reading).
    await until(() => a.lines.filter((l) => /took /.test(l)).length >= 3, "third object on worker A")
    a.child.kill("SIGKILL")
    const killedOn = /took (\S+) key=/.exec(a.lines.filter((l) => /took /.test(l))[2])![1]
    // Two workers again; whichever takes the first batch is killed while it fetches and loads the encoder.
    const c = startQueueWorker()
    const firstBatch = (w: typeof a) => w.lines.map((l) => /took batch (\w+) /.exec(l)?.[1]).find((k) => k !== undefined)
    await until(() => [b, c].some((w) => firstBatch(w) !== undefined), "a first embedding batch", 300_000)
    const victim = firstBatch(b) !== undefined ? b : c
    victim.child.kill("SIGKILL")
    const survivor = victim === b ? c : b
    const batch = firstBatch(victim)!

    const record = await distributed
    expect(record.ingest.rowCounts.applications).toBeGreaterThan(100)
    expect(tables(record.ingest)).toEqual(tables(single.ingest))
    // The killed worker's object went back to the queue and a living worker read it again: B, or C
    // when C was ready before the lapsed lock was noticed.
    expect([b, c].some((w) => w.lines.some((l) => l.includes(`took ${killedOn} key=`))), `nobody read ${killedOn} again`).toBe(true)

    // The same encoder, the same vectors in the same rows.
    expect(encoderFiles(record.encoder)).toEqual(encoderFiles(single.encoder))
    expect(record.embed.rowCounts).toEqual(single.embed.rowCounts)
    expect(record.embed.rowCounts.vectors).toBeGreaterThan(1000)
    const f32 = (r: StageRecord) => r.outputs.find((o) => o.path === "index/vectors.f32")!
    expect(f32(record.embed)).toEqual(f32(single.embed))
    expect(await compareVectorTables(single.versionDir, record.versionDir)).toEqual({ countA: single.embed.rowCounts.vectors, countB: single.embed.rowCounts.vectors, onlyA: 0, onlyB: 0 })
    // The killed worker's batch went back to the queue and the other worker took it.
    expect(survivor.lines.some((l) => l.includes(`took batch ${batch} `))).toBe(true)
    expect(record.embed.notes).toContain(`${single.embed.rowCounts.vectors} vectors encoded`)
  }, 900_000)
})
