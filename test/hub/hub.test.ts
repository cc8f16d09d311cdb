/**
 * The inference hub as a real process over HTTP: Idle → Loading → Ready, the reranker only on
 * request, encoding and late-interaction reranking, the idle unload (scale to zero), and no request
 * lost while it starts.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { spawn } from "node:child_process"
import { hubCommand } from "../../api/hub/bundle.ts"
import { freePort, startHub, type HubProcess } from "../support/hub-process.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const versionDir = await sampleArtifacts()
let hub: HubProcess
let base: string

const get = async (p: string) => (await fetch(`${base}${p}`)).json() as Promise<any>
const post = async (p: string, body?: unknown) =>
  (await fetch(`${base}${p}`, { method: "POST", headers: { "content-type": "application/json" }, body: body ? JSON.stringify(body) : undefined })).json() as Promise<any>

const until = async (f: () => Promise<boolean>, ms: number) => {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await f()) return true
    await new Promise((r) => setTimeout(r, 100))
  }
  return false
}

beforeAll(async () => {
  hub = await startHub(versionDir, { WARM_WINDOW_SECONDS: "3" })
  base = hub.url
})
afterAll(() => hub?.stop())

describe("inference hub", () => {
  it("moves from idle through loading to ready, loading the reranker only when asked", async () => {
    const idle = await get("/status")
    expect(idle).toMatchObject({ ready: false, warming: false, models: { encoder: false, reranker: false }, warmWindowSeconds: 3 })
    const warming = await post("/warmup")
    expect(warming.ready === true || warming.warming === true).toBe(true)
    expect(await until(async () => (await get("/status")).ready, 10_000)).toBe(true)
    expect((await get("/status")).models).toEqual({ encoder: true, reranker: false })
    await post("/warmup?rerank=1")
    expect(await until(async () => (await get("/status")).models.reranker, 10_000)).toBe(true)
  })

  it("encodes texts to unit vectors of the encoder's width", async () => {
    const out = await post("/encode", { texts: ["A rotor blade for a wind turbine", "heat exchanger tubes"] })
    // The width the pipeline indexed with (LSA 256; the ensemble adds the subword model's).
    const indexed = JSON.parse(fs.readFileSync(path.join(versionDir, "index", "index.json"), "utf8")) as { dims: number }
    expect(out.dims).toBe(indexed.dims)
    expect(out.vectors).toHaveLength(2)
    for (const v of out.vectors) expect(Math.hypot(...v)).toBeCloseTo(1, 4)
  })

  it("reranks candidates by late interaction: the on-topic candidate scores highest", async () => {
    const out = await post("/rerank", {
      query: "turbine blade with cooling channels",
      candidates: [
        { id: "a", text: "A method of brewing coffee with a paper filter" },
        { id: "b", text: "A gas turbine blade having internal cooling channels for the airfoil" }
      ]
    })
    const score = Object.fromEntries(out.scores.map((s: { id: string; score: number }) => [s.id, s.score]))
    expect(score.b).toBeGreaterThan(score.a)
  })

  it("refuses a malformed request with 400 and a message naming the field and the rule", async () => {
    const send = async (p: string, body: string) => {
      const r = await fetch(`${base}${p}`, { method: "POST", headers: { "content-type": "application/json" }, body })
      return { status: r.status, error: ((await r.json()) as { error: string }).error }
    }
    expect(await send("/encode", '{"texts": 3}')).toEqual({ status: 400, error: "texts: must be an array of strings" })
    expect(await send("/encode", "{}")).toEqual({ status: 400, error: "texts: is required" })
    expect(await send("/encode", '{"texts": ["a", 1]}')).toEqual({ status: 400, error: "texts[1]: must be a string" })
    expect(await send("/encode", JSON.stringify({ texts: Array(4097).fill("a") }))).toEqual({ status: 400, error: "texts: must hold at most 4096 texts" })
    expect(await send("/encode", '{"texts": ["a"')).toEqual({ status: 400, error: "body: is not valid JSON" })
    expect(await send("/rerank", '{"query": "a", "candidates": [{"id": 1, "text": "b"}]}')).toEqual({ status: 400, error: "candidates[0].id: must be a string" })
    expect(await send("/warmup?rerank=yes", "")).toEqual({ status: 400, error: "rerank: must be 0, 1, true or false" })
  })

  it("unloads its models after the warm window without use", async () => {
    // Each model unloads a window after its own last use, in the sweep after that: the reranker,
    // used last, may go one sweep (1.5 s) after the encoder, whose unloading ends `ready`.
    expect(await until(async () => !(await get("/status")).ready, 12_000)).toBe(true)
    expect(await until(async () => !(await get("/status")).models.reranker, 6_000)).toBe(true)
    expect((await get("/status")).models).toEqual({ encoder: false, reranker: false })
  })
})

describe("inference hub start", () => {
  it("answers every request from the moment it accepts connections (a supervisor polls from the first millisecond)", async () => {
    const url = `http://127.0.0.1:${await freePort()}`
    const child = spawn(process.execPath, [...(await hubCommand())], { env: { ...process.env, HUB_URL: url, ARTIFACTS_DIR: versionDir }, stdio: "ignore" })
    try {
      const outcomes: Array<string> = []
      const end = Date.now() + 60_000
      while (Date.now() < end && child.exitCode === null) {
        // Refused: nothing listens yet. Unanswered within 3 s: the hub accepted the request and dropped it.
        const outcome = await fetch(`${url}/status`, { signal: AbortSignal.timeout(3_000) }).then(
          (r) => (r.ok ? "answered" : `status ${r.status}`),
          (e: Error) => (e.name === "TimeoutError" ? "unanswered" : "refused")
        )
        outcomes.push(outcome)
        if (outcome === "answered") break
        await new Promise((r) => setTimeout(r, 1))
      }
      expect(outcomes.at(-1)).toBe("answered")
      expect(outcomes.filter((o) => o !== "refused" && o !== "answered")).toEqual([])
    } finally {
      child.kill("SIGTERM")
      await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once("exit", r)))
    }
  })
})
