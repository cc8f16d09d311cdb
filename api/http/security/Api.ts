/**
 * Authentication and admission as HttpApi middleware (SPEC part 5), declared here and
 * implemented in ./Http.ts:
 *
 * - `Authentication` (API level, so it wraps the router: it runs before routing, and an unknown
 *   route without a key is a 401, not a 404): the bearer key, checked in the part-5 order, provides
 *   the `CurrentCaller`.
 * - `Admission` (on each REST group, so it knows the matched endpoint): the endpoint's permission,
 *   the body read once from the socket, the quota of a metered endpoint, then the body's JSON
 *   checks. It provides the request HttpApi decodes, whose body is the text read here.
 *
 * An endpoint's permission, metering and Cache-Control are annotations on the endpoint
 * (`Access`, api/http/route-meta.ts). Every failure is a tagged error whose status is declared in
 * its schema (api/http/envelopes.ts); the body is the route family's envelope.
 */
import { HttpApiMiddleware, HttpApiSecurity, HttpServerRequest, OpenApi } from "@effect/platform"
import { Context, Schema } from "effect"
import type { Caller } from "../../auth/authenticate.ts"
import { Denied, Refused } from "../envelopes.ts"
import type { RouteEntry } from "../route-table.ts"

/** The authenticated key's holder, for handlers and the admission middleware. */
export class CurrentCaller extends Context.Tag("api/CurrentCaller")<CurrentCaller, Caller>() {}

export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("api/Authentication", {
  failure: Schema.Union(Denied.unauthorized, Denied.forbidden, Denied.system),
  provides: CurrentCaller,
  security: {
    bearer: HttpApiSecurity.bearer.pipe(HttpApiSecurity.annotate(OpenApi.Description, "API key: ak_live_ or ak_test_ followed by 32 letters and digits"))
  }
}) {}

export class Admission extends HttpApiMiddleware.Tag<Admission>()("api/Admission", {
  failure: Schema.Union(Denied.forbidden, Denied.quota, Denied.system, Refused.tooLarge, Refused.mediaType, Refused.unreadable, Refused.emptySegment),
  provides: HttpServerRequest.HttpServerRequest
}) {}

/**
 * What the outer HTTP middleware (request log, metrics, Cache-Control) learns from inside HttpApi
 * about one request: who called and which endpoint answered. Written by the middleware above
 * when the outer middleware provides it.
 */
export interface ServedRequest {
  caller: Caller | undefined
  route: RouteEntry | undefined
}

export class Served extends Context.Tag("api/Served")<Served, ServedRequest>() {}
