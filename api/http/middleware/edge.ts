/**
 * What stays outside HttpApi, around it (installed with HttpApiBuilder.middleware, so it sees
 * every failure before HttpApi would encode it):
 *
 *   request id → CORS preflight → public routes (health, metrics, documents) → drain →
 *   [HttpApi: Authentication → router → Admission → decode → handler] → the route family's
 *   envelope for every failure, including routing failures (404, 405, a malformed path) →
 *   Cache-Control, X-Request-Id, CORS/Vary/ETag/compression, metrics, request log.
 *
 * Authentication, permissions, quota and body reading are HttpApi middleware (api/http/security/);
 * the only thing this layer learns from inside is what it logs and labels (`Served`).
 */
import { Headers, type HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Context, Effect, Option } from "effect"
import type { ArtifactStore } from "../../artifacts/ArtifactStore.ts"
import { Settings } from "../../config.ts"
import { type InternalCall, MCP_PATH, RestDispatch } from "../../dispatch/RestDispatch.ts"
import { InvalidRequest } from "../../domain/errors.ts"
import { describeIssues } from "../../domain/issues.ts"
import type { HubClient } from "../../hub/HubClient.ts"
import { Metrics } from "../../observability/Metrics.ts"
import type { StateDatabase } from "../../state/Database.ts"
import {
  AccessDenied,
  MethodNotAllowed,
  type Rendered,
  renderDefect,
  renderDenied,
  renderDraining,
  renderFailure,
  type RequestError,
  RouteNotFound
} from "../envelopes.ts"
import type { Family } from "../route-meta.ts"
import { familyOfPath, matchRoute } from "../route-table.ts"
import { Served, type ServedRequest } from "../security/Api.ts"
import { SYSTEM_PATHS, systemResponse } from "../system.ts"
import { Drain } from "./Drain.ts"
import { requestIdFor, splitUrl } from "./request-id.ts"
import { requestLog } from "./request-log.ts"
import { isPreflight, preflightResponse, webPolish } from "./web.ts"

const CAPABILITY_TAGS = new Set([
  "InvalidRequest", "NotFound", "NotIndexed", "UpstreamUnavailable", "MapCoordinatesUnavailable", "CorpusUnavailable", "BackendFailed",
  "MethodNotAllowed", "UnsupportedMediaType", "PayloadTooLarge"
])

const hasMalformedPercentEncoding = (path: string) => {
  try {
    path.split("/").forEach((segment) => decodeURIComponent(segment))
    return false
  } catch {
    return true
  }
}

/**
 * The router matched nothing: no such path (404), another method (405 with Allow), or a path
 * the router could not decode (400, where the path would otherwise match a route).
 */
const routingFailure = (method: string, path: string): RequestError => {
  if (path === MCP_PATH) {
    // Stateless streamable HTTP: no server-initiated stream to GET, no session to DELETE.
    return new MethodNotAllowed({ message: `${method} is not allowed on /mcp: this server is stateless, send JSON-RPC with POST`, allow: ["POST"] })
  }
  const match = matchRoute(method, path)
  if (match._tag === "WrongMethod") return new MethodNotAllowed({ message: `${method} is not allowed here; use ${match.allow.join(" or ")}`, allow: match.allow })
  if (match._tag === "Matched" && hasMalformedPercentEncoding(path)) return new InvalidRequest({ message: "path: contains malformed percent-encoding" })
  return new RouteNotFound({ message: "no such route" })
}

/** Whatever HttpApi failed with, as a failure of the family's vocabulary (undefined: a defect). */
const classify = (e: unknown, method: string, path: string): RequestError | AccessDenied | undefined => {
  if (e instanceof AccessDenied) return e
  const tag = (e as { _tag?: string })?._tag
  if (tag === "HttpApiDecodeError") return new InvalidRequest({ message: describeIssues((e as any).issues ?? []) })
  if (tag === "RouteNotFound") return routingFailure(method, path)
  if (tag && CAPABILITY_TAGS.has(tag)) return e as RequestError
  return undefined
}

const toResponse = ({ status, body, headers }: Rendered) => HttpServerResponse.unsafeJson(body, { status, headers: headers ?? {} })

const routeLabel = (method: string, path: string) => {
  const match = matchRoute(method, path)
  return match._tag === "Matched" ? `${match.route.method} ${match.route.template}` : path === MCP_PATH ? MCP_PATH : "unmatched"
}

/** What the public routes (health, metrics, documents) read. */
type EdgeServices = Settings | ArtifactStore | Metrics | Drain | HubClient | StateDatabase

const publicAnswer = (path: string): Effect.Effect<HttpServerResponse.HttpServerResponse, never, EdgeServices> => systemResponse(path)

export const edge = Effect.gen(function* () {
  const settings = yield* Settings
  const drain = yield* Drain
  const metrics = yield* Metrics
  const log = settings.logRequests ? yield* requestLog() : undefined
  const services = yield* Effect.context<EdgeServices>()

  const corsOrigins = settings.corsOrigins ?? []

  return (app: HttpApp.Default): HttpApp.Default => {
    // One request is a few dozen fiber steps through HttpApi already; this layer adds as few as it
    // can (measured at 50 connections, the outer layer had cost a quarter of a lookup's CPU): the
    // request, its fiber and its context are read in one step, and everything after the answer
    // (headers, ETag, metrics, log line) is plain code unless a body must be compressed.
    const handle = Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest>((fiber) => {
      const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
      const started = performance.now()
      const requestId = requestIdFor(request.headers["x-request-id"])
      const { path } = splitUrl(request.url)
      const family = familyOfPath(path)
      const context = { requestId, timestamp: new Date(settings.now()).toISOString() }
      const served: ServedRequest = { caller: undefined, route: undefined }

      const finished = (response: HttpServerResponse.HttpServerResponse, route: string) => {
        const line = (polished: HttpServerResponse.HttpServerResponse) => {
          const seconds = (performance.now() - started) / 1000
          metrics.observeRequest(route, request.method, polished.status, seconds)
          log?.write(
            {
              requestId,
              method: request.method,
              path,
              route,
              status: polished.status,
              ms: Math.round(seconds * 1000),
              key: served.caller?.handle ?? null,
              remote: Option.getOrNull(request.remoteAddress)
            },
            fiber.id()
          )
          return polished
        }
        const tagged = HttpServerResponse.setHeaders(response, {
          "x-request-id": requestId,
          ...(response.headers["cache-control"] ? {} : { "cache-control": "no-store" })
        })
        const polished = webPolish(request, tagged, { path, authenticated: !SYSTEM_PATHS.has(path), corsOrigins })
        return Effect.isEffect(polished) ? Effect.map(polished, line) : Effect.succeed(line(polished))
      }

      if (isPreflight(request)) return finished(preflightResponse(request, path, corsOrigins), "preflight")
      if (SYSTEM_PATHS.has(path) && !(drain.isDraining() && path !== "/metrics" && path !== "/healthz")) {
        return request.method === "GET" || request.method === "HEAD"
          ? Effect.flatMap(Effect.provide(publicAnswer(path), services), (response) => finished(response, path))
          : finished(toResponse(renderFailure("coded", new MethodNotAllowed({ message: `${request.method} is not allowed here; use GET`, allow: ["GET"] }), context)), path)
      }
      if (drain.isDraining()) return finished(toResponse(renderDraining(family)), "draining")

      // Handlers see the id this response will carry (prior-art bodies quote it as request_id).
      const tagged = request.modify({ headers: Headers.set(request.headers, "x-request-id", requestId) })
      return app.pipe(
        Effect.map((answer) =>
          // An endpoint's Cache-Control on success; every other answer is no-store (finished).
          served.route !== undefined && answer.status < 400 ? HttpServerResponse.setHeader(answer, "cache-control", served.route.access.cacheControl) : answer
        ),
        Effect.mapInputContext((outer: Context.Context<HttpServerRequest.HttpServerRequest>) =>
          Context.add(Context.add(Context.add(outer, HttpServerRequest.HttpServerRequest, tagged), Served, served), RestDispatch, restDispatch)
        ),
        Effect.catchAll((e) => Effect.succeed(failureResponse(e, request.method, path, family, context))),
        Effect.catchAllDefect((defect) =>
          Effect.as(Effect.logError("unhandled defect", defect).pipe(Effect.annotateLogs({ requestId })), toResponse(renderDefect(family, context)))
        ),
        drain.tracked,
        Effect.flatMap((response) => finished(response, served.route !== undefined ? `${served.route.method} ${served.route.template}` : routeLabel(request.method, path)))
      )
    })

    const failureResponse = (e: unknown, method: string, path: string, family: Family, context: { requestId: string; timestamp: string }) => {
      const failure = classify(e, method, path)
      if (failure instanceof AccessDenied) {
        if (failure.status === 429) metrics.observeQuotaRejection(String(failure.details?.limit ?? "unknown"))
        else metrics.observeAuthRefusal(failure.code)
        return toResponse(renderDenied(family, failure, context))
      }
      return toResponse(failure ? renderFailure(family, failure, context) : renderDefect(family, context))
    }

    /** Runs a REST call through this same middleware and app on behalf of an MCP tool call, as the client of the current request. */
    const restDispatch = RestDispatch.of({
      call: (call: InternalCall) =>
        Effect.gen(function* () {
          const origin = yield* HttpServerRequest.HttpServerRequest
          const query = new URLSearchParams(call.query).toString()
          const web = new Request(`http://internal${call.path}${query ? `?${query}` : ""}`, {
            method: call.method,
            headers: {
              ...(origin.headers["authorization"] ? { authorization: origin.headers["authorization"] } : {}),
              ...(call.body !== undefined ? { "content-type": "application/json" } : {})
            },
            body: call.body !== undefined ? JSON.stringify(call.body) : undefined
          })
          const internal = HttpServerRequest.fromWeb(web).modify({ remoteAddress: Option.getOrUndefined(origin.remoteAddress) })
          const response = yield* handle.pipe(Effect.provideService(HttpServerRequest.HttpServerRequest, internal), Effect.scoped)
          const answer = HttpServerResponse.toWeb(response)
          const text = yield* Effect.promise(() => answer.text())
          return { status: answer.status, body: text ? (JSON.parse(text) as unknown) : null }
        })
    })

    return handle as HttpApp.Default
  }
})
