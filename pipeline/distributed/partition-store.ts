/**
 * The partition store: raw partitions on S3 under `<BUILD_STORE prefix>/partitions/<key>/`, the
 * same files a local build leaves in `.ingest/<key>/`. Workers upload there, the coordinator
 * downloads from there; the machines share nothing else.
 *
 * `object.json` goes last both ways, as on local disk: a partition whose object.json is in the
 * store is complete (a worker killed during the upload leaves no object.json, and the job's retry
 * uploads again), and a local folder with object.json was downloaded in full.
 */
import { GetObjectCommand, HeadObjectCommand, NoSuchKey, NotFound, PutObjectCommand, S3Client } from "@aws-sdk/client-s3"
import { Data, Effect, Option } from "effect"
import { createReadStream, createWriteStream } from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import type { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import { makeS3Client, type S3Settings } from "../../core/artifacts/s3.ts"
import { decodeObjectPartition, type ObjectPartition, PARTITION_INDEX, partitionFiles } from "../ingest/partition.ts"
import type { PartitionFile, PartitionStoreLocation } from "./jobs.ts"

export class PartitionStoreFailed extends Data.TaggedError("PartitionStoreFailed")<{
  readonly key: string
  readonly operation: "upload" | "download" | "lookup"
  readonly reason: string
}> {
  override get message() {
    return `partition ${this.key}: ${this.operation} failed: ${this.reason}`
  }
}

/** One S3 client for the process's lifetime, destroyed (its sockets closed) with the scope. */
export const scopedS3Client = (settings: S3Settings) =>
  Effect.acquireRelease(
    Effect.sync(() => makeS3Client(settings)),
    (client) => Effect.sync(() => client.destroy())
  )

export const partitionKeyPrefix = (store: PartitionStoreLocation, key: string) => `${store.prefix}partitions/${key}/`

const reasonOf = (e: unknown) => (e instanceof Error ? e.message : String(e))

const isMissing = (e: unknown) => e instanceof NoSuchKey || e instanceof NotFound || (e as { name?: string })?.name === "NotFound"

/**
 * Uploads a partition folder written by parseObject: the Parquet files, then object.json.
 * Returns each file's size, which the coordinator checks its download against.
 */
export const uploadPartition = (client: S3Client, store: PartitionStoreLocation, key: string, dir: string, partition: ObjectPartition) =>
  Effect.tryPromise({
    try: async () => {
      const files: PartitionFile[] = []
      // partitionFiles lists object.json last: it marks the stored partition complete.
      for (const name of partitionFiles(partition)) {
        const file = path.join(dir, name)
        const { size } = await fs.stat(file)
        await client.send(
          new PutObjectCommand({ Bucket: store.bucket, Key: partitionKeyPrefix(store, key) + name, Body: createReadStream(file), ContentLength: size })
        )
        files.push({ name, bytes: size })
      }
      return files
    },
    catch: (e) => new PartitionStoreFailed({ key, operation: "upload", reason: reasonOf(e) })
  })

/**
 * The stored partition for `key` when it is complete (object.json present and every file it lists
 * there), else none. Lets a retried job, or a later build reading the same bytes with the same
 * code, skip the read: partitions are idempotent.
 */
export const storedPartition = (client: S3Client, store: PartitionStoreLocation, key: string) =>
  Effect.gen(function* () {
    const prefix = partitionKeyPrefix(store, key)
    const index = yield* Effect.tryPromise({
      try: () =>
        client
          .send(new GetObjectCommand({ Bucket: store.bucket, Key: prefix + PARTITION_INDEX }))
          .then((res) => res.Body!.transformToString("utf8"))
          .then((text) => text as string | undefined, (e) => (isMissing(e) ? undefined : Promise.reject(e))),
      catch: (e) => new PartitionStoreFailed({ key, operation: "lookup", reason: reasonOf(e) })
    })
    if (index === undefined) return Option.none()
    // An object.json that does not decode is treated as absent: the job reads the object again and overwrites it.
    const partition = yield* decodeObjectPartition(index).pipe(Effect.option)
    if (Option.isNone(partition)) return Option.none()
    const files: PartitionFile[] = []
    for (const name of partitionFiles(partition.value)) {
      const bytes = yield* Effect.tryPromise({
        try: () =>
          name === PARTITION_INDEX
            ? Promise.resolve(Buffer.byteLength(index))
            : client
                .send(new HeadObjectCommand({ Bucket: store.bucket, Key: prefix + name }))
                .then((h) => h.ContentLength ?? -1, (e) => (isMissing(e) ? -1 : Promise.reject(e))),
        catch: (e) => new PartitionStoreFailed({ key, operation: "lookup", reason: reasonOf(e) })
      })
      if (bytes < 0) return Option.none()
      files.push({ name, bytes })
    }
    return Option.some({ partition: partition.value, files })
  })

/**
 * Downloads a stored partition into `dir` (emptied first), checking each file's size against what
 * the worker stored and the file list against the downloaded object.json, and returns the
 * partition that object.json describes. object.json is checked under a temporary name and renamed
 * into place last, as parseObject does, so the stage's resume check (readPartition) never takes a
 * half-downloaded or mismatched folder for a complete one.
 */
export const downloadPartition = (client: S3Client, store: PartitionStoreLocation, key: string, files: ReadonlyArray<PartitionFile>, dir: string) =>
  Effect.gen(function* () {
    const failed = (reason: string) => new PartitionStoreFailed({ key, operation: "download", reason })
    const index = files.find((f) => f.name === PARTITION_INDEX)
    if (!index) return yield* failed(`the job's result lists no ${PARTITION_INDEX}`)
    const bad = files.find((f) => f.name.includes("/") || f.name.startsWith("."))
    if (bad) return yield* failed(`unexpected file name ${bad.name}`)
    const pending = path.join(dir, `.${PARTITION_INDEX}.tmp`)
    const fetchTo = (f: PartitionFile, target: string) =>
      Effect.tryPromise({
        try: async () => {
          const res = await client.send(new GetObjectCommand({ Bucket: store.bucket, Key: partitionKeyPrefix(store, key) + f.name }))
          await pipeline(res.Body as Readable, createWriteStream(target))
          return (await fs.stat(target)).size
        },
        catch: (e) => failed(`${f.name}: ${reasonOf(e)}`)
      }).pipe(Effect.filterOrFail((size) => size === f.bytes, (size) => failed(`${f.name} is ${size} bytes, the worker stored ${f.bytes}`)))

    yield* Effect.tryPromise({
      try: async () => {
        await fs.rm(dir, { recursive: true, force: true })
        await fs.mkdir(dir, { recursive: true })
      },
      catch: (e) => failed(reasonOf(e))
    })
    for (const f of files) if (f !== index) yield* fetchTo(f, path.join(dir, f.name))
    yield* fetchTo(index, pending)
    const text = yield* Effect.tryPromise({ try: () => fs.readFile(pending, "utf8"), catch: (e) => failed(reasonOf(e)) })
    const partition = yield* decodeObjectPartition(text).pipe(Effect.mapError((e) => failed(`object.json does not decode: ${e.message}`)))
    // Exactly the files the partition lists (one Parquet file per table with rows, and object.json).
    if (!sameNames(partitionFiles(partition), files.map((f) => f.name))) {
      return yield* failed(`object.json lists ${partitionFiles(partition).join(", ")}, the job stored ${files.map((f) => f.name).join(", ")}`)
    }
    yield* Effect.tryPromise({ try: () => fs.rename(pending, path.join(dir, PARTITION_INDEX)), catch: (e) => failed(reasonOf(e)) })
    return partition
  })

const sameNames = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => [...a].sort().join("\n") === [...b].sort().join("\n")
