/**
 * The embedding side of a build worker: takes encode-batch jobs, encodes the batch's texts with the
 * build's encoder (fetched from the build store once, kept loaded) and stores the vectors.
 *
 * The worker encodes exactly the texts of the job, in its order, with the loader and encoder a
 * local build runs (core/encoder); a text's vector does not depend on the batch it falls in
 * (core/encoder/batching.ts), so the coordinator can place the stored rows where local encoding
 * would have put them and get the same bytes.
 */
import type { S3Client } from "@aws-sdk/client-s3"
import type { Job } from "bullmq"
import { Data, Duration, Effect, Exit, Option, Schema, ScopedCache } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { loadTextEncoder } from "../../core/encoder/encoder.ts"
import { EncodeBatchJob, type EncodeBatchResult } from "./jobs.ts"
import { fetchEncoder, storedVectorBytes, storeVectors } from "./embed-store.ts"

/**
 * The job asks for vectors from other encoding code than this worker runs (a worker left on an
 * older checkout). Its vectors would be stored under a key that names the other code: the job
 * fails at once, without retries, and the build says why.
 */
export class EncodingCodeMismatch extends Data.TaggedError("EncodingCodeMismatch")<{
  readonly batch: string
  readonly wanted: string
  readonly running: string
}> {
  override get message() {
    return `this build worker runs encoder code ${this.running}, the build encoding batch ${this.batch} needs ${this.wanted}: run the workers from the build's checkout`
  }
}

export class BatchEncodeFailed extends Data.TaggedError("BatchEncodeFailed")<{
  readonly batch: string
  readonly reason: string
}> {
  override get message() {
    return `encoding batch ${this.batch} failed: ${this.reason}`
  }
}

/** Where a build keeps its encoder and how many threads it runs with: the cache key (Data.struct: equal by value). */
type StoredEncoderAt = Readonly<{ bucket: string; prefix: string; hash: string; threads: number }>

/** Encoders kept loaded at once (a worker usually serves one build's encoder; two cover a build starting while another ends). */
const LOADED_ENCODERS = 2

/**
 * The encode-batch processor, for the worker's lifetime: `scratch` holds the downloaded encoders,
 * and each loaded encoder is closed when the cache drops it or the worker stops.
 */
export const makeBatchEncoding = (s3: S3Client, scratch: string, codeVersion: string) =>
  Effect.gen(function* () {
    const encoders = yield* ScopedCache.makeWith({
      // The key carries the store: jobs name where their build keeps the encoder.
      lookup: ({ bucket, prefix, hash, threads }: StoredEncoderAt) =>
        Effect.gen(function* () {
          const folder = path.join(scratch, "encoders", `${hash}-${threads}`)
          yield* Effect.log(`fetching encoder ${hash}`)
          yield* fetchEncoder(s3, { bucket, prefix }, hash, folder)
          return yield* Effect.acquireRelease(
            Effect.tryPromise({ try: () => loadTextEncoder(folder, { threads }), catch: (e) => new BatchEncodeFailed({ batch: `(encoder ${hash})`, reason: e instanceof Error ? e.message : String(e) }) }),
            (encoder) => Effect.promise(() => encoder.close().then(() => fs.rm(folder, { recursive: true, force: true })))
          )
        }),
      capacity: LOADED_ENCODERS,
      // A failed fetch or load is not remembered: the job's next attempt tries again.
      timeToLive: (exit) => (Exit.isSuccess(exit) ? Duration.infinity : Duration.zero)
    })

    return (job: Job) =>
      Effect.gen(function* () {
        const task = yield* Schema.decodeUnknown(EncodeBatchJob)(job.data)
        yield* Effect.log(`took batch ${task.key} texts=${task.texts.length} attempt=${job.attemptsStarted}`)
        const bytes = task.texts.length * task.dims * 4
        // Already stored: by an attempt killed after its upload, or by an earlier build with the same encoder and texts.
        if (Option.contains(yield* storedVectorBytes(s3, task.store, task.key), bytes)) {
          yield* Effect.log(`found stored batch ${task.key}`)
          return { count: task.texts.length, dims: task.dims, bytes } satisfies EncodeBatchResult
        }
        if (task.codeVersion !== codeVersion) return yield* new EncodingCodeMismatch({ batch: task.key, wanted: task.codeVersion, running: codeVersion })
        const vectors = yield* Effect.scoped(
          Effect.gen(function* () {
            const encoder = yield* encoders.get(Data.struct({ bucket: task.store.bucket, prefix: task.store.prefix, hash: task.encoder, threads: task.threads }))
            if (encoder.dimensions !== task.dims) {
              return yield* new BatchEncodeFailed({ batch: task.key, reason: `encoder ${task.encoder} gives ${encoder.dimensions} dimensions, the build expects ${task.dims}` })
            }
            return yield* Effect.tryPromise({ try: () => encoder.encode(task.texts), catch: (e) => new BatchEncodeFailed({ batch: task.key, reason: e instanceof Error ? e.message : String(e) }) })
          })
        )
        const stored = yield* storeVectors(s3, task.store, task.key, vectors, task.dims)
        yield* Effect.log(`stored batch ${task.key}`)
        return { count: vectors.length, dims: task.dims, bytes: stored } satisfies EncodeBatchResult
      }).pipe(Effect.withSpan("build-worker.encodeBatch", { attributes: { jobId: job.id } }))
  })
