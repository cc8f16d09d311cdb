/**
 * Distributed embedding on BullMQ (real Redis at 127.0.0.1:6379) and a local S3 server: two worker
 * processes encode batches of the sample's indexed texts into exactly the vectors (bit for bit)
 * the encoder gives in this process, whatever the batch boundaries; queueing the same batches
 * again encodes nothing; and a worker running other encoding code refuses the batch at once.
 */
import { Cause, ConfigProvider, Effect, Option } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { loadTextEncoder, type PatentTextEncoder } from "../../core/encoder/encoder.ts"

import { batchEncodingInQueue } from "../../pipeline/distributed/embed-coordinator.ts"
import { encodingCodeVersion } from "../../pipeline/distributed/jobs.ts"
import { buildQueueSettings } from "../../pipeline/distributed/settings.ts"
import { indexedTexts } from "../../pipeline/encoder/stage.ts"
import { withTables } from "../../pipeline/stages/tables.ts"
import { type LocalS3, startLocalS3 } from "../support/s3.ts"
import { REDIS, startWorker, stopWorkers, testQueues, waitForLine, type WorkerProcess } from "./worker-process.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const sampleDir = await sampleArtifacts()

const STORE_BUCKET = "build-store"
/** Texts of the sample encoded in these tests: a few local batches' worth. */
const TEXTS = 700
/** onnxruntime threads, as the embed stage sets them (one per core). */
const THREADS = os.availableParallelism()

let tmp: string
let s3: LocalS3
let encoderDir: string
let encoder: PatentTextEncoder
let texts: string[]

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "distributed-embed-"))
  // A copy: the fixture version may be replaced by another test run while this one reads it.
  encoderDir = path.join(tmp, "encoder")
  await fs.cp(path.join(sampleDir, "encoder"), encoderDir, { recursive: true })
  encoder = await loadTextEncoder(encoderDir, { threads: THREADS })
  texts = await withTables(sampleDir, async (conn) => {
    const out: string[] = []
    for await (const t of indexedTexts(conn)()) if (out.push(t) >= TEXTS) break
    return out
  })
  s3 = await startLocalS3(STORE_BUCKET)
}, 120_000)

afterAll(async () => {
  await encoder?.close()
  await s3?.close()
  await fs.rm(tmp, { recursive: true, force: true })
})

// ---- worker processes -------------------------------------------------------------------------

const startQueueWorker = (name: string, queue: string): WorkerProcess =>
  startWorker(name, { BUILD_QUEUE: REDIS, BUILD_QUEUE_NAME: queue, S3_ENDPOINT: s3.endpoint, INGEST_WORKERS: "1", BUILD_LOCK_MS: "15000", BUILD_STALLED_INTERVAL_MS: "1000" })

const ready = (w: WorkerProcess) => waitForLine(w, /ready on queue \S+\.embed /)

/** Batch keys a worker took (it logs `took batch <key> …` as it starts each job). */
const tookBatches = (w: WorkerProcess) => w.lines.flatMap((l) => /took batch (\w+) /.exec(l)?.[1] ?? [])

const queues = testQueues("distributed-embed-test")
const newQueue = queues.next

afterEach(async () => {
  await stopWorkers()
  await queues.removeAll()
})

const settingsFor = (queue: string) =>
  Effect.runPromise(
    buildQueueSettings.pipe(
      Effect.map(Option.getOrThrow),
      Effect.withConfigProvider(
        ConfigProvider.fromJson({ BUILD_QUEUE: REDIS, BUILD_QUEUE_NAME: queue, BUILD_STORE: `s3://${STORE_BUCKET}/builds/${queue}`, S3_ENDPOINT: s3.endpoint, BUILD_RECONCILE_MS: "2000" })
      )
    )
  )

const chunks = <A>(xs: ReadonlyArray<A>, size: number) => Array.from({ length: Math.ceil(xs.length / size) }, (_, i) => xs.slice(i * size, (i + 1) * size))

/** The vectors of `texts` encoded here, in batches of `size`, as one Float32Array. */
const encodeHere = async (size: number) => {
  const out = new Float32Array(texts.length * encoder.dimensions)
  let at = 0
  for (const batch of chunks(texts, size)) for (const v of await encoder.encode(batch)) out.set(v, at++ * encoder.dimensions)
  return out
}

/** The same through the queue, all batches in flight at once, as one Float32Array. */
const encodeInQueue = async (queue: string, size: number) => {
  const settings = await settingsFor(queue)
  const vectors = await Effect.runPromise(
    batchEncodingInQueue(settings, encoderDir, encoder.dimensions, THREADS).pipe(
      Effect.flatMap((remote) => Effect.forEach(chunks(texts, size), (batch, i) => remote.encode(batch, `batch ${i}`), { concurrency: "unbounded" })),
      Effect.scoped
    )
  )
  const out = new Float32Array(texts.length * encoder.dimensions)
  vectors.flat().forEach((v, i) => out.set(v, i * encoder.dimensions))
  return out
}

const bytes = (a: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength)

describe("batchEncodingInQueue", () => {
  it("two worker processes encode batches into the very vectors this process gives, whatever the batch boundaries", async () => {
    // The property distribution rests on: a text's vector does not depend on its batch (core/encoder/batching.ts).
    const inBatchesOf256 = await encodeHere(256)
    expect(texts).toHaveLength(TEXTS)
    expect(bytes(await encodeHere(100)).equals(bytes(inBatchesOf256))).toBe(true)
    expect(bytes(await encodeHere(1)).equals(bytes(inBatchesOf256))).toBe(true)

    const queue = newQueue("equal")
    const a = startQueueWorker("worker-a", queue)
    const b = startQueueWorker("worker-b", queue)
    await Promise.all([ready(a), ready(b)])
    const remote = await encodeInQueue(queue, 100)
    expect(bytes(remote).equals(bytes(inBatchesOf256))).toBe(true)
    // Both workers took a share, and no batch was encoded twice.
    expect(tookBatches(a).length).toBeGreaterThan(0)
    expect(tookBatches(b).length).toBeGreaterThan(0)
    expect(new Set([...tookBatches(a), ...tookBatches(b)]).size).toBe(Math.ceil(TEXTS / 100))
    expect([...a.lines, ...b.lines].filter((l) => /fetching encoder/.test(l))).toHaveLength(2)

    // Queueing the same batches again encodes nothing: the vectors are in the store.
    const again = await encodeInQueue(queue, 100)
    expect(bytes(again).equals(bytes(inBatchesOf256))).toBe(true)
    expect([...a.lines, ...b.lines].filter((l) => /found stored batch/.test(l))).toHaveLength(Math.ceil(TEXTS / 100))

    // SIGTERM: each worker closes gracefully and exits 0.
    a.child.kill("SIGTERM")
    b.child.kill("SIGTERM")
    expect(await a.exited).toBe(0)
    expect(await b.exited).toBe(0)
  }, 240_000)

  it("a worker running other encoding code refuses the batch at once, and the build says why", async () => {
    const queue = newQueue("other-code")
    const w = startQueueWorker("worker", queue)
    await ready(w)
    const running = await encodingCodeVersion()
    const exit = await Effect.runPromiseExit(
      batchEncodingInQueue(await settingsFor(queue), encoderDir, encoder.dimensions, THREADS, "0123456789abcdef").pipe(
        Effect.flatMap((remote) => remote.encode(texts.slice(0, 10), "applications A … B")),
        Effect.scoped
      )
    )
    const error = exit._tag === "Failure" ? Cause.squash(exit.cause) : undefined
    expect(error).toMatchObject({ _tag: "DistributedEncodeFailed", applications: "applications A … B" })
    expect(String((error as Error).message)).toMatch(new RegExp(`runs encoder code ${running}, the build encoding batch \\w+ needs 0123456789abcdef`))
    // Refused without retries (settings allow 3 attempts).
    expect(tookBatches(w)).toHaveLength(1)
    expect(w.lines.some((l) => /fetching encoder/.test(l))).toBe(false)
  }, 120_000)
})
