/**
 * Versions published to S3 and replicas that follow them (ARTIFACTS_URL): a replica downloads the
 * published version, verifies it and serves it; a later publication is picked up without a
 * restart, downloading only the files that changed; a corrupt publication is never served.
 * Runs against a real local S3 server (s3rver).
 */
import { GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3"
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parseS3Uri } from "../../core/artifacts/s3.ts"
import { PUBLISHED_FILE, publishVersion } from "../../core/artifacts/published.ts"
import { startLocalS3, type LocalS3 } from "../support/s3.ts"
import { call, startTestServer, type TestServer } from "./support.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const BUCKET = "published-artifacts"
const sampleDir = fs.realpathSync(await sampleArtifacts())
const [A, B, C] = ["v20990201T000000Z-aaaaaaaa", "v20990202T000000Z-bbbbbbbb", "v20990203T000000Z-cccccccc"]
const location = parseS3Uri(`s3://${BUCKET}/nightly`)!

let s3: LocalS3
let builder: string
let replicaRoot: string
let server: TestServer
let key: string
let appNum: string

/** The sample build as a complete local version named `name` (own manifest; every other file hard-linked). */
const republish = (name: string) => {
  const dir = path.join(builder, name)
  const mirror = (from: string, to: string) => {
    fs.mkdirSync(to, { recursive: true })
    for (const e of fs.readdirSync(from, { withFileTypes: true })) {
      if (e.isDirectory()) mirror(path.join(from, e.name), path.join(to, e.name))
      else fs.linkSync(path.join(from, e.name), path.join(to, e.name))
    }
  }
  mirror(sampleDir, dir)
  const manifest = JSON.parse(fs.readFileSync(path.join(sampleDir, "manifest.json"), "utf8"))
  fs.rmSync(path.join(dir, "manifest.json"))
  fs.writeFileSync(path.join(dir, "manifest.json"), JSON.stringify({ ...manifest, version: name }))
  return dir
}

const waitFor = async (what: string, ok: () => boolean, ms = 60_000) => {
  const end = Date.now() + ms
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

beforeAll(async () => {
  s3 = await startLocalS3(BUCKET)
  process.env.S3_ENDPOINT = s3.endpoint
  const scratch = path.dirname(path.dirname(sampleDir))
  builder = fs.mkdtempSync(path.join(scratch, "publish-builder-"))
  replicaRoot = fs.mkdtempSync(path.join(scratch, "publish-replica-"))
}, 120_000)

afterAll(async () => {
  await server?.close()
  await s3?.close()
  for (const d of [builder, replicaRoot]) if (d) fs.rmSync(d, { recursive: true, force: true })
})

describe("versions published to S3, served by replicas", () => {
  it("publishes every file by content and moves the current pointer last", async () => {
    const out = await publishVersion(s3.client, location, republish(A))
    expect(out.version).toBe(A)
    expect(out.uploaded).toBeGreaterThan(10)
    const pointer = await s3.client.send(new GetObjectCommand({ Bucket: BUCKET, Key: "nightly/current" }))
    expect(JSON.parse(await pointer.Body!.transformToString())).toEqual({ version: A })
  })

  it("a replica started with ARTIFACTS_URL downloads, verifies and serves the published version", async () => {
    server = await startTestServer({ artifactsDir: path.join(replicaRoot, "current"), artifactsUrl: location.display, versionPollMs: 100 })
    key = await server.key({ daily: 100_000, monthly: 1_000_000 })
    expect(server.servedVersion()).toBe(A)
    expect(fs.readlinkSync(path.join(replicaRoot, "current"))).toBe(A)
    // The replica wrote its own catalog (the published one would name the builder's paths).
    expect(fs.existsSync(path.join(replicaRoot, A, "catalog.duckdb"))).toBe(true)
    const points = await call(server.url, "GET", "/api/v1/patent-map/points?limit=100", { key })
    expect(points.status).toBe(200)
    appNum = points.json.points[0].appNum
    const r = await call(server.url, "GET", `/api/v1/patent-map/patent/${appNum}`, { key })
    expect(r.status).toBe(200)
    expect(r.headers.get("x-artifact-version")).toBe(A)
  })

  it("follows a later publication without a restart, uploading and downloading only what changed", async () => {
    const out = await publishVersion(s3.client, location, republish(B))
    // Only the manifest differs from A.
    expect(out.uploaded).toBe(1)
    await waitFor("the replica to serve B", () => server.servedVersion() === B)
    const listed = JSON.parse(fs.readFileSync(path.join(replicaRoot, B, PUBLISHED_FILE), "utf8")) as { files: Array<{ path: string }> }
    // Unchanged files are hard links of A's, not second copies.
    const index = listed.files.find((f) => f.path === "index/vectors.f32")!
    expect(fs.statSync(path.join(replicaRoot, B, index.path)).ino).toBe(fs.statSync(path.join(replicaRoot, A, index.path)).ino)
    const r = await call(server.url, "GET", `/api/v1/patent-map/patent/${appNum}`, { key })
    expect(r.headers.get("x-artifact-version")).toBe(B)
  })

  it("never serves a publication whose files do not match their checksums", async () => {
    const dir = republish(C)
    await publishVersion(s3.client, location, dir)
    // Someone overwrote the manifest blob of C after publication: its bytes no longer match.
    const listed = JSON.parse(
      await (await s3.client.send(new GetObjectCommand({ Bucket: BUCKET, Key: `nightly/versions/${C}.json` }))).Body!.transformToString()
    ) as { files: Array<{ path: string; sha256: string }> }
    const manifestBlob = listed.files.find((f) => f.path === "manifest.json")!.sha256
    await s3.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: `nightly/blobs/${manifestBlob}`, Body: "{}" }))
    await server.followVersion()
    await new Promise((r) => setTimeout(r, 500))
    await server.followVersion()
    expect(server.servedVersion()).toBe(B)
    expect(fs.existsSync(path.join(replicaRoot, C))).toBe(false)
    expect(fs.readlinkSync(path.join(replicaRoot, "current"))).toBe(B)
    const r = await call(server.url, "GET", `/api/v1/patent-map/patent/${appNum}`, { key })
    expect(r.status).toBe(200)
    expect(r.headers.get("x-artifact-version")).toBe(B)
  })
})
