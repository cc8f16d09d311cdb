/**
 * A build worker: takes parse-object jobs from the build queue, reads each corpus object into a
 * raw partition with the ingest stage's own worker threads (pipeline/ingest/worker.ts through
 * worker-entry.mjs, the code a local build runs), uploads the partition to the store, and returns
 * what it became. The same process takes encode-batch jobs from the embedding queue beside it
 * (embed-worker.ts), one batch at a time by default: the encoder uses every core itself.
 *
 * BullMQ keeps a lock on each active job and renews it while this process lives. A worker killed
 * mid-job stops renewing; once the lock lapses, any live worker's stalled-job check puts the job
 * back in the queue and another worker reads the object again. Nothing is lost and nothing is
 * merged twice: the partition is keyed by content, and its object.json is uploaded last.
 *
 * Reading happens in threads, not in this thread, so that N jobs at once use N cores and this
 * thread stays free to renew locks (a lock that lapses because the event loop is busy would hand a
 * live job to a second worker).
 */
import * as PlatformWorker from "@effect/platform/Worker"
import * as NodeWorker from "@effect/platform-node/NodeWorker"
import { type Job, UnrecoverableError, Worker as QueueWorker } from "bullmq"
import { Cause, Clock, Data, Effect, Exit, Option, Runtime, Schema, Stream } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { Worker as ThreadWorker } from "node:worker_threads"
import { type ObjectPartition, readerCodeVersion } from "../ingest/partition.ts"
import type { ParseEvent, ParseRequest, WorkerSettings } from "../ingest/protocol.ts"
import { EncodingCodeMismatch, makeBatchEncoding } from "./embed-worker.ts"
import { embedQueueName, encodingCodeVersion, ParseObjectJob, type ParseObjectResult, redisConnection } from "./jobs.ts"
import { scopedS3Client, storedPartition, uploadPartition } from "./partition-store.ts"
import type { BuildWorkerSettings } from "./settings.ts"

export class ObjectReadFailed extends Data.TaggedError("ObjectReadFailed")<{
  readonly path: string
  readonly reason: string
}> {
  override get message() {
    return `reading ${this.path} failed: ${this.reason}`
  }
}

/**
 * The job asks for partitions made by other ingest code than this worker runs (a worker left on an
 * older checkout). Its partition would be stored under a key that names the other code, and every
 * later build would trust it: the job fails at once, without retries, and the build says why.
 */
export class IngestCodeMismatch extends Data.TaggedError("IngestCodeMismatch")<{
  readonly path: string
  readonly wanted: string
  readonly running: string
}> {
  override get message() {
    return `this build worker runs ingest code ${this.running}, the build reading ${this.path} needs ${this.wanted}: run the workers from the build's checkout`
  }
}

export class BuildWorkerUnavailable extends Data.TaggedError("BuildWorkerUnavailable")<{
  readonly queue: string
  readonly reason: string
}> {
  override get message() {
    return `build worker could not start on queue ${this.queue}: ${this.reason}`
  }
}

/**
 * Each thread's DuckDB writer: the same share of memory the local pool gives its threads (a
 * quarter of RAM split between them, at least 512 MB), spilling into this worker's scratch folder.
 */
const threadSettings = (scratch: string, size: number, id: number): WorkerSettings => ({
  memoryLimit: `${Math.max(512, Math.floor(os.totalmem() / 4 / size / 2 ** 20))}MB`,
  tempDirectory: path.join(scratch, `thread-${id}.spill`)
})

/** The ingest stage's thread pool, kept for the worker's lifetime rather than one per job: threads load the readers once. */
const makeParsePool = (size: number, scratch: string) =>
  PlatformWorker.makePool<ParseRequest, ParseEvent, string>({ size }).pipe(
    Effect.provide(
      NodeWorker.layer(
        (id) =>
          new ThreadWorker(new URL("../ingest/worker-entry.mjs", import.meta.url), {
            workerData: threadSettings(scratch, size, id),
            resourceLimits: { maxYoungGenerationSizeMb: 48 }
          })
      )
    )
  )

/** A scratch folder for partitions on their way to the store, removed with the worker. */
const scratchFolder = Effect.acquireRelease(
  Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "build-worker-"))),
  (dir) => Effect.promise(() => fs.rm(dir, { recursive: true, force: true }))
)

/** Progress reports are Redis writes: at most one a second per job. */
const PROGRESS_EVERY_MS = 1000

/**
 * Starts a worker on the build queue; it takes jobs until the scope closes, which waits for the
 * jobs in hand to finish (BullMQ's graceful close) before the threads and connections go.
 */
export const runBuildWorker = (settings: BuildWorkerSettings) =>
  Effect.gen(function* () {
    // The reading code this process runs, as the ingest stage keys partitions by it.
    const codeVersion = yield* Effect.promise(readerCodeVersion)
    const scratch = yield* scratchFolder
    const pool = yield* makeParsePool(settings.concurrency, scratch)
    const s3 = yield* scopedS3Client(settings.s3)

    /** Reads the object into `dir` with a pool thread, reporting rows read as the job's progress. */
    const readObject = (job: Job, task: ParseObjectJob, dir: string) =>
      Effect.gen(function* () {
        const request: ParseRequest = { location: task.location, path: task.path, fingerprint: task.fingerprint, codeVersion: task.codeVersion, dir }
        let rows = 0
        let reportedAt = 0
        let partition: ObjectPartition | undefined
        yield* pool.execute(request).pipe(
          Stream.runForEach((event) =>
            Effect.gen(function* () {
              if (event._tag === "Parsed") {
                partition = event.partition
                return
              }
              rows += event.n
              const now = yield* Clock.currentTimeMillis
              if (now - reportedAt < PROGRESS_EVERY_MS) return
              reportedAt = now
              // Progress feeds the coordinator's progress lines only: a lost report costs nothing.
              yield* Effect.tryPromise(() => job.updateProgress({ rows })).pipe(Effect.ignore)
            })
          ),
          Effect.mapError((e) => new ObjectReadFailed({ path: task.path, reason: typeof e === "string" ? e : e.message }))
        )
        if (!partition) return yield* new ObjectReadFailed({ path: task.path, reason: "the reader thread ended without a partition" })
        return partition
      })

    const parseObjectJob = (job: Job) =>
      Effect.gen(function* () {
        const task = yield* Schema.decodeUnknown(ParseObjectJob)(job.data)
        yield* Effect.log(`took ${task.path} key=${task.key} attempt=${job.attemptsStarted}`)
        // Already in the store: uploaded by an attempt killed after its upload, or by an earlier build.
        const stored = yield* storedPartition(s3, task.store, task.key)
        if (Option.isSome(stored)) {
          yield* Effect.log(`found stored ${task.path} key=${task.key}`)
          return stored.value
        }
        if (task.codeVersion !== codeVersion) return yield* new IngestCodeMismatch({ path: task.path, wanted: task.codeVersion, running: codeVersion })
        const dir = path.join(scratch, task.key)
        return yield* Effect.gen(function* () {
          const partition = yield* readObject(job, task, dir)
          const files = yield* uploadPartition(s3, task.store, task.key, dir, partition)
          yield* Effect.log(`stored ${task.path} key=${task.key}`)
          return { partition, files } satisfies ParseObjectResult
        }).pipe(Effect.ensuring(Effect.promise(() => fs.rm(dir, { recursive: true, force: true }))))
      }).pipe(Effect.withSpan("build-worker.parseObject", { attributes: { jobId: job.id } }))

    const runtime = yield* Effect.runtime<never>()
    // BullMQ calls a Promise processor; a failure becomes the job's failedReason, so it is thrown
    // as an Error whose message says what failed (the tagged errors' messages name the object or batch).
    const processorOf =
      <E>(run: (job: Job) => Effect.Effect<unknown, E>) =>
      async (job: Job) => {
        const exit = await Runtime.runPromiseExit(runtime)(run(job))
        if (Exit.isSuccess(exit)) return exit.value
        const error = Cause.squash(exit.cause)
        // Retrying cannot help a worker running other code; any other failure gets the job's attempts.
        if (error instanceof IngestCodeMismatch || error instanceof EncodingCodeMismatch) throw new UnrecoverableError(error.message)
        throw error instanceof Error ? error : new Error(String(error))
      }

    const startQueueWorker = (queue: string, processor: (job: Job) => Promise<unknown>, concurrency: number) =>
      Effect.gen(function* () {
        const worker = yield* Effect.acquireRelease(
          Effect.sync(
            () =>
              new QueueWorker(queue, processor, {
                connection: redisConnection(settings.redisUrl),
                concurrency,
                lockDuration: settings.lockDurationMs,
                stalledInterval: settings.stalledIntervalMs,
                maxStalledCount: settings.maxStalledCount
              })
          ),
          (w) => Effect.log(`closing ${queue}: finishing the jobs in hand`).pipe(Effect.zipRight(Effect.promise(() => w.close())))
        )
        // Without a listener an 'error' (Redis gone for a moment) would be thrown; BullMQ reconnects by itself.
        worker.on("error", (e) => Runtime.runFork(runtime)(Effect.logWarning(`queue connection: ${e.message}`)))
        yield* Effect.tryPromise({
          try: () => worker.waitUntilReady(),
          catch: (e) => new BuildWorkerUnavailable({ queue, reason: e instanceof Error ? e.message : String(e) })
        })
        return worker
      })

    const encodingVersion = yield* Effect.promise(encodingCodeVersion)
    const encodeBatchJob = yield* makeBatchEncoding(s3, scratch, encodingVersion)
    const worker = yield* startQueueWorker(settings.queueName, processorOf(parseObjectJob), settings.concurrency)
    const embedQueue = embedQueueName(settings.queueName)
    yield* startQueueWorker(embedQueue, processorOf(encodeBatchJob), settings.embedConcurrency)
    yield* Effect.log(`ready on queue ${settings.queueName} with ${settings.concurrency} reader threads, ingest code ${codeVersion}`)
    yield* Effect.log(`ready on queue ${embedQueue} with ${settings.embedConcurrency} batches at a time, encoder code ${encodingVersion}`)
    return worker
  })
