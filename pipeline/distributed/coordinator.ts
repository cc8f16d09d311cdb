/**
 * The coordinator side of a distributed ingest: parseInQueue hands each corpus object to the
 * build queue as a BullMQ job and brings every partition back into the version folder, with the
 * contract of parseInWorkers (pipeline/ingest/pool.ts): an Effect that calls `onEvent` in this
 * process with Rows counts and one Parsed per request, and fails naming the object whose read
 * failed. The ingest stage's merge then reads the partitions as if local threads had written them,
 * so a distributed build makes the same version as a single-machine build.
 *
 * Why BullMQ on Redis: an existing, well-kept engine with retries, backoff and stalled-job
 * recovery (a killed worker's job goes to another worker), nothing of our own. The coordinator
 * only adds jobs and waits for their outcomes.
 */
import { Queue as JobQueue, QueueEvents } from "bullmq"
import { Data, Effect, Option, Queue, Schedule, Schema, Stream } from "effect"
import { partitionKey } from "../ingest/partition.ts"
import type { ParseEvent, ParseRequest } from "../ingest/protocol.ts"
import { embedQueueName, PARSE_OBJECT, type ParseObjectJob, ParseObjectResult, ParseProgress, redisConnection } from "./jobs.ts"
import { downloadPartition, scopedS3Client } from "./partition-store.ts"
import type { BuildQueueSettings } from "./settings.ts"

export class DistributedReadFailed extends Data.TaggedError("DistributedReadFailed")<{
  readonly path: string
  readonly reason: string
}> {
  override get message() {
    return `distributed ingest failed on ${this.path}: ${this.reason}`
  }
}

export class BuildQueueUnavailable extends Data.TaggedError("BuildQueueUnavailable")<{
  readonly queue: string
  readonly reason: string
}> {
  override get message() {
    return `build queue ${this.queue} is unavailable: ${this.reason}`
  }
}

/** What the coordinator hears about a job, from queue events or from reading job states back. */
type Outcome =
  | { readonly _tag: "Progress"; readonly key: string; readonly rows: number }
  | { readonly _tag: "Completed"; readonly key: string; readonly result: unknown }
  | { readonly _tag: "Failed"; readonly key: string; readonly reason: string }

/** Redis round trips are batched this many jobs at a time. */
const BATCH = 500

const reasonOf = (e: unknown) => (e instanceof Error ? e.message : String(e))

/**
 * Reads `requests` on the workers of the build queue, calling `onEvent` in this process for row
 * counts and each finished object (its partition downloaded into `request.dir`). Fails with
 * DistributedReadFailed, naming the object, when a job fails after all its attempts or its
 * partition does not come back intact.
 */
export const parseInQueue = (
  requests: ReadonlyArray<ParseRequest>,
  onEvent: (request: ParseRequest, event: ParseEvent) => void,
  settings: BuildQueueSettings
) =>
  Effect.gen(function* () {
    if (requests.length === 0) return
    const unavailable = (e: unknown) => new BuildQueueUnavailable({ queue: settings.queueName, reason: reasonOf(e) })
    const connection = redisConnection(settings.redisUrl)
    const jobs = yield* Effect.acquireRelease(
      Effect.sync(
        () =>
          new JobQueue<ParseObjectJob>(settings.queueName, {
            connection,
            defaultJobOptions: {
              attempts: settings.attempts,
              backoff: { type: "exponential", delay: 1000 },
              // Results stay a day (the reconcile reads a missed completion's result back from its job),
              // failures a week (for a look with any BullMQ dashboard).
              removeOnComplete: { age: 24 * 3600 },
              removeOnFail: { age: 7 * 24 * 3600 }
            }
          })
      ),
      (q) => Effect.promise(() => q.close())
    )
    const events = yield* Effect.acquireRelease(
      Effect.sync(() => new QueueEvents(settings.queueName, { connection })),
      (e) => Effect.promise(() => e.close())
    )
    const s3 = yield* scopedS3Client(settings.s3)

    const byKey = new Map<string, ParseRequest>()
    for (const r of requests) byKey.set(partitionKey(r.codeVersion, r), r)
    const keys = [...byKey.keys()]
    const jobOf = (key: string): ParseObjectJob => {
      const r = byKey.get(key)!
      return { key, location: r.location, path: r.path, fingerprint: r.fingerprint, codeVersion: r.codeVersion, store: { bucket: settings.store.bucket, prefix: settings.store.prefix } }
    }

    // Listen before adding: QueueEvents reads only events newer than its start, so a job that
    // finishes between the add and the subscription would otherwise go unheard (the periodic
    // reconcile below catches that too, but later).
    const outcomes = yield* Queue.unbounded<Outcome>()
    const offer = (o: Outcome) => {
      if (byKey.has(o.key)) Queue.unsafeOffer(outcomes, o)
    }
    events.on("completed", ({ jobId, returnvalue }) => offer({ _tag: "Completed", key: jobId, result: returnvalue }))
    events.on("failed", ({ jobId, failedReason }) => offer({ _tag: "Failed", key: jobId, reason: failedReason }))
    events.on("progress", ({ jobId, data }) => {
      const progress = Schema.decodeUnknownOption(ParseProgress)(data)
      if (Option.isSome(progress)) offer({ _tag: "Progress", key: jobId, rows: progress.value.rows })
    })
    yield* Effect.tryPromise({ try: () => Promise.all([jobs.waitUntilReady(), events.waitUntilReady()]), catch: unavailable })

    // Enqueue. A job left finished by an earlier run under the same key would make the add a
    // no-op and never run again: it is removed first (a waiting or active one is adopted as it is).
    // The new job is cheap when the earlier run stored the partition: the worker finds it in the store.
    for (let i = 0; i < keys.length; i += BATCH) {
      const batch = keys.slice(i, i + BATCH)
      yield* Effect.tryPromise({
        try: async () => {
          const states = await Promise.all(batch.map((k) => jobs.getJobState(k)))
          await Promise.all(batch.map((k, j) => (states[j] === "completed" || states[j] === "failed" ? jobs.remove(k) : undefined)))
          await jobs.addBulk(batch.map((k) => ({ name: PARSE_OBJECT, data: jobOf(k), opts: { jobId: k } })))
        },
        catch: unavailable
      })
    }

    // A build waits for workers, however long; say so when there are none (CLIENT LIST may be
    // refused by a managed Redis: then nothing is said).
    const workerCount = yield* Effect.tryPromise(() => jobs.getWorkersCount()).pipe(Effect.option)
    if (Option.contains(workerCount, 0)) {
      yield* Effect.logWarning(`no worker is listening on build queue ${settings.queueName} yet: ${keys.length} objects wait for one (make build-worker)`)
    }

    const claimed = new Set<string>()
    const reported = new Map<string, number>()

    // Insurance against a missed event (the event stream is trimmed, a connection dropped): read
    // back the state of every job not yet heard of; a job gone missing is added again.
    const reconcile = Effect.gen(function* () {
      const pending = keys.filter((k) => !claimed.has(k))
      for (let i = 0; i < pending.length; i += BATCH) {
        const batch = pending.slice(i, i + BATCH)
        const found = yield* Effect.tryPromise({
          try: () => Promise.all(batch.map(async (k) => ({ key: k, state: await jobs.getJobState(k), job: await jobs.getJob(k) }))),
          catch: unavailable
        })
        for (const { key, state, job } of found) {
          if (state === "completed" && job) offer({ _tag: "Completed", key, result: job.returnvalue })
          else if (state === "failed" && job) offer({ _tag: "Failed", key, reason: job.failedReason })
          else if (state === "unknown") yield* Effect.tryPromise({ try: () => jobs.add(PARSE_OBJECT, jobOf(key), { jobId: key }), catch: unavailable })
        }
      }
    })
    yield* reconcile.pipe(
      Effect.catchAll((e) => Effect.logWarning(`reconciling job states: ${e.message}`)),
      Effect.schedule(Schedule.spaced(settings.reconcileMs)),
      Effect.forkScoped
    )

    const rowsSoFar = (key: string, rows: number) => {
      const delta = rows - (reported.get(key) ?? 0)
      // A retried job counts again from zero: only rows beyond those already reported are new.
      if (delta <= 0) return
      reported.set(key, rows)
      onEvent(byKey.get(key)!, { _tag: "Rows", n: delta })
    }

    const fetchPartition = (key: string, result: unknown) =>
      Effect.gen(function* () {
        const request = byKey.get(key)!
        const failed = (reason: string) => new DistributedReadFailed({ path: request.path, reason })
        const decoded = yield* Schema.decodeUnknown(ParseObjectResult)(result).pipe(Effect.mapError((e) => failed(`the job's result does not decode: ${e.message}`)))
        const partition = yield* downloadPartition(s3, settings.store, key, decoded.files, request.dir).pipe(Effect.mapError((e) => failed(e.message)))
        rowsSoFar(key, Object.values(partition.rows).reduce((a, b) => a + b, 0))
        onEvent(request, { _tag: "Parsed", partition })
      })

    yield* Stream.fromQueue(outcomes).pipe(
      Stream.mapEffect((o) =>
        Effect.gen(function* () {
          if (claimed.has(o.key)) return Option.none<{ key: string; result: unknown }>()
          switch (o._tag) {
            case "Progress":
              rowsSoFar(o.key, o.rows)
              return Option.none()
            case "Failed":
              return yield* new DistributedReadFailed({ path: byKey.get(o.key)!.path, reason: o.reason })
            case "Completed":
              claimed.add(o.key)
              return Option.some({ key: o.key, result: o.result })
          }
        })
      ),
      Stream.filterMap((o) => o),
      Stream.mapEffect(({ key, result }) => fetchPartition(key, result), { concurrency: settings.downloads, unordered: true }),
      Stream.take(keys.length),
      Stream.runDrain
    )
  }).pipe(Effect.scoped, Effect.withSpan("parseInQueue", { attributes: { objects: requests.length, queue: settings.queueName } }))

/** Removes a build's queues (ingest and embedding) and everything in them (tests; an operator retiring a queue name). */
export const obliterateQueue = (settings: Pick<BuildQueueSettings, "redisUrl" | "queueName">) =>
  Effect.forEach(
    [settings.queueName, embedQueueName(settings.queueName)],
    (queue) =>
      Effect.acquireUseRelease(
        Effect.sync(() => new JobQueue(queue, { connection: redisConnection(settings.redisUrl) })),
        (q) => Effect.tryPromise({ try: () => q.obliterate({ force: true }), catch: (e) => new BuildQueueUnavailable({ queue, reason: reasonOf(e) }) }),
        (q) => Effect.promise(() => q.close())
      ),
    { discard: true }
  )
