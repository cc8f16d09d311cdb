/**
 * Everything that happens to a request before and after HttpApi routing, in one pipeline that
 * behaves the same on every endpoint:
 *
 *   request id → drain check → public routes → authentication (+ permission of the matched
 *   route) → 404/405 → quota (metered routes) → body checks → HttpApi router → envelope of the
 *   route family for every failure → Cache-Control, X-Request-Id, metrics, structured log.
 *
 * Installed with HttpApiBuilder.middleware, so it wraps the router and sees handler failures
 * (including HttpApiDecodeError) before HttpApi would encode them itself.
 */
import { Headers, type HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import { ArtifactStore } from "../../artifacts/ArtifactStore.ts"
import { authenticate, type Caller } from "../../auth/authenticate.ts"
import { KeyStore } from "../../auth/KeyStore.ts"
import { Settings } from "../../config.ts"
import { HubClient } from "../../hub/HubClient.ts"
import { StateDatabase } from "../../state/Database.ts"
import { InvalidRequest } from "../../domain/errors.ts"
import { describeIssues } from "../../domain/issues.ts"
import { type InternalCall, McpEndpoint, RestDispatch } from "../../dispatch/RestDispatch.ts"
import { Metrics } from "../../observability/Metrics.ts"
import { Quota } from "../../quota/Quota.ts"
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
import { familyOfPath, matchRoute } from "../route-table.ts"
import { SYSTEM_PATHS, systemResponse } from "../system.ts"
import { bufferBody, readJsonBody } from "./body.ts"
import { Drain } from "./Drain.ts"
import { requestIdFor, splitUrl } from "./request-id.ts"
import { requestLog } from "./request-log.ts"
import { isPreflight, preflightResponse, webPolish } from "./web.ts"

const CAPABILITY_TAGS = new Set([
  "InvalidRequest", "NotFound", "NotIndexed", "UpstreamUnavailable", "MapCoordinatesUnavailable", "CorpusUnavailable", "BackendFailed",
  "RouteNotFound", "MethodNotAllowed", "UnsupportedMediaType", "PayloadTooLarge"
])

/** Whatever the pipeline or a handler failed with, as a failure of the family's vocabulary. */
const classify = (e: unknown): RequestError | AccessDenied | undefined => {
  if (e instanceof AccessDenied) return e
  const tag = (e as { _tag?: string })?._tag
  if (tag === "HttpApiDecodeError") return new InvalidRequest({ message: describeIssues((e as any).issues ?? []) })
  if (tag === "RouteNotFound") return new RouteNotFound({ message: "no such route" })
  if (tag && CAPABILITY_TAGS.has(tag)) return e as RequestError
  return undefined
}

const toResponse = ({ status, body, headers }: Rendered) =>
  HttpServerResponse.unsafeJson(body, { status, headers: headers ?? {} })

export const gateway = Effect.gen(function* () {
  const settings = yield* Settings
  const drain = yield* Drain
  const metrics = yield* Metrics
  const quota = yield* Quota
  const mcp = yield* McpEndpoint
  const log = settings.logRequests ? yield* requestLog() : undefined
  const services = yield* Effect.context<Settings | KeyStore | ArtifactStore | Metrics | Drain | HubClient | StateDatabase>()

  return (router: HttpApp.Default): HttpApp.Default => {
    const pipeline = (received: HttpServerRequest.HttpServerRequest, path: string, seen: { caller?: Caller }) =>
      Effect.gen(function* () {
        const method = received.method
        const match = matchRoute(method, path)
        const route = match._tag === "Matched" ? match.route : undefined
        const caller: Caller = yield* authenticate({
          authorization: received.headers["authorization"],
          remoteAddress: Option.getOrUndefined(received.remoteAddress),
          permission: route?.access.permission
        })
        seen.caller = caller
        // Only an authenticated caller gets its body read.
        const bodyLimit = Math.min(settings.maxBodyBytes, route?.access.maxBodyBytes ?? Infinity)
        const request = yield* bufferBody(received, bodyLimit)
        if (path === "/mcp") {
          // Stateless streamable HTTP: no server-initiated stream to GET, no session to DELETE.
          if (method !== "POST") {
            return yield* Effect.fail(new MethodNotAllowed({ message: `${method} is not allowed on /mcp: this server is stateless, send JSON-RPC with POST`, allow: ["POST"] }))
          }
          const body = method === "POST" ? yield* readJsonBody(request, settings.maxBodyBytes) : undefined
          const response = yield* mcp.handle(request, body).pipe(Effect.provideService(RestDispatch, restDispatch))
          return { response, route: "/mcp", caller }
        }
        if (match._tag === "NoRoute") return yield* Effect.fail(new RouteNotFound({ message: `no route ${method} ${path}` }))
        if (match._tag === "WrongMethod") {
          return yield* Effect.fail(new MethodNotAllowed({ message: `${method} is not allowed here; use ${match.allow.join(" or ")}`, allow: match.allow }))
        }
        yield* checkPercentEncoding(path)
        if (route!.access.metered) yield* quota.admit(caller)
        if (Option.isSome(route!.payloadSchema)) yield* readJsonBody(request, bodyLimit)
        const response = yield* Effect.provideService(router, HttpServerRequest.HttpServerRequest, request)
        return {
          response: response.status < 400 ? HttpServerResponse.setHeader(response, "cache-control", route!.access.cacheControl) : response,
          route: `${route!.method} ${route!.template}`,
          caller
        }
      })

    const handle = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const started = performance.now()
      const requestId = requestIdFor(request.headers["x-request-id"])
      const { path } = splitUrl(request.url)
      const family = familyOfPath(path)
      const render = (r: Rendered) => toResponse(r)
      const context = { requestId, timestamp: new Date(settings.now()).toISOString() }

      let outcome: { response: HttpServerResponse.HttpServerResponse; route: string; caller?: Caller }
      if (isPreflight(request)) {
        outcome = { response: preflightResponse(request, path, settings.corsOrigins ?? []), route: "preflight" }
      } else if (SYSTEM_PATHS.has(path) && !(drain.isDraining() && path !== "/metrics" && path !== "/healthz")) {
        outcome =
          request.method === "GET" || request.method === "HEAD"
            ? { response: yield* systemResponse(path), route: path }
            : { response: render(renderFailure("coded", new MethodNotAllowed({ message: `${request.method} is not allowed here; use GET`, allow: ["GET"] }), context)), route: path }
      } else if (drain.isDraining()) {
        outcome = { response: render(renderDraining(family)), route: "draining" }
      } else {
        const seen: { caller?: Caller } = {}
        // Handlers see the id this response will carry (prior-art bodies quote it as request_id).
        const tagged = request.modify({ headers: Headers.set(request.headers, "x-request-id", requestId) })
        outcome = yield* pipeline(tagged, path, seen).pipe(
          Effect.provideService(HttpServerRequest.HttpServerRequest, tagged),
          Effect.catchAll((e) => Effect.succeed({ response: failureResponse(e), route: routeLabel(request.method, path), caller: seen.caller })),
          Effect.catchAllDefect((defect) =>
            Effect.zipRight(
              Effect.logError("unhandled defect", defect).pipe(Effect.annotateLogs({ requestId })),
              Effect.succeed({ response: render(renderDefect(family, context)), route: routeLabel(request.method, path), caller: seen.caller })
            )
          ),
          drain.tracked
        )
      }

      function failureResponse(e: unknown) {
        const failure = classify(e)
        if (failure instanceof AccessDenied) {
          if (failure.status === 429) metrics.observeQuotaRejection(String(failure.details?.limit ?? "unknown"))
          else metrics.observeAuthRefusal(failure.code)
          return render(renderDenied(family, failure, context))
        }
        return render(failure ? renderFailure(family, failure, context) : renderDefect(family, context))
      }

      let response = HttpServerResponse.setHeader(outcome.response, "x-request-id", requestId)
      if (!response.headers["cache-control"]) response = HttpServerResponse.setHeader(response, "cache-control", "no-store")
      response = yield* webPolish(request, response, { path, authenticated: !SYSTEM_PATHS.has(path), corsOrigins: settings.corsOrigins ?? [] })
      const seconds = (performance.now() - started) / 1000
      metrics.observeRequest(outcome.route, request.method, response.status, seconds)
      if (log !== undefined) {
        yield* log.write({
          requestId,
          method: request.method,
          path,
          route: outcome.route,
          status: response.status,
          ms: Math.round(seconds * 1000),
          key: outcome.caller?.handle ?? null,
          remote: Option.getOrNull(request.remoteAddress)
        })
      }
      return response
    }).pipe(Effect.provide(services))

    /** Runs a REST call through this same pipeline on behalf of an MCP tool call, as the client of the current request. */
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

/** A path the router could not decode would otherwise surface as "no such route". */
const checkPercentEncoding = (path: string) =>
  Effect.try({
    try: () => path.split("/").forEach((segment) => decodeURIComponent(segment)),
    catch: () => new InvalidRequest({ message: "path: contains malformed percent-encoding" })
  })

const routeLabel = (method: string, path: string) => {
  const match = matchRoute(method, path)
  return match._tag === "Matched" ? `${match.route.method} ${match.route.template}` : path === "/mcp" ? "/mcp" : "unmatched"
}
