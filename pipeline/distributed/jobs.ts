/**
 * What travels through the build queue: one job per corpus object, its id the object's partition
 * key, so adding the same object twice (a coordinator that restarts and enqueues again) is a
 * no-op in BullMQ, and two builds that read the same bytes with the same code name the same job.
 *
 * Job data and return values come back from Redis as untyped JSON: both sides decode them with
 * these schemas rather than trusting a cast.
 */
import type { ConnectionOptions } from "bullmq"
import { Redacted, Schema } from "effect"
import { ObjectPartition } from "../ingest/partition.ts"

/** The BullMQ job name: one kind of task so far (embedding batches would be a second). */
export const PARSE_OBJECT = "parse-object"

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
