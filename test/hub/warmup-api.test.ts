/**
 * Warm-up through the API against the real hub (SPEC 3, 4.4): POST returns at once with wait=0,
 * blocks until ready with wait>0, GET only reads, the reranker loads only with rerank, the idle
 * window unloads; with the hub down only hub-dependent routes answer 502.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call, startTestServer, type TestServer } from "../api/support.ts"
import { startHub, type HubProcess } from "../support/hub-process.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const artifactsDir = await sampleArtifacts()
let hub: HubProcess
let api: TestServer
let key: string

beforeAll(async () => {
  hub = await startHub(artifactsDir, { WARM_WINDOW_SECONDS: "4" })
  api = await startTestServer({ artifactsDir, hubUrl: hub.url, warmWindowSeconds: 4 })
  key = await api.key()
})
afterAll(async () => {
  await api?.close()
  await hub?.stop()
})

describe("warm-up against the inference hub", () => {
  it("GET reads the idle state and starts nothing", async () => {
    const r = await call(api.url, "GET", "/api/v1/warmup", { key })
    expect(r.status).toBe(200)
    expect(r.json).toEqual({ ready: false, models: { encoder: false, reranker: false }, warmWindowSeconds: 4 })
    expect(r.headers.get("cache-control")).toBe("no-store")
    const again = await call(api.url, "GET", "/api/v1/warmup", { key })
    expect(again.json.ready).toBe(false)
  })

  it("POST with wait=0 returns at once; with wait it blocks until ready; the reranker only on request", async () => {
    const started = await call(api.url, "POST", "/api/v1/warmup", { key })
    expect(started.status).toBe(200)
    expect(started.json.ready || started.json.warming).toBe(true)
    expect(started.json).toHaveProperty("estimatedReadySeconds")
    const ready = await call(api.url, "POST", "/api/v1/warmup?wait=30", { key })
    expect(ready.json).toMatchObject({ ready: true, models: { encoder: true, reranker: false } })
    // `wait` blocks on `ready`, which reflects the encoder only (SPEC 2.8); the reranker follows.
    const withReranker = await call(api.url, "POST", "/api/v1/warmup?rerank=true&wait=30", { key })
    expect(withReranker.json.ready).toBe(true)
    const end = Date.now() + 10_000
    let models = withReranker.json.models
    while (!models.reranker && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 100))
      models = (await call(api.url, "GET", "/api/v1/warmup", { key })).json.models
    }
    expect(models).toEqual({ encoder: true, reranker: true })
  })

  it("unloads after the warm window without use (scale to zero)", async () => {
    // Each model unloads a window after its own last use, in the hub's sweep after that: the
    // reranker, loaded last, may go one sweep (2 s) after the encoder, whose unloading ends `ready`.
    const end = Date.now() + 20_000
    let state: any
    do {
      await new Promise((r) => setTimeout(r, 500))
      state = (await call(api.url, "GET", "/api/v1/warmup", { key })).json
    } while ((state.ready || state.models.reranker) && Date.now() < end)
    expect(state).toEqual({ ready: false, models: { encoder: false, reranker: false }, warmWindowSeconds: 4 })
  })

  it("with the hub down, warm-up answers 502 UPSTREAM_ERROR and routes without the hub are unaffected", async () => {
    await hub.stop()
    const warm = await call(api.url, "POST", "/api/v1/warmup", { key })
    expect(warm.status).toBe(502)
    expect(warm.json.code).toBe("UPSTREAM_ERROR")
    const antecedent = await call(api.url, "POST", "/api/v1/claim-validation/antecedent-basis", {
      key,
      body: { claims: ["A widget comprising a lever and a spring attached to the lever."] }
    })
    expect(antecedent.status).not.toBe(502)
    const health = await call(api.url, "GET", "/healthz")
    expect(health.status).toBe(200)
  })
})
