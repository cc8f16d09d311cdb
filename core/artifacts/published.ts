/**
 * Artifact versions published to S3, for replicas on other machines (`make artifacts PUBLISH=…`,
 * `ARTIFACTS_URL=…`). Layout under the prefix:
 *
 *   blobs/<sha256>            a file's bytes, stored by content: a file that did not change
 *                             between versions (a reused stage, a hard link) is uploaded once
 *                             and a replica that already holds it never downloads it again
 *   versions/<version>.json   PublishedVersion: every file of the version with its sha256 and size
 *   current                   {"version": …}: written last, once everything it names is uploaded
 *
 * A replica downloads a version into a hidden folder beside its local versions, verifies every
 * file against the listed sha256 and size and the manifest against its schema, and only then
 * renames the folder into place and switches its local `current`: a partial or corrupt download
 * is never served. catalog.duckdb holds absolute paths, so it is not published; each side writes
 * its own.
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand
} from "@aws-sdk/client-s3"
import { Effect, Schema } from "effect"
import { createHash } from "node:crypto"
import { createReadStream, createWriteStream } from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import type { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import { writeCatalog } from "./catalog.ts"
import { sha256OfFile } from "./files.ts"
import { decodeManifest } from "./manifest.ts"
import type { S3Location } from "./s3.ts"
import { completeVersions, pruneVersions, switchCurrent, VERSION_NAME } from "./versions.ts"

/** A version-relative path a replica may write: forward slashes, no `..`, no hidden or absolute parts. */
const SAFE_PATH = /^(?!.*(?:^|\/)\.)[A-Za-z0-9_][A-Za-z0-9_.-]*(?:\/[A-Za-z0-9_][A-Za-z0-9_.-]*)*$/

export const PublishedFile = Schema.Struct({
  path: Schema.String.pipe(Schema.pattern(SAFE_PATH, { message: () => "a published path must be relative, without `..` or hidden parts" })),
  sha256: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)),
  bytes: Schema.Number.pipe(Schema.int(), Schema.nonNegative())
})
export type PublishedFile = typeof PublishedFile.Type

export const PublishedVersion = Schema.Struct({
  formatVersion: Schema.Literal(1),
  version: Schema.String.pipe(Schema.pattern(VERSION_NAME)),
  publishedAt: Schema.String,
  files: Schema.Array(PublishedFile)
})
export type PublishedVersion = typeof PublishedVersion.Type

export const CurrentPointer = Schema.Struct({ version: Schema.String.pipe(Schema.pattern(VERSION_NAME)) })

/** A replica keeps the list it downloaded beside the version: it names the sha256 of every file without re-reading them. */
export const PUBLISHED_FILE = "published.json"

/** Files a version is published without (written by each side for itself). */
const LOCAL_ONLY = new Set(["catalog.duckdb", "catalog.duckdb.wal", PUBLISHED_FILE])

/** Above this a file goes up in parts (S3 refuses single uploads over 5 GB; 10.5M vectors are ~10 GB). */
const PART_BYTES = 256 * 1024 * 1024

const keyOf = (loc: S3Location, rel: string) => `${loc.prefix}${rel}`

async function* walk(root: string, rel = ""): AsyncGenerator<string> {
  const entries = await fs.readdir(path.join(root, rel), { withFileTypes: true })
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const e of entries) {
    if (e.name.startsWith(".")) continue
    const r = rel ? `${rel}/${e.name}` : e.name
    if (e.isDirectory()) yield* walk(root, r)
    else if (e.isFile() && !LOCAL_ONLY.has(r)) yield r
  }
}

const exists = async (client: S3Client, bucket: string, key: string) =>
  client.send(new HeadObjectCommand({ Bucket: bucket, Key: key })).then(
    () => true,
    (e: { name?: string; $metadata?: { httpStatusCode?: number } }) => {
      if (e.name === "NotFound" || e.$metadata?.httpStatusCode === 404) return false
      throw e
    }
  )

const uploadFile = async (client: S3Client, bucket: string, key: string, file: string, bytes: number) => {
  if (bytes <= PART_BYTES) {
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: createReadStream(file), ContentLength: bytes }))
    return
  }
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }))
  try {
    const parts = []
    for (let start = 0, n = 1; start < bytes; start += PART_BYTES, n++) {
      const end = Math.min(bytes, start + PART_BYTES)
      const { ETag } = await client.send(
        new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: n, Body: createReadStream(file, { start, end: end - 1 }), ContentLength: end - start })
      )
      parts.push({ ETag, PartNumber: n })
    }
    await client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId, MultipartUpload: { Parts: parts } }))
  } catch (e) {
    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId })).catch(() => undefined)
    throw e
  }
}

export interface PublishOutcome {
  readonly version: string
  readonly files: number
  readonly uploaded: number
  readonly uploadedBytes: number
  readonly reusedBytes: number
}

/**
 * Uploads a complete local version and then moves the `current` pointer to it. Files whose
 * content is already stored (any earlier version) are not uploaded again.
 */
export const publishVersion = async (client: S3Client, loc: S3Location, versionDir: string): Promise<PublishOutcome> => {
  const manifest = await Effect.runPromise(decodeManifest(JSON.parse(await fs.readFile(path.join(versionDir, "manifest.json"), "utf8"))))
  // The manifest already knows the sha256 of every stage output; other files are hashed here.
  const known = new Map(manifest.stages.flatMap((s) => s.outputs.map((o) => [o.path, o] as const)))
  const files: PublishedFile[] = []
  let uploaded = 0
  let uploadedBytes = 0
  let reusedBytes = 0
  for await (const rel of walk(versionDir)) {
    const full = path.join(versionDir, rel)
    const bytes = (await fs.stat(full)).size
    const listed = known.get(rel)
    const sha256 = listed && listed.bytes === bytes ? listed.sha256 : await sha256OfFile(full)
    const blob = keyOf(loc, `blobs/${sha256}`)
    if (await exists(client, loc.bucket, blob)) reusedBytes += bytes
    else {
      await uploadFile(client, loc.bucket, blob, full, bytes)
      uploaded++
      uploadedBytes += bytes
    }
    files.push({ path: rel, sha256, bytes })
  }
  const published: PublishedVersion = { formatVersion: 1, version: manifest.version, publishedAt: new Date().toISOString(), files }
  await client.send(
    new PutObjectCommand({ Bucket: loc.bucket, Key: keyOf(loc, `versions/${manifest.version}.json`), Body: JSON.stringify(published), ContentType: "application/json" })
  )
  await client.send(new PutObjectCommand({ Bucket: loc.bucket, Key: keyOf(loc, "current"), Body: JSON.stringify({ version: manifest.version }), ContentType: "application/json" }))
  return { version: manifest.version, files: files.length, uploaded, uploadedBytes, reusedBytes }
}

const readJson = async (client: S3Client, loc: S3Location, rel: string) => {
  const r = await client.send(new GetObjectCommand({ Bucket: loc.bucket, Key: keyOf(loc, rel) }))
  return JSON.parse(await r.Body!.transformToString()) as unknown
}

/** The version the bucket's `current` pointer names. */
export const publishedCurrent = async (client: S3Client, loc: S3Location) =>
  (await Effect.runPromise(Schema.decodeUnknown(CurrentPointer)(await readJson(client, loc, "current")))).version

export class DownloadRejected extends Error {}

/** A file of an earlier local version with the same content, to hard-link instead of downloading. */
const localCopies = async (root: string) => {
  const bySha = new Map<string, string>()
  for (const v of await completeVersions(root)) {
    const list = await fs
      .readFile(path.join(root, v, PUBLISHED_FILE), "utf8")
      .then((t) => Schema.decodeUnknownSync(PublishedVersion)(JSON.parse(t)), () => undefined)
    for (const f of list?.files ?? []) bySha.set(f.sha256, path.join(root, v, f.path))
  }
  return bySha
}

/** Streams a blob to `target`, hashing on the way; refuses the file unless size and sha256 match. */
const downloadBlob = async (client: S3Client, loc: S3Location, f: PublishedFile, target: string) => {
  const r = await client.send(new GetObjectCommand({ Bucket: loc.bucket, Key: keyOf(loc, `blobs/${f.sha256}`) }))
  const h = createHash("sha256")
  let bytes = 0
  const body = r.Body as Readable
  body.on("data", (c: Buffer) => {
    h.update(c)
    bytes += c.length
  })
  await pipeline(body, createWriteStream(target))
  const sha = h.digest("hex")
  if (bytes !== f.bytes || sha !== f.sha256) throw new DownloadRejected(`${f.path}: got ${bytes} bytes with sha256 ${sha.slice(0, 12)}…, the version lists ${f.bytes} bytes with ${f.sha256.slice(0, 12)}…`)
}

export interface FetchOutcome {
  readonly version: string
  readonly downloaded: number
  readonly downloadedBytes: number
  readonly linked: number
}

/**
 * Makes `version` (published at `loc`) a complete local version under `root` and switches the
 * local `current` to it, keeping `keep` versions. Nothing under its final name exists until every
 * file is verified.
 */
export const fetchVersion = async (client: S3Client, loc: S3Location, version: string, root: string, keep = 3): Promise<FetchOutcome> => {
  if (!VERSION_NAME.test(version)) throw new DownloadRejected(`not a version name: ${version.slice(0, 60)}`)
  await fs.mkdir(root, { recursive: true })
  const finalDir = path.join(root, version)
  const listed = await Effect.runPromise(Schema.decodeUnknown(PublishedVersion)(await readJson(client, loc, `versions/${version}.json`))).catch((e) => {
    throw new DownloadRejected(`versions/${version}.json does not describe a version: ${e instanceof Error ? e.message.slice(0, 300) : String(e)}`)
  })
  if (listed.version !== version) throw new DownloadRejected(`versions/${version}.json describes ${listed.version}`)
  let downloaded = 0
  let downloadedBytes = 0
  let linked = 0
  if (!(await fs.stat(path.join(finalDir, "manifest.json")).then(() => true, () => false))) {
    const work = path.join(root, `.download-${version}`)
    await fs.rm(work, { recursive: true, force: true })
    const copies = await localCopies(root)
    for (const f of listed.files) {
      const target = path.join(work, f.path)
      await fs.mkdir(path.dirname(target), { recursive: true })
      const local = copies.get(f.sha256)
      const reused = local && (await fs.stat(local).then((s) => s.size === f.bytes, () => false)) && (await fs.link(local, target).then(() => true, () => false))
      if (reused) linked++
      else {
        await downloadBlob(client, loc, f, target)
        downloaded++
        downloadedBytes += f.bytes
      }
    }
    const manifest = await Effect.runPromise(decodeManifest(JSON.parse(await fs.readFile(path.join(work, "manifest.json"), "utf8").catch(() => "null")))).catch(() => undefined)
    if (manifest?.version !== version) throw new DownloadRejected(`the downloaded manifest of ${version} does not validate`)
    await fs.writeFile(path.join(work, PUBLISHED_FILE), JSON.stringify(listed))
    await fs.rename(work, finalDir)
    await writeCatalog(finalDir)
  }
  await switchCurrent(root, version)
  await pruneVersions(root, keep)
  return { version, downloaded, downloadedBytes, linked }
}
