/**
 * Settings of a distributed build, read through Effect Config so the stage, the worker process
 * and the tests take them from the same place (environment by default, a ConfigProvider in tests).
 *
 * - `BUILD_QUEUE` (`redis://host:6379[/db]`): unset means no distributed build — ingest reads
 *   with its local worker threads and embed encodes in its own process exactly as before.
 * - `BUILD_STORE` (`s3://bucket/prefix`): where workers put the partitions they read and the
 *   vectors they encode, and the coordinator the encoder; required with BUILD_QUEUE (workers on
 *   other machines share no disk).
 * - `BUILD_QUEUE_NAME` (default `ingest`): the BullMQ queue a build and its workers meet on (ingest
 *   jobs), with `<name>.embed` beside it (embedding batches). One name per build that runs at the
 *   same time as another; jobs are keyed by content, so consecutive builds can safely share a name.
 */
import { Config, ConfigError, Effect, Either, Option, Redacted } from "effect"
import { parseS3Uri, S3Settings, type S3Location } from "../../core/artifacts/s3.ts"
import { ingestWorkers } from "../ingest/pool.ts"

const queueName = Config.string("BUILD_QUEUE_NAME").pipe(
  Config.withDefault("ingest"),
  // BullMQ builds Redis keys as `bull:<name>:…`; a colon would split them.
  Config.validate({ message: "BUILD_QUEUE_NAME must be letters, digits, '-', '_' or '.'", validation: (s) => /^[A-Za-z0-9._-]+$/.test(s) })
)

// Read as a plain string so a missing or malformed value gets a readable error, then kept
// redacted: the URL may carry the Redis password.
const redisUrl = Config.string("BUILD_QUEUE").pipe(
  Config.validate({ message: "BUILD_QUEUE must be redis://[user:password@]host[:port][/db] (rediss:// for TLS)", validation: (s) => /^rediss?:\/\/[^/]/.test(s) }),
  Config.map(Redacted.make)
)

const store = Config.string("BUILD_STORE").pipe(
  Config.mapOrFail((uri) =>
    Either.fromNullable(parseS3Uri(uri), () => ConfigError.InvalidData(["BUILD_STORE"], `BUILD_STORE must be s3://bucket[/prefix], got ${uri}`))
  )
)

/** What the coordinator (the ingest stage) needs to hand objects to workers and collect their partitions. */
export interface BuildQueueSettings {
  readonly redisUrl: Redacted.Redacted<string>
  readonly queueName: string
  readonly store: S3Location
  readonly s3: S3Settings
  /** Tries per object before the build fails on it (a killed worker's stall is not counted as a try). */
  readonly attempts: number
  /** Partitions fetched from the store at once. */
  readonly downloads: number
  /** How often job states are read back, in case a completion event was missed (ms). */
  readonly reconcileMs: number
  /** Texts per embedding job. */
  readonly embedBatch: number
  /** Embedding jobs queued and not yet placed at once: bounds what the texts in flight take in Redis and here. */
  readonly embedInFlight: number
}

const coordinatorSettings = Config.all({
  redisUrl,
  queueName,
  store,
  s3: S3Settings,
  attempts: Config.integer("BUILD_JOB_ATTEMPTS").pipe(
    Config.withDefault(3),
    Config.validate({ message: "BUILD_JOB_ATTEMPTS must be 1 or more", validation: (n) => n >= 1 })
  ),
  downloads: Config.integer("BUILD_DOWNLOADS").pipe(Config.withDefault(4)),
  reconcileMs: Config.integer("BUILD_RECONCILE_MS").pipe(Config.withDefault(10_000)),
  embedBatch: Config.integer("BUILD_EMBED_BATCH").pipe(
    Config.withDefault(256),
    Config.validate({ message: "BUILD_EMBED_BATCH must be 1 or more", validation: (n) => n >= 1 })
  ),
  embedInFlight: Config.integer("BUILD_EMBED_IN_FLIGHT").pipe(
    Config.withDefault(64),
    Config.validate({ message: "BUILD_EMBED_IN_FLIGHT must be 1 or more", validation: (n) => n >= 1 })
  )
})

/** The distributed build's settings, or none when BUILD_QUEUE is unset (local threads). */
export const buildQueueSettings: Effect.Effect<Option.Option<BuildQueueSettings>, ConfigError.ConfigError> = Effect.gen(function* () {
  // The rest is read only when BUILD_QUEUE is set: an unset BUILD_STORE is an error only then.
  if (Option.isNone(yield* Config.option(Config.string("BUILD_QUEUE")))) return Option.none()
  return Option.some(yield* coordinatorSettings)
})

/** What a worker process needs; the partition store travels in each job, so workers serve any build. */
export interface BuildWorkerSettings {
  readonly redisUrl: Redacted.Redacted<string>
  readonly queueName: string
  readonly s3: S3Settings
  /** Objects read at once, each in its own thread. */
  readonly concurrency: number
  /** Embedding batches encoded at once (the encoder spreads one batch over every core). */
  readonly embedConcurrency: number
  /** How long a job's lock lasts without renewal: a killed worker's job is taken back after this (ms). */
  readonly lockDurationMs: number
  /** How often this worker looks for jobs whose lock expired (ms). */
  readonly stalledIntervalMs: number
  /** Stalls (a worker dying with the job) allowed before the job fails instead of going back to the queue. */
  readonly maxStalledCount: number
}

export const buildWorkerSettings: Config.Config<BuildWorkerSettings> = Config.all({
  redisUrl,
  queueName,
  s3: S3Settings,
  // INGEST_WORKERS=0 means "in the stage's own thread" locally; a worker process always reads in at least one thread.
  concurrency: ingestWorkers.pipe(Config.map((n) => Math.max(1, n))),
  embedConcurrency: Config.integer("BUILD_EMBED_CONCURRENCY").pipe(
    Config.withDefault(1),
    Config.validate({ message: "BUILD_EMBED_CONCURRENCY must be 1 or more", validation: (n) => n >= 1 })
  ),
  lockDurationMs: Config.integer("BUILD_LOCK_MS").pipe(Config.withDefault(30_000)),
  stalledIntervalMs: Config.integer("BUILD_STALLED_INTERVAL_MS").pipe(Config.withDefault(30_000)),
  maxStalledCount: Config.integer("BUILD_MAX_STALLED").pipe(Config.withDefault(2))
})
