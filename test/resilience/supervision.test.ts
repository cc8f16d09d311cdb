/**
 * `make serve` as operators run it: a hub that dies is restarted, a killed API leaves no orphan
 * hub on the port, a busy hub port is refused rather than shared, and a signal to the whole
 * process group drains the API before the hub stops, with every in-flight request answered.
 */
import * as http from "node:http"
import * as net from "node:net"
import { describe, expect, it } from "vitest"
import { call } from "../api/support.ts"
import { freePort } from "../support/hub-process.ts"
import { isAlive, startServe, until } from "./serve-process.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const artifactsDir = await sampleArtifacts()

const hubReachable = async (url: string) => {
  const r = await call(url, "GET", "/healthz", { timeoutMs: 10_000 }).catch(() => undefined)
  return r?.json?.hub?.reachable === true
}

/**
 * A search whose request is wholly written to the socket before `written` resolves (fetch gives no
 * such moment: on a starved machine its bytes may leave long after the call).
 */
const sendSearch = (base: string, key: string, body: unknown) => {
  let sent = () => {}
  const written = new Promise<void>((resolve) => (sent = resolve))
  const answer = new Promise<number | string>((resolve) => {
    const payload = JSON.stringify(body)
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json", "content-length": Buffer.byteLength(payload) }
    const request = http.request(`${base}/api/v1/prior-art`, { method: "POST", agent: false, headers }, (response) => {
      response.resume()
      response.on("end", () => resolve(response.statusCode ?? 0))
      response.on("error", (e) => resolve(`failed: ${e.message}`))
    })
    request.on("error", (e) => resolve(`failed: ${e.message}`))
    request.end(payload, () => sent())
  })
  return { written, answer }
}

describe("make serve supervision", () => {
  it("restarts a hub killed with SIGKILL, and its hub does not outlive a killed API", async () => {
    // Each step's time goes into a failure's message: on a starved CI box the question is which
    // step was slow or stuck, not only that the test as a whole ran out.
    const steps: Array<string> = []
    let since = Date.now()
    const step = async <A>(what: string, run: () => Promise<A>): Promise<A> => {
      try {
        return await run()
      } catch (e) {
        throw new Error(`${what} failed after ${Date.now() - since} ms (earlier steps: ${steps.join(", ") || "none"}): ${e instanceof Error ? e.message : String(e)}`)
      } finally {
        steps.push(`${what} ${Date.now() - since} ms`)
        since = Date.now()
      }
    }
    const serve = await step("start", () => startServe(artifactsDir))
    try {
      await step("hub up", () => until(() => hubReachable(serve.url), 60_000, "the hub"))
      const first = serve.hubPid()!
      expect(first).toBeGreaterThan(0)
      process.kill(first, "SIGKILL")
      await step("restart notice", () => until(() => serve.output().includes("restarting in"), 10_000, "the restart notice"))
      await step("hub restarted", () =>
        until(async () => serve.hubPid() !== undefined && serve.hubPid() !== first && (await hubReachable(serve.url)), 60_000, "a restarted hub")
      )
      const warm = await step("warm-up", () => call(serve.url, "POST", "/api/v1/warmup?wait=30", { key: serve.key, timeoutMs: 60_000 }))
      expect(warm.status, steps.join(", ")).toBe(200)
      expect(warm.json.ready).toBe(true)

      const hub = serve.hubPid()!
      process.kill(serve.child.pid!, "SIGKILL")
      await step("orphan exit", () => until(() => !isAlive(hub), 10_000, "the orphaned hub to exit"))
      // The port is free again for the next start.
      const portTaken = (port: number) =>
        new Promise<boolean>((r) => {
          const socket = net.connect(port, "127.0.0.1")
          socket.once("connect", () => (socket.destroy(), r(true))).once("error", () => r(false))
        })
      await step("port released", () => until(async () => !(await portTaken(Number(new URL(serve.hubUrl).port))), 5_000, "the hub port to be released"))
    } finally {
      if (isAlive(serve.child.pid!)) process.kill(-serve.child.pid!, "SIGKILL")
    }
  }, 420_000)

  it("refuses to start on a busy hub port instead of talking to whatever holds it", async () => {
    const hubPort = await freePort()
    const squatter = net.createServer((s) => s.on("error", () => {}).end("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}")).listen(hubPort, "127.0.0.1")
    try {
      const serve = await startServe(artifactsDir, { hubPort, waitForKey: false })
      const exit = await serve.exited
      expect(exit.code).toBe(1)
      expect(serve.output()).toContain("already taken")
    } finally {
      squatter.close()
    }
  }, 120_000)

  it("drains on SIGTERM to the process group: in-flight searches all answer, then both stop within 30 s", async () => {
    const serve = await startServe(artifactsDir)
    try {
      await until(() => hubReachable(serve.url), 60_000, "the hub")
      await call(serve.url, "POST", "/api/v1/warmup?wait=30", { key: serve.key })
      const hub = serve.hubPid()!
      const body = (i: number) => ({ claims: `A capacitive soil moisture probe with electrodes inserted into the ground, variant ${i}`, count: 20, hybrid: true, forceReprocess: true })
      const searches = Array.from({ length: 20 }, (_, i) => sendSearch(serve.url, serve.key, body(i)))
      await Promise.all(searches.map((s) => s.written))
      const signalledAt = Date.now()
      process.kill(-serve.child.pid!, "SIGTERM")
      const answers = await Promise.all(searches.map((s) => s.answer))
      // Each was either answered (200) or reached the app after the drain began (503, retry);
      // none was dropped. (That requests in flight run to completion is test/api/drain.test.ts.)
      for (const a of answers) expect([200, 503], serve.output().slice(-4000)).toContain(a)
      const exit = await serve.exited
      expect(exit.code).toBe(0)
      expect(exit.atMs - signalledAt).toBeLessThan(30_000)
      await until(() => !isAlive(hub), 5_000, "the hub to stop after the API")
    } finally {
      if (isAlive(serve.child.pid!)) process.kill(-serve.child.pid!, "SIGKILL")
    }
  }, 300_000)
})
