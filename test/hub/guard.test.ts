/**
 * Who the hub serves: callers on this machine always (the API, an operator's curl, a benchmark
 * run against `make serve`), callers from elsewhere only with the run's HUB_TOKEN.
 */
import * as os from "node:os"
import { Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { admits } from "../../api/inference-hub/guard.ts"
import { type HubProcess, startHub } from "../support/hub-process.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const versionDir = await sampleArtifacts()
const TOKEN = "run-secret-0123456789"

describe("hub guard", () => {
  it("admits loopback peers with or without a token, and others only with the right one", () => {
    const token = Option.some(TOKEN)
    for (const peer of ["127.0.0.1", "127.4.5.6", "::1", "::ffff:127.0.0.1"]) {
      expect(admits(token, peer, undefined)).toBe(true)
      expect(admits(Option.none(), peer, undefined)).toBe(true)
    }
    expect(admits(token, "10.1.2.3", TOKEN)).toBe(true)
    expect(admits(token, "10.1.2.3", undefined)).toBe(false)
    expect(admits(token, "10.1.2.3", TOKEN + "x")).toBe(false)
    expect(admits(token, "10.1.2.3", "")).toBe(false)
    // No token configured: nobody from outside, whatever they send.
    expect(admits(Option.none(), "10.1.2.3", TOKEN)).toBe(false)
    expect(admits(token, undefined, undefined)).toBe(false)
  })
})

/** This machine's first non-loopback IPv4 address, if it has one (a caller from "elsewhere"). */
const outward = Object.values(os.networkInterfaces())
  .flat()
  .find((a) => a !== undefined && a.family === "IPv4" && !a.internal)?.address

describe("hub guard, over HTTP with HUB_TOKEN set as make serve sets it", () => {
  let hub: HubProcess
  let port = ""

  beforeAll(async () => {
    hub = await startHub(versionDir, { HUB_TOKEN: TOKEN }, "0.0.0.0")
    port = new URL(hub.url).port
  }, 90_000)
  afterAll(() => hub?.stop())

  const encode = (host: string, headers: Record<string, string> = {}) =>
    fetch(`http://${host}:${port}/encode`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ texts: ["heat exchanger"] })
    })

  it("serves /encode to a caller on this machine without the token", async () => {
    const res = await encode("127.0.0.1")
    expect(res.status).toBe(200)
    expect(((await res.json()) as { vectors: unknown[] }).vectors).toHaveLength(1)
  }, 30_000)

  it.skipIf(outward === undefined)("refuses a caller from another address without the token, and serves it with the token", async () => {
    const refused = await encode(outward!)
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { error: string }).error).toMatch(/x-hub-token/)
    expect((await encode(outward!, { "x-hub-token": "wrong" })).status).toBe(403)
    expect((await encode(outward!, { "x-hub-token": TOKEN })).status).toBe(200)
  }, 30_000)
})
