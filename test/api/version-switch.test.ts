/**
 * Publishing without downtime: a running service under continuous load moves to a newly
 * published version (the `current` link switched, as the pipeline and `make rollback` do), with
 * no failed request, and every request sent after the switch is answered by the new version.
 * A version that cannot be opened is not switched to. The hub answers each version with that
 * version's own encoder.
 *
 * The versions are the sample build republished under new names (every file hard-linked, the
 * manifest rewritten), so each is a complete version the service has never seen.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { switchCurrent, rollbackCurrent } from "../../core/artifacts/versions.ts"
import { startHub, type HubProcess } from "../support/hub-process.ts"
import { call, startTestServer, type TestServer } from "./support.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const sampleDir = fs.realpathSync(await sampleArtifacts())
const VERSIONS = ["v20990101T000000Z-aaaaaaaa", "v20990102T000000Z-bbbbbbbb", "v20990103T000000Z-cccccccc"] as const
const [A, B, BROKEN] = VERSIONS

let root: string
let hub: HubProcess
let server: TestServer
let key: string
let appNums: string[]

const mirror = (from: string, to: string) => {
  fs.mkdirSync(to, { recursive: true })
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    if (e.isDirectory()) mirror(path.join(from, e.name), path.join(to, e.name))
    else fs.linkSync(path.join(from, e.name), path.join(to, e.name))
  }
}

/** The sample build as a complete version named `name` (its own manifest; every other file shared). */
const republish = (name: string) => {
  const dir = path.join(root, name)
  mirror(sampleDir, dir)
  const manifest = JSON.parse(fs.readFileSync(path.join(sampleDir, "manifest.json"), "utf8"))
  fs.rmSync(path.join(dir, "manifest.json"))
  fs.writeFileSync(path.join(dir, "manifest.json"), JSON.stringify({ ...manifest, version: name }))
}

const waitFor = async (what: string, ok: () => boolean | Promise<boolean>, ms = 60_000) => {
  const end = Date.now() + ms
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

interface Answer {
  readonly sentAt: number
  readonly status: number
  readonly version: string | null
  readonly route: string
}

/** `clients` loops sending a mix of lookups and searches until `stop()`; every answer is recorded. */
const load = (clients: number) => {
  const answers: Answer[] = []
  let running = true
  const one = async (i: number) => {
    const app = appNums[i % appNums.length]
    const requests = [
      () => call(server.url, "GET", `/api/v1/patent-map/patent/${app}`, { key }),
      () => call(server.url, "POST", "/api/v1/prior-art", { key, body: { abstract: "A battery electrode with a coated separator that limits dendrite growth.", count: 5 } }),
      () => call(server.url, "POST", "/api/v1/prior-art/claims", { key, body: { appNumbers: [app] } }),
      () => call(server.url, "GET", "/api/v1/patent-map/points?limit=100", { key })
    ]
    const pick = i % requests.length
    const sentAt = Date.now()
    const r = await requests[pick]()
    answers.push({ sentAt, status: r.status, version: r.headers.get("x-artifact-version"), route: ["patent", "search", "claims", "points"][pick] })
  }
  const loops = Array.from({ length: clients }, async (_, c) => {
    for (let i = c; running; i += clients) await one(i)
  })
  return {
    answers,
    stop: async () => {
      running = false
      await Promise.all(loops)
    }
  }
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(path.dirname(path.dirname(sampleDir)), "version-switch-"))
  for (const v of VERSIONS) republish(v)
  // A version that was published broken (its manifest does not decode): never to be served.
  fs.rmSync(path.join(root, BROKEN, "manifest.json"))
  fs.writeFileSync(path.join(root, BROKEN, "manifest.json"), "{ not json")
  await switchCurrent(root, A)
  hub = await startHub(path.join(root, "current"))
  server = await startTestServer({ artifactsDir: path.join(root, "current"), hubUrl: hub.url, versionPollMs: 100, preloadSearch: true })
  key = await server.key({ daily: 1_000_000, monthly: 10_000_000 })
  const points = await call(server.url, "GET", "/api/v1/patent-map/points?limit=100", { key })
  appNums = (points.json.points as Array<{ appNum: string }>).slice(0, 8).map((p) => p.appNum)
  expect(appNums.length).toBeGreaterThan(0)
}, 300_000)

afterAll(async () => {
  await server?.close()
  await hub?.stop()
  if (root) fs.rmSync(root, { recursive: true, force: true })
})

describe("a running service follows `current` without a restart", () => {
  it("under load, switches to the new version with no failed request; everything sent after the switch is the new version's", async () => {
    expect(server.servedVersion()).toBe(A)
    const traffic = load(6)
    await waitFor("traffic on the first version", () => traffic.answers.length >= 20)
    const publishedAt = Date.now()
    await switchCurrent(root, B)
    await waitFor("the switch", () => server.servedVersion() === B)
    const switchedAt = Date.now()
    await waitFor("traffic on the new version", () => traffic.answers.filter((a) => a.sentAt > switchedAt).length >= 40)
    await traffic.stop()

    const failed = traffic.answers.filter((a) => a.status !== 200)
    expect(failed).toEqual([])
    expect(traffic.answers.filter((a) => a.sentAt < publishedAt).every((a) => a.version === A)).toBe(true)
    const after = traffic.answers.filter((a) => a.sentAt > switchedAt)
    expect(after.length).toBeGreaterThanOrEqual(40)
    expect(after.filter((a) => a.version !== B)).toEqual([])
    // Searches after the switch were encoded by the hub with the new version's encoder.
    expect(after.some((a) => a.route === "search")).toBe(true)
    const hubStatus = await fetch(`${hub.url}/status`, { headers: { "x-artifact-version": B } }).then((r) => r.json())
    expect(hubStatus).toMatchObject({ version: B, ready: true })
    const health = await call(server.url, "GET", "/healthz")
    expect(health.json.artifacts.version).toBe(B)
  })

  it("does not switch to a version that cannot be opened, and keeps answering from the one it serves", async () => {
    await switchCurrent(root, BROKEN)
    await server.followVersion()
    expect(server.servedVersion()).toBe(B)
    const r = await call(server.url, "GET", `/api/v1/patent-map/patent/${appNums[0]}`, { key })
    expect(r.status).toBe(200)
    expect(r.headers.get("x-artifact-version")).toBe(B)
    await switchCurrent(root, B)
  })

  it("make rollback points `current` at the previous version and the running service follows", async () => {
    expect(await rollbackCurrent(root)).toEqual({ from: B, to: A })
    await server.followVersion()
    expect(server.servedVersion()).toBe(A)
    const r = await call(server.url, "POST", "/api/v1/prior-art", { key, body: { abstract: "A battery electrode with a coated separator that limits dendrite growth.", count: 3 } })
    expect(r.status).toBe(200)
    expect(r.headers.get("x-artifact-version")).toBe(A)
    await expect(rollbackCurrent(root)).rejects.toThrow(/no complete version older than/)
    expect(fs.readlinkSync(path.join(root, "current"))).toBe(A)
  })

  it("the hub refuses a version that is not published beside its own", async () => {
    const r = await fetch(`${hub.url}/encode`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-artifact-version": "v20000101T000000Z-00000000" },
      body: JSON.stringify({ texts: ["x"] })
    })
    expect(r.status).toBe(404)
    const traversal = await fetch(`${hub.url}/status`, { headers: { "x-artifact-version": "../../etc" } })
    expect(traversal.status).toBe(404)
  })
})
