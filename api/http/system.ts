/** The routes that need no key: liveness/readiness, metrics, the OpenAPI document, the docs page and its Swagger UI files. */
import { HttpServerResponse } from "@effect/platform"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Effect } from "effect"
import { ArtifactStore } from "../artifacts/ArtifactStore.ts"
import { Settings } from "../config.ts"
import { HubClient } from "../hub/HubClient.ts"
import { StateDatabase } from "../state/Database.ts"
import { docsPage } from "../docs/page.ts"
import { DOCS_ASSET_PATHS, docsAssets } from "../docs/swagger-ui.ts"
import { explorerPage } from "../explorer/page.ts"
import { openApiDocument } from "../docs/openapi.ts"
import { Metrics } from "../observability/Metrics.ts"
import { Drain } from "./middleware/Drain.ts"

/** The documents change only with a deployment. */
const PUBLIC_DOC = "public, max-age=300"

export const SYSTEM_PATHS = new Set(["/healthz", "/metrics", "/docs", "/api/v1/openapi.json", "/map", "/favicon.ico", ...DOCS_ASSET_PATHS])

/** A document-with-magnifier mark; browsers accept SVG at /favicon.ico by its content type. */
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="5" y="3" width="17" height="23" rx="2" fill="#1f4e79"/><path d="M9 9h9M9 13h9M9 17h6" stroke="#fff" stroke-width="2"/><circle cx="21" cy="21" r="6" fill="none" stroke="#e07b00" stroke-width="3"/><path d="M25.5 25.5 30 30" stroke="#e07b00" stroke-width="3" stroke-linecap="round"/></svg>`

/** The state directory takes a write now (keys, quota counters and caches live there). */
const stateWritable = (stateDir: string) =>
  Effect.tryPromise(async () => {
    const probe = path.join(stateDir, `.healthz-${process.pid}`)
    await fs.writeFile(probe, "ok")
    await fs.rm(probe, { force: true })
  }).pipe(
    Effect.timeout("2 seconds"),
    Effect.match({ onFailure: (e) => `state directory ${stateDir} cannot be written: ${String((e as { error?: unknown }).error ?? e)}`, onSuccess: () => undefined })
  )

/**
 * Readiness that tells the truth: 503 while draining, when the served artifacts do not answer a
 * query, or when the state directory cannot be written. The hub is reported beside it: search
 * needs it, but every other route does not, so a dead hub does not take the replica out.
 */
const healthz = Effect.gen(function* () {
  const drain = yield* Drain
  const artifacts = yield* ArtifactStore
  const hub = yield* HubClient
  const { stateDir } = yield* Settings
  const database = yield* StateDatabase
  if (drain.isDraining()) return HttpServerResponse.unsafeJson({ status: "draining" }, { status: 503 })
  const state = artifacts.status()
  const [queryable, stateProblem, hubState, databaseProblem] = yield* Effect.all(
    [
      Effect.match(artifacts.probe, { onFailure: (e) => e.message, onSuccess: () => undefined }),
      stateWritable(stateDir),
      hub.status().pipe(
        Effect.timeout("1 second"),
        Effect.match({
          onFailure: () => ({ reachable: false as const }),
          onSuccess: (s) => ({ reachable: true as const, ready: s.ready, warming: s.warming, ...(s.version ? { version: s.version } : {}) })
        })
      ),
      // Keys and quotas in PostgreSQL (DATABASE_URL): without them no metered request can be admitted.
      database.ping.pipe(
        Effect.timeout("2 seconds"),
        Effect.match({ onFailure: (e) => `the state database does not answer: ${"message" in e ? e.message : "timeout"}`, onSuccess: () => undefined })
      )
    ],
    { concurrency: "unbounded" }
  )
  const problems = [...(state.loaded ? [] : [state.reason]), ...(state.loaded && queryable ? [queryable] : []), ...(stateProblem ? [stateProblem] : []), ...(databaseProblem ? [databaseProblem] : [])]
  const artifactsState = state.loaded ? { version: state.version, tables: state.tables.length } : undefined
  return problems.length === 0
    ? HttpServerResponse.unsafeJson({ status: "ok", artifacts: artifactsState, hub: hubState })
    : HttpServerResponse.unsafeJson({ status: "unavailable", reason: problems.join("; "), ...(artifactsState ? { artifacts: artifactsState } : {}), hub: hubState }, { status: 503 })
})

const metricsText = Effect.gen(function* () {
  const metrics = yield* Metrics
  const drain = yield* Drain
  return HttpServerResponse.text(metrics.render(drain.inFlight()), { contentType: "text/plain; version=0.0.4; charset=utf-8" })
})

/** Answers a public path; the caller has already checked the method is GET or HEAD. */
export const systemResponse = (path: string) => {
  switch (path) {
    case "/healthz":
      return healthz
    case "/metrics":
      return metricsText
    case "/docs":
      return Effect.succeed(HttpServerResponse.text(docsPage, { contentType: "text/html; charset=utf-8", headers: { "cache-control": PUBLIC_DOC } }))
    case "/favicon.ico":
      return Effect.succeed(HttpServerResponse.text(FAVICON, { contentType: "image/svg+xml", headers: { "cache-control": "public, max-age=86400" } }))
    case "/api/v1/openapi.json":
      return Effect.succeed(HttpServerResponse.unsafeJson(openApiDocument, { headers: { "cache-control": PUBLIC_DOC } }))
    case "/docs/swagger-ui.css":
    case "/docs/swagger-ui-bundle.js":
    case "/docs/init.js": {
      const asset = docsAssets.get(path)!
      return Effect.succeed(HttpServerResponse.text(asset.body, { contentType: asset.contentType, headers: { "cache-control": PUBLIC_DOC } }))
    }
    default:
      // "/map": the patent-space explorer (it asks for a key and calls the patent-map routes).
      return Effect.succeed(HttpServerResponse.text(explorerPage, { contentType: "text/html; charset=utf-8", headers: { "cache-control": PUBLIC_DOC } }))
  }
}
