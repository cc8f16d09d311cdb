/**
 * Distributed-build settings: nothing configured keeps the local thread pool; BUILD_QUEUE asks for
 * a partition store, a sound queue name and a batch of at least one text; a worker always reads in
 * at least one thread and encodes one batch at a time unless told otherwise.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option, Redacted } from "effect"
import { redisConnection } from "../../pipeline/distributed/jobs.ts"
import { buildQueueSettings, buildWorkerSettings } from "../../pipeline/distributed/settings.ts"

const withEnv = (env: Record<string, string>) => Effect.withConfigProvider(ConfigProvider.fromJson(env))

describe("distributed build settings", () => {
  it.effect("unset BUILD_QUEUE means no distributed build, whatever else is set", () =>
    Effect.gen(function* () {
      expect(Option.isNone(yield* buildQueueSettings.pipe(withEnv({})))).toBe(true)
      expect(Option.isNone(yield* buildQueueSettings.pipe(withEnv({ BUILD_STORE: "not a uri" })))).toBe(true)
    })
  )

  it.effect("BUILD_QUEUE reads the store, the queue name and the defaults", () =>
    Effect.gen(function* () {
      const settings = Option.getOrThrow(yield* buildQueueSettings.pipe(withEnv({ BUILD_QUEUE: "redis://127.0.0.1:6379/2", BUILD_STORE: "s3://builds/nightly/" })))
      expect(settings.queueName).toBe("ingest")
      expect(settings.store).toMatchObject({ bucket: "builds", prefix: "nightly/" })
      expect(settings.attempts).toBe(3)
      expect(settings).toMatchObject({ embedBatch: 256, embedInFlight: 64 })
      expect(redisConnection(settings.redisUrl)).toMatchObject({ host: "127.0.0.1", port: 6379, db: 2, maxRetriesPerRequest: null })
    })
  )

  it.effect("BUILD_QUEUE without a valid BUILD_STORE, or a queue name with a colon, is a configuration error", () =>
    Effect.gen(function* () {
      const missing = yield* buildQueueSettings.pipe(withEnv({ BUILD_QUEUE: "redis://127.0.0.1:6379" }), Effect.flip)
      expect(String(missing)).toMatch(/BUILD_STORE/)
      const invalid = yield* buildQueueSettings.pipe(withEnv({ BUILD_QUEUE: "redis://127.0.0.1:6379", BUILD_STORE: "/local/folder" }), Effect.flip)
      expect(String(invalid)).toMatch(/BUILD_STORE must be s3:/)
      const colon = yield* buildQueueSettings.pipe(withEnv({ BUILD_QUEUE: "redis://127.0.0.1:6379", BUILD_STORE: "s3://builds", BUILD_QUEUE_NAME: "a:b" }), Effect.flip)
      expect(String(colon)).toMatch(/BUILD_QUEUE_NAME/)
      const emptyBatch = yield* buildQueueSettings.pipe(withEnv({ BUILD_QUEUE: "redis://127.0.0.1:6379", BUILD_STORE: "s3://builds", BUILD_EMBED_BATCH: "0" }), Effect.flip)
      expect(String(emptyBatch)).toMatch(/BUILD_EMBED_BATCH must be 1 or more/)
    })
  )

  it.effect("a worker reads in at least one thread, and a password in the URL stays redacted", () =>
    Effect.gen(function* () {
      const settings = yield* buildWorkerSettings.pipe(withEnv({ BUILD_QUEUE: "rediss://user:s%40cret@redis.internal:6380", INGEST_WORKERS: "0" }))
      expect(settings.concurrency).toBe(1)
      expect(settings.embedConcurrency).toBe(1)
      expect(String(settings.redisUrl)).not.toMatch(/cret/)
      expect(Redacted.value(settings.redisUrl)).toMatch(/cret/)
      expect(redisConnection(settings.redisUrl)).toMatchObject({ host: "redis.internal", port: 6380, username: "user", password: "s@cret", tls: {} })
    })
  )
})
