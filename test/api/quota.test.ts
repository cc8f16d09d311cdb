/** Quotas and metering (SPEC parts 5 and 8): windows, resets, exactness under concurrency, durability across restarts and crashes. */
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { listKeys } from "../../api/auth/issue.ts"
import { QuotaLedger } from "../../api/quota/ledger.ts"
import { call, spawnApiProcess, startStubHub, startTestServer, tempDir, type TestServer } from "./support.ts"

const METERED = "/api/v1/guidance/design-code/01" // answers 503 while guidance is not built: still metered
const FREE = "/api/v1/warmup"

const usageOf = async (stateDir: string, key: string, nowMs = Date.now()) => {
  const record = (await listKeys(stateDir)).find((k) => k.handle === key.slice(0, 16))!
  return (await QuotaLedger.readUsage(path.join(stateDir, "quota"), nowMs))(record.lineage)
}

const servers: Array<TestServer> = []
afterAll(() => Promise.all(servers.map((s) => s.close())))

describe("daily and monthly windows", () => {
  it("429 names the daily limit and when it resets; the next UTC day admits again", async () => {
    let now = Date.UTC(2031, 0, 10, 15, 0)
    const server = await startTestServer({ now: () => now })
    servers.push(server)
    const key = await server.key({ daily: 3 }, now)
    for (let i = 0; i < 3; i++) expect((await call(server.url, "GET", METERED, { key })).status).toBe(503)
    const refused = await call(server.url, "GET", METERED, { key })
    expect(refused.status).toBe(429)
    expect(refused.json).toMatchObject({ code: "USAGE_LIMIT_EXCEEDED", limit: "daily", quota: 3, used: 3, resetsAt: "2031-01-11T00:00:00.000Z" })
    expect(Number(refused.headers.get("retry-after"))).toBe(9 * 3600)
    now = Date.UTC(2031, 0, 11, 0, 0, 1)
    expect((await call(server.url, "GET", METERED, { key })).status).toBe(503)
  })

  it("the monthly limit fires across days and resets on the first of the next month", async () => {
    let now = Date.UTC(2031, 4, 30, 12, 0)
    const server = await startTestServer({ now: () => now })
    servers.push(server)
    const key = await server.key({ daily: 2, monthly: 3 }, now)
    expect((await call(server.url, "GET", METERED, { key })).status).toBe(503)
    expect((await call(server.url, "GET", METERED, { key })).status).toBe(503)
    expect((await call(server.url, "GET", METERED, { key })).json.limit).toBe("daily")
    now = Date.UTC(2031, 4, 31, 12, 0)
    expect((await call(server.url, "GET", METERED, { key })).status).toBe(503)
    const refused = await call(server.url, "GET", METERED, { key })
    expect(refused.status).toBe(429)
    expect(refused.json).toMatchObject({ limit: "monthly", quota: 3, used: 3, resetsAt: "2031-06-01T00:00:00.000Z" })
    now = Date.UTC(2031, 5, 1, 0, 0, 1)
    expect((await call(server.url, "GET", METERED, { key })).status).toBe(503)
  })

  it("free routes cost nothing and stay open when the quota is used up; refusals are not counted", async () => {
    const hub = await startStubHub()
    const server = await startTestServer({ hubUrl: hub.url })
    servers.push(server)
    const key = await server.key({ daily: 1 })
    expect((await call(server.url, "GET", METERED, { key })).status).toBe(503)
    expect((await call(server.url, "GET", METERED, { key })).status).toBe(429)
    for (let i = 0; i < 3; i++) {
      expect((await call(server.url, "GET", FREE, { key })).status).toBe(200)
      expect((await call(server.url, "POST", `${FREE}?rerank=1`, { key })).status).toBe(200)
    }
    expect((await usageOf(server.stateDir, key)).today).toBe(1)
    await hub.close()
  })

  it("rotation keeps the quota: a replacement key does not reset the count", async () => {
    const server = await startTestServer()
    servers.push(server)
    const key = await server.key({ daily: 2 })
    expect((await call(server.url, "GET", METERED, { key })).status).toBe(503)
    expect((await call(server.url, "GET", METERED, { key })).status).toBe(503)
    const { rotateKey } = await import("../../api/auth/issue.ts")
    const fresh = await rotateKey(server.stateDir, key.slice(0, 16))
    expect((await call(server.url, "GET", METERED, { key: fresh })).status).toBe(429)
  })
})

describe("exactness and durability", () => {
  it("200 parallel requests against a quota of 100 let exactly 100 through", async () => {
    const server = await startTestServer()
    servers.push(server)
    const key = await server.key({ daily: 100 })
    const statuses = await Promise.all(Array.from({ length: 200 }, () => call(server.url, "GET", METERED, { key }).then((r) => r.status)))
    expect(statuses.filter((s) => s === 503)).toHaveLength(100)
    expect(statuses.filter((s) => s === 429)).toHaveLength(100)
    expect((await usageOf(server.stateDir, key)).today).toBe(100)
  })

  it("counts survive a restart", async () => {
    const first = await startTestServer()
    const key = await first.key({ daily: 5 })
    for (let i = 0; i < 3; i++) await call(first.url, "GET", METERED, { key })
    await first.close()
    const second = await startTestServer({ stateDir: first.stateDir })
    servers.push(second)
    expect((await call(second.url, "GET", METERED, { key })).status).toBe(503)
    expect((await call(second.url, "GET", METERED, { key })).status).toBe(503)
    expect((await call(second.url, "GET", METERED, { key })).json).toMatchObject({ code: "USAGE_LIMIT_EXCEEDED", used: 5 })
  })

  it("after SIGKILL mid-load and a restart, every answered metered request is counted", async () => {
    const stateDir = tempDir("crash")
    const probe = await startTestServer({ stateDir })
    const key = await probe.key({ daily: 1_000_000, monthly: 1_000_000 })
    await probe.close()

    const { child, url, exited } = await spawnApiProcess({ STATE_DIR: stateDir, ARTIFACTS_DIR: path.join(stateDir, "none") })

    let answered = 0
    let killed = false
    const worker = async () => {
      while (!killed) {
        try {
          const r = await fetch(`${url}${METERED}`, { headers: { authorization: `Bearer ${key}` } })
          await r.text()
          if (r.status === 503 && !killed) answered++
          if (answered >= 400 && !killed) {
            killed = true
            child.kill("SIGKILL")
          }
        } catch {
          return
        }
      }
    }
    await Promise.all(Array.from({ length: 24 }, worker))
    await exited

    const counted = (await usageOf(stateDir, key)).today
    expect(answered).toBeGreaterThanOrEqual(400)
    expect(counted).toBeGreaterThanOrEqual(answered)

    const restarted = await startTestServer({ stateDir })
    servers.push(restarted)
    expect((await call(restarted.url, "GET", METERED, { key })).status).toBe(503)
    expect((await usageOf(stateDir, key)).today).toBe(counted + 1)
  })
})
