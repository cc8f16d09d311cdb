/** Graceful drain: in-flight requests finish, new ones get 503 (no code), /healthz turns 503, the process exits 0. */
import { spawn } from "node:child_process"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { call, startStubHub, startTestServer, tempDir } from "./support.ts"
import { createKey } from "../../api/auth/issue.ts"

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((r) => setTimeout(r, 10))
}

describe("drain", () => {
  it("in-process: lets the in-flight request finish and answers new ones 503", async () => {
    const hub = await startStubHub()
    hub.delayMs = 1500
    const server = await startTestServer({ hubUrl: hub.url })
    const key = await server.key()
    const inFlight = call(server.url, "GET", "/api/v1/warmup", { key })
    await until(() => hub.calls.length > 0)
    const drained = server.drain()
    const refused = await call(server.url, "GET", "/api/v1/patent-intel/cpc/H04L", { key })
    expect(refused.status).toBe(503)
    expect(refused.json).toEqual({ error: expect.stringContaining("draining") })
    expect(refused.headers.get("retry-after")).toBeTruthy()
    const priorArt = await call(server.url, "POST", "/api/v1/prior-art", { key, body: { claims: "x".repeat(20) } })
    expect(priorArt.json).toEqual({ success: false, error: expect.stringContaining("draining") })
    expect((await call(server.url, "GET", "/healthz")).json).toEqual({ status: "draining" })
    const finished = await inFlight
    expect(finished.status).toBe(200)
    expect(finished.json).toMatchObject({ ready: false, warmWindowSeconds: 900 })
    await drained
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow()
    await hub.close()
  })

  it("as a process: SIGTERM drains and exits 0", async () => {
    const hub = await startStubHub()
    hub.delayMs = 1500
    const stateDir = tempDir("drain")
    const key = await createKey(stateDir, { name: "drain" })
    const child = spawn(process.execPath, ["--import", "tsx", "api/main.ts"], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      env: { ...process.env, PORT: "0", STATE_DIR: stateDir, ARTIFACTS_DIR: path.join(stateDir, "none"), HUB_URL: hub.url },
      stdio: ["ignore", "pipe", "inherit"]
    })
    const exitCode = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
    let output = ""
    const url = await new Promise<string>((resolve) => {
      child.stdout!.on("data", (chunk: Buffer) => {
        output += chunk.toString()
        const line = output.split("\n").find((l) => l.includes('"listening"'))
        if (line) resolve(JSON.parse(line).url)
      })
    })
    const inFlight = call(url, "GET", "/api/v1/warmup", { key })
    await until(() => hub.calls.length > 0)
    child.kill("SIGTERM")
    await until(() => output.includes('"draining"'))
    expect((await call(url, "GET", "/api/v1/warmup", { key })).status).toBe(503)
    expect((await inFlight).status).toBe(200)
    expect(await exitCode).toBe(0)
    // The request log names the key by its handle only.
    expect(output).toContain(key.slice(0, 16))
    expect(output).not.toContain(key)
    await hub.close()
  })
})
