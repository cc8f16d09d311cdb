/**
 * What embedding workers and the coordinator exchange through the build store (BUILD_STORE):
 *
 * - `<prefix>encoders/<hash>/` the encoder folder the encoder stage wrote, stored once by its
 *   content hash (encoderHash): its files, then `encoder.json` listing each file's size and
 *   sha256, last, so a listed encoder is complete. Workers download it once into a folder of their
 *   own, check every file against the listing and load it with the local loader (core/encoder).
 * - `<prefix>vectors/<batch key>.f32` one batch's vectors, raw little-endian float32, texts × dims
 *   in text order: what the encoder returned, before any normalisation (the coordinator scales them
 *   as it does its own).
 */
import { GetObjectCommand, HeadObjectCommand, NoSuchKey, NotFound, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3"
import { Data, Effect, Option, Schema } from "effect"
import { createHash } from "node:crypto"
import { createReadStream, createWriteStream } from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import type { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import { filesUnder, sha256OfFile } from "../../core/artifacts/files.ts"
import type { PartitionStoreLocation } from "./jobs.ts"

export class EmbedStoreFailed extends Data.TaggedError("EmbedStoreFailed")<{
  /** The encoder's hash or the batch's key. */
  readonly key: string
  readonly operation: "upload" | "download" | "lookup"
  readonly reason: string
}> {
  override get message() {
    return `${this.key}: ${this.operation} failed: ${this.reason}`
  }
}

const StoredEncoderFile = Schema.Struct({ name: Schema.String, bytes: Schema.Number, sha256: Schema.String })
/** `encoder.json` in the store: the folder's files, sorted by name. */
export const StoredEncoder = Schema.Struct({ files: Schema.Array(StoredEncoderFile) })
export type StoredEncoder = typeof StoredEncoder.Type

const ENCODER_LISTING = "encoder.json"

const reasonOf = (e: unknown) => (e instanceof Error ? e.message : String(e))
const isMissing = (e: unknown) => e instanceof NoSuchKey || e instanceof NotFound || (e as { name?: string })?.name === "NotFound"

const encoderPrefix = (store: PartitionStoreLocation, hash: string) => `${store.prefix}encoders/${hash}/`
const vectorsKey = (store: PartitionStoreLocation, key: string) => `${store.prefix}vectors/${key}.f32`

/** The content hash of an encoder folder: its files' names and sha256, in name order. */
export const encoderHash = (listing: StoredEncoder) => {
  const h = createHash("sha256")
  for (const f of listing.files) h.update(`${f.name}\u0000${f.bytes}\u0000${f.sha256}\n`)
  return h.digest("hex").slice(0, 32)
}

/** Lists a local encoder folder (every file, with size and sha256). */
export const describeEncoder = (folder: string) =>
  Effect.tryPromise({
    try: async (): Promise<StoredEncoder> => {
      const files = []
      for (const name of await filesUnder(folder)) {
        const file = path.join(folder, name)
        files.push({ name, bytes: (await fs.stat(file)).size, sha256: await sha256OfFile(file) })
      }
      return { files }
    },
    catch: (e) => new EmbedStoreFailed({ key: folder, operation: "lookup", reason: reasonOf(e) })
  })

/**
 * Puts the encoder folder in the store under its content hash, unless a complete copy is there
 * already (an earlier build with the same pinned encoder, or a coordinator that restarted); returns the hash.
 */
export const storeEncoder = (client: S3Client, store: PartitionStoreLocation, folder: string) =>
  Effect.gen(function* () {
    const listing = yield* describeEncoder(folder)
    const hash = encoderHash(listing)
    const failed = (operation: "upload" | "lookup") => (e: unknown) => new EmbedStoreFailed({ key: `encoder ${hash}`, operation, reason: reasonOf(e) })
    const prefix = encoderPrefix(store, hash)
    const present = yield* Effect.tryPromise({
      try: () => client.send(new HeadObjectCommand({ Bucket: store.bucket, Key: prefix + ENCODER_LISTING })).then(() => true, (e) => (isMissing(e) ? false : Promise.reject(e))),
      catch: failed("lookup")
    })
    if (present) return hash
    yield* Effect.tryPromise({
      try: async () => {
        for (const f of listing.files) {
          const body = createReadStream(path.join(folder, f.name))
          await client.send(new PutObjectCommand({ Bucket: store.bucket, Key: prefix + f.name, Body: body, ContentLength: f.bytes }))
        }
        // The listing last: it marks the stored encoder complete.
        await client.send(new PutObjectCommand({ Bucket: store.bucket, Key: prefix + ENCODER_LISTING, Body: JSON.stringify(listing), ContentType: "application/json" }))
      },
      catch: failed("upload")
    })
    return hash
  })

/**
 * Downloads the stored encoder `hash` into `folder` (a fresh folder, renamed into place only once
 * every file matches the listing's size and sha256 and the listing matches the hash), so a folder
 * that exists holds exactly that encoder.
 */
export const fetchEncoder = (client: S3Client, store: PartitionStoreLocation, hash: string, folder: string) =>
  Effect.gen(function* () {
    const failed = (reason: string) => new EmbedStoreFailed({ key: `encoder ${hash}`, operation: "download", reason })
    const prefix = encoderPrefix(store, hash)
    const text = yield* Effect.tryPromise({
      try: () => client.send(new GetObjectCommand({ Bucket: store.bucket, Key: prefix + ENCODER_LISTING })).then((res) => res.Body!.transformToString("utf8")),
      catch: (e) => failed(`${ENCODER_LISTING}: ${reasonOf(e)}`)
    })
    const listing = yield* Schema.decodeUnknown(Schema.parseJson(StoredEncoder))(text).pipe(Effect.mapError((e) => failed(`${ENCODER_LISTING} does not decode: ${e.message}`)))
    if (encoderHash(listing) !== hash) return yield* failed(`${ENCODER_LISTING} describes encoder ${encoderHash(listing)}`)
    const bad = listing.files.find((f) => f.name.split("/").some((s) => s === ".." || s === "") || path.isAbsolute(f.name))
    if (bad) return yield* failed(`unexpected file name ${bad.name}`)
    const partial = `${folder}.partial`
    yield* Effect.tryPromise({
      try: async () => {
        await fs.rm(partial, { recursive: true, force: true })
        for (const f of listing.files) {
          const target = path.join(partial, f.name)
          await fs.mkdir(path.dirname(target), { recursive: true })
          const res = await client.send(new GetObjectCommand({ Bucket: store.bucket, Key: prefix + f.name }))
          await pipeline(res.Body as Readable, createWriteStream(target))
          const [bytes, sha256] = [(await fs.stat(target)).size, await sha256OfFile(target)]
          if (bytes !== f.bytes || sha256 !== f.sha256) throw new Error(`${f.name} is ${bytes} bytes (sha256 ${sha256}), the listing says ${f.bytes} (${f.sha256})`)
        }
        await fs.rm(folder, { recursive: true, force: true })
        await fs.rename(partial, folder)
      },
      catch: (e) => failed(reasonOf(e))
    })
    return folder
  })

/** Stores one batch's vectors under its key. */
export const storeVectors = (client: S3Client, store: PartitionStoreLocation, key: string, vectors: ReadonlyArray<Float32Array>, dims: number) =>
  Effect.tryPromise({
    try: async () => {
      const out = new Float32Array(vectors.length * dims)
      vectors.forEach((v, i) => out.set(v, i * dims))
      const body = Buffer.from(out.buffer, out.byteOffset, out.byteLength)
      await client.send(new PutObjectCommand({ Bucket: store.bucket, Key: vectorsKey(store, key), Body: body, ContentLength: body.length }))
      return body.length
    },
    catch: (e) => new EmbedStoreFailed({ key: `batch ${key}`, operation: "upload", reason: reasonOf(e) })
  })

/** The size of the stored vectors of batch `key`, when there are any. */
export const storedVectorBytes = (client: S3Client, store: PartitionStoreLocation, key: string) =>
  Effect.tryPromise({
    try: () =>
      client
        .send(new HeadObjectCommand({ Bucket: store.bucket, Key: vectorsKey(store, key) }))
        .then((h) => Option.fromNullable(h.ContentLength), (e) => (isMissing(e) ? Option.none<number>() : Promise.reject(e))),
    catch: (e) => new EmbedStoreFailed({ key: `batch ${key}`, operation: "lookup", reason: reasonOf(e) })
  })

/** Fetches batch `key`'s vectors: `count` rows of `dims` floats, or a failure saying how the stored object differs. */
export const fetchVectors = (client: S3Client, store: PartitionStoreLocation, key: string, count: number, dims: number) =>
  Effect.gen(function* () {
    const failed = (reason: string) => new EmbedStoreFailed({ key: `batch ${key}`, operation: "download", reason })
    const bytes = yield* Effect.tryPromise({
      try: () => client.send(new GetObjectCommand({ Bucket: store.bucket, Key: vectorsKey(store, key) })).then((res) => res.Body!.transformToByteArray()),
      catch: (e) => failed(reasonOf(e))
    })
    if (bytes.byteLength !== count * dims * 4) return yield* failed(`${bytes.byteLength} bytes stored, ${count} vectors of ${dims} dimensions are ${count * dims * 4}`)
    // Copied into a buffer of its own: the download's bytes need not be 4-byte aligned.
    const all = new Float32Array(count * dims)
    new Uint8Array(all.buffer).set(bytes)
    return Array.from({ length: count }, (_, i) => all.subarray(i * dims, (i + 1) * dims))
  })
