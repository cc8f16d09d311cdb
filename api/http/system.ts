/** The routes that need no key: liveness/readiness, metrics, the OpenAPI document and the docs page. */
import { HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { ArtifactStore } from "../artifacts/ArtifactStore.ts"
import { docsPage } from "../docs/page.ts"
import { explorerPage } from "../explorer/page.ts"
import { openApiDocument } from "../docs/openapi.ts"
import { Metrics } from "../observability/Metrics.ts"
import { Drain } from "./middleware/Drain.ts"

/** The documents change only with a deployment. */
const PUBLIC_DOC = "public, max-age=300"

export const SYSTEM_PATHS = new Set(["/healthz", "/metrics", "/docs", "/api/v1/openapi.json", "/map"])

const healthz = Effect.gen(function* () {
  const drain = yield* Drain
  const artifacts = yield* ArtifactStore
  if (drain.isDraining()) return HttpServerResponse.unsafeJson({ status: "draining" }, { status: 503 })
  const state = artifacts.status()
  return state.loaded
    ? HttpServerResponse.unsafeJson({ status: "ok", artifacts: { version: state.version, tables: state.tables.length } })
    : HttpServerResponse.unsafeJson({ status: "unavailable", reason: state.reason }, { status: 503 })
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
    case "/api/v1/openapi.json":
      return Effect.succeed(HttpServerResponse.unsafeJson(openApiDocument, { headers: { "cache-control": PUBLIC_DOC } }))
    default:
      // "/map": the patent-space explorer (it asks for a key and calls the patent-map routes).
      return Effect.succeed(HttpServerResponse.text(explorerPage, { contentType: "text/html; charset=utf-8", headers: { "cache-control": PUBLIC_DOC } }))
  }
}
