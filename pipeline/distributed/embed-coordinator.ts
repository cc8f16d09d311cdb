/**
 * The coordinator side of distributed embedding: the embed stage hands each batch of texts to the
 * embedding queue (`<BUILD_QUEUE_NAME>.embed`) as a BullMQ job and gets the batch's vectors back
 * from the build store, exactly the vectors its own encoder would have returned for that batch.
 * The stage places them by key as it places its own, so the version is the one a single-machine
 * build makes.
 *
 * The encoder the encoder stage wrote goes into the store once, by content hash; each job names
 * it, the encoding code version and its texts, and its id is derived from those three (batchKey):
 * a batch queued twice, by a retry or a restarted coordinator, is one job, and vectors stored by an
 * earlier build for the same batch are taken as they are. Retries (a failed attempt, a worker that
 * died with the job) are BullMQ's: attempts with backoff, and stalled-job recovery.
 */
import { Queue as JobQueue, QueueEvents } from "bullmq"
import { Data, Effect, Either, Option, Schema } from "effect"
import { BuildQueueUnavailable } from "./coordinator.ts"
import { fetchVectors, storeEncoder } from "./embed-store.ts"
import { batchKey, ENCODE_BATCH, EncodeBatchResult, type EncodeBatchJob, embedQueueName, encodingCodeVersion, redisConnection } from "./jobs.ts"
import { scopedS3Client } from "./partition-store.ts"
import type { BuildQueueSettings } from "./settings.ts"

export class DistributedEncodeFailed extends Data.TaggedError("DistributedEncodeFailed")<{
  readonly batch: string
  /** Which applications the batch holds (first … last), for the message. */
  readonly applications: string
  readonly reason: string
}> {
  override get message() {
    return `distributed embedding failed on batch ${this.batch} (${this.applications}): ${this.reason}`
  }
}

const reasonOf = (e: unknown) => (e instanceof Error ? e.message : String(e))

export interface QueueBatchEncoding {
  /** The content hash the encoder is stored under. */
  readonly encoder: string
  /** Vectors of `texts`, in order, encoded by a build worker; `applications` names the batch in errors. */
  readonly encode: (texts: ReadonlyArray<string>, applications: string) => Effect.Effect<Float32Array[], DistributedEncodeFailed | BuildQueueUnavailable>
}

/**
 * Opens the embedding queue for the scope's lifetime and stores the encoder in `encoderFolder`
 * (`dims` wide, run with `threads` intra-op threads, as the stage runs its own) for the workers.
 * `codeVersion` is the encoding code the jobs ask for (default: this checkout's; tests ask for
 * another to see a worker refuse).
 */
export const batchEncodingInQueue = (settings: BuildQueueSettings, encoderFolder: string, dims: number, threads: number, codeVersion?: string) =>
  Effect.gen(function* () {
    const queue = embedQueueName(settings.queueName)
    const unavailable = (e: unknown) => new BuildQueueUnavailable({ queue, reason: reasonOf(e) })
    const connection = redisConnection(settings.redisUrl)
    const jobs = yield* Effect.acquireRelease(
      Effect.sync(
        () =>
          new JobQueue<EncodeBatchJob>(queue, {
            connection,
            defaultJobOptions: {
              attempts: settings.attempts,
              backoff: { type: "exponential", delay: 1000 },
              // Only the last few finished batches stay in Redis: a job holds its texts (a national
              // build's would fill Redis), and its vectors are in the store, where a re-added job finds
              // them. A few, not none, so that a batch finished before its waiter began listening is
              // still read back rather than queued again. Failures stay a week for a look with any
              // BullMQ dashboard.
              removeOnComplete: { count: 4 * settings.embedInFlight },
              removeOnFail: { age: 7 * 24 * 3600 }
            }
          })
      ),
      (q) => Effect.promise(() => q.close())
    )
    // Every batch waiting for its outcome listens for the queue closing: one listener per batch in flight.
    jobs.setMaxListeners(settings.embedInFlight + 16)
    const events = yield* Effect.acquireRelease(
      Effect.sync(() => new QueueEvents(queue, { connection })),
      (e) => Effect.promise(() => e.close())
    )
    yield* Effect.tryPromise({ try: () => Promise.all([jobs.waitUntilReady(), events.waitUntilReady()]), catch: unavailable })
    const s3 = yield* scopedS3Client(settings.s3)
    const store = { bucket: settings.store.bucket, prefix: settings.store.prefix }
    const version = codeVersion ?? (yield* Effect.promise(encodingCodeVersion))
    const encoder = yield* storeEncoder(s3, store, encoderFolder)

    const workerCount = yield* Effect.tryPromise(() => jobs.getWorkersCount()).pipe(Effect.option)
    if (Option.contains(workerCount, 0)) yield* Effect.logWarning(`no worker is listening on build queue ${queue} yet: batches wait for one (make build-worker)`)

    const encode = (texts: ReadonlyArray<string>, applications: string) =>
      Effect.gen(function* () {
        const key = batchKey(encoder, version, threads, texts)
        const failed = (reason: string) => new DistributedEncodeFailed({ batch: key, applications, reason })
        const task: EncodeBatchJob = { key, encoder, codeVersion: version, dims, threads, texts, store }
        const add = Effect.tryPromise({ try: () => jobs.add(ENCODE_BATCH, task, { jobId: key }), catch: unavailable })
        // A job left finished by an earlier run under the same key would make the add a no-op and
        // never run again: it is removed first (a waiting or active one is adopted as it is). The
        // new job is cheap when the earlier run stored the vectors: the worker finds them.
        yield* Effect.tryPromise({
          try: async () => {
            const state = await jobs.getJobState(key)
            if (state === "completed" || state === "failed") await jobs.remove(key)
          },
          catch: unavailable
        })
        let job = yield* add
        let result: unknown
        // The outcome comes as a queue event; every reconcileMs without one (a dropped connection,
        // a trimmed event stream) the job's state is read back, and a job gone missing (removed on
        // completion before the wait began, or lost) is added again: the worker then finds its vectors stored.
        for (;;) {
          const waited = yield* Effect.tryPromise(() => job.waitUntilFinished(events, settings.reconcileMs)).pipe(Effect.either)
          if (Either.isRight(waited)) {
            result = waited.right
            break
          }
          const state = yield* Effect.tryPromise({ try: () => jobs.getJobState(key), catch: unavailable })
          const now = state === "unknown" ? undefined : yield* Effect.tryPromise({ try: () => jobs.getJob(key), catch: unavailable })
          if (state === "failed") return yield* failed(now?.failedReason ?? reasonOf(waited.left.error))
          if (state === "completed" && now) {
            result = now.returnvalue
            break
          }
          job = now ?? (yield* add)
        }
        const stored = yield* Schema.decodeUnknown(EncodeBatchResult)(result).pipe(Effect.mapError((e) => failed(`the job's result does not decode: ${e.message}`)))
        if (stored.count !== texts.length || stored.dims !== dims) {
          return yield* failed(`the worker stored ${stored.count} vectors of ${stored.dims} dimensions, the batch has ${texts.length} texts and the encoder ${dims} dimensions`)
        }
        return yield* fetchVectors(s3, store, key, texts.length, dims).pipe(Effect.mapError((e) => failed(e.message)))
      }).pipe(Effect.withSpan("encodeInQueue", { attributes: { texts: texts.length, queue } }))

    return { encoder, encode } satisfies QueueBatchEncoding
  })
