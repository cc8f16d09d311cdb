/**
 * What travels through the build queues. Ingest: one job per corpus object, its id the object's
 * partition key, so adding the same object twice (a coordinator that restarts and enqueues again)
 * is a no-op in BullMQ, and two builds that read the same bytes with the same code name the same
 * job. Embedding: one job per batch of texts, its id derived from the encoder, the encoding code
 * and the texts (batchKey), with the same consequences.
 *
 * Job data and return values come back from Redis as untyped JSON: both sides decode them with
 * these schemas rather than trusting a cast.
 */
import type { ConnectionOptions } from "bullmq"
import { Redacted, Schema } from "effect"
import { createHash } from "node:crypto"
import { ObjectPartition } from "../ingest/partition.ts"
import { codeVersionOf } from "../stages/fingerprint.ts"

/** The BullMQ job names, one per queue (embedQueueName). */
export const PARSE_OBJECT = "parse-object"
export const ENCODE_BATCH = "encode-batch"

/**
 * Embedding batches go on a queue of their own beside the ingest queue (`<BUILD_QUEUE_NAME>.embed`),
 * served by the same worker process: BullMQ then gives each kind its own concurrency (reader
 * threads for objects, one batch at a time for the encoder, which uses every core itself) and its
 * own lock, with no dispatching or semaphore of ours.
 */
export const embedQueueName = (queueName: string) => `${queueName}.embed`

const CorpusLocation = Schema.Union(
  Schema.Struct({ _tag: Schema.Literal("Local"), root: Schema.String, display: Schema.String }),
  Schema.Struct({ _tag: Schema.Literal("S3"), bucket: Schema.String, prefix: Schema.String, display: Schema.String })
)

/** Where partitions are kept between the worker that reads an object and the coordinator. */
export const PartitionStoreLocation = Schema.Struct({ bucket: Schema.String, prefix: Schema.String })
export type PartitionStoreLocation = typeof PartitionStoreLocation.Type

/**
 * Read one corpus object. The partition store travels with the job, so a worker needs only
 * Redis and S3 access, not the build's settings. A `Local` corpus location must be the same path
 * on the worker's machine (a shared mount); a corpus on S3 needs nothing shared.
 */
export const ParseObjectJob = Schema.Struct({
  key: Schema.String,
  location: CorpusLocation,
  path: Schema.String,
  fingerprint: Schema.String,
  codeVersion: Schema.String,
  store: PartitionStoreLocation
})
export type ParseObjectJob = typeof ParseObjectJob.Type

export const PartitionFile = Schema.Struct({ name: Schema.String, bytes: Schema.Number })
export type PartitionFile = typeof PartitionFile.Type

/** What a job returns: the partition, and the size of each file stored, which the coordinator checks its download against. */
export const ParseObjectResult = Schema.Struct({ partition: ObjectPartition, files: Schema.Array(PartitionFile) })
export type ParseObjectResult = typeof ParseObjectResult.Type

/** Rows read so far by the job's current attempt (progress lines on the coordinator). */
export const ParseProgress = Schema.Struct({ rows: Schema.Number })

/**
 * The code a batch's vectors depend on: the encoder loader and runtime (core/encoder, everything it
 * imports, the onnxruntime-node version). A worker refuses a batch asked for by other code, as it
 * refuses an object for other reading code.
 */
export const encodingCodeVersion = () => codeVersionOf(["core/encoder/encoder.ts"])

/**
 * A batch job's id and the name of its vectors in the store: the encoder (content hash of its
 * folder), the encoding code, the encoder's thread count and the texts in order. A retried,
 * re-added or duplicated batch is the same job, and its stored vectors stay valid for any build
 * that asks for the same batch.
 */
export const batchKey = (encoder: string, codeVersion: string, threads: number, texts: ReadonlyArray<string>) => {
  const h = createHash("sha256").update(`${encoder}\u0000${codeVersion}\u0000${threads}\u0000${texts.length}`)
  for (const t of texts) h.update("\u0000").update(t)
  return h.digest("hex").slice(0, 32)
}

/**
 * Encode a batch of texts with the encoder stored under `encoder` (its content hash) in the build
 * store. The worker stores the vectors (raw float32, texts.length × dims, little-endian) under the
 * job's key; the coordinator places them.
 */
export const EncodeBatchJob = Schema.Struct({
  key: Schema.String,
  encoder: Schema.String,
  codeVersion: Schema.String,
  dims: Schema.Int.pipe(Schema.positive()),
  /**
   * onnxruntime intra-op threads the encoder runs with. The last bits of a vector depend on it
   * (measured: 1 and 2 threads agree, 3 and more differ on the sample), so the worker uses the
   * coordinator's count, not its own cores.
   */
  threads: Schema.Int.pipe(Schema.between(1, 1024)),
  texts: Schema.Array(Schema.String),
  store: PartitionStoreLocation
})
export type EncodeBatchJob = typeof EncodeBatchJob.Type

/** What a batch job returns: how many vectors of how many dimensions it stored (the coordinator checks its download against both). */
export const EncodeBatchResult = Schema.Struct({ count: Schema.Number, dims: Schema.Number, bytes: Schema.Number })
export type EncodeBatchResult = typeof EncodeBatchResult.Type

/**
 * BullMQ connection options from a `redis://[user:password@]host[:port][/db]` URL (`rediss://`
 * for TLS). Options rather than a client: BullMQ then opens and closes its own connections,
 * including the blocking one a worker needs, and ioredis stays BullMQ's dependency, not ours.
 */
export const redisConnection = (url: Redacted.Redacted<string>): ConnectionOptions => {
  const u = new URL(Redacted.value(url))
  const db = Number(u.pathname.replace(/^\//, "") || "0")
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: Number.isInteger(db) ? db : 0,
    tls: u.protocol === "rediss:" ? {} : undefined,
    // BullMQ's workers block on Redis and must not give up on a command while Redis restarts.
    maxRetriesPerRequest: null
  }
}
