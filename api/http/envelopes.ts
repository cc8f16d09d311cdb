/**
 * The three error envelopes of SPEC part 7, and the one place where each route family turns a
 * failure into a status and a body:
 *
 *   prior-art         {success:false, error}            (500 adds request_id)
 *   coded             {error, code, timestamp}          (patent-map, warm-up, patent-intel, guidance)
 *   claim-validation  {error}
 *
 * Authentication and quota refusals carry their part-5 code on every route ("behave the same on
 * every endpoint"); prior-art routes keep `success:false` beside it so their clients still branch
 * on `success`.
 */
import { HttpApiSchema } from "@effect/platform"
import { Data, ParseResult, Schema } from "effect"
import {
  BackendFailed,
  type CapabilityError,
  CorpusUnavailable,
  InvalidRequest,
  MapCoordinatesUnavailable,
  NotFound,
  NotIndexed,
  UpstreamUnavailable
} from "../domain/errors.ts"
import type { Family } from "./route-meta.ts"

export class RouteNotFound extends Data.TaggedError("RouteNotFound")<{ readonly message: string }> {}
export class MethodNotAllowed extends Data.TaggedError("MethodNotAllowed")<{
  readonly message: string
  readonly allow: ReadonlyArray<string>
}> {}
export class UnsupportedMediaType extends Data.TaggedError("UnsupportedMediaType")<{ readonly message: string }> {}
export class PayloadTooLarge extends Data.TaggedError("PayloadTooLarge")<{ readonly message: string }> {}

/** Refusals of part 5 (authentication, permissions, quota). */
export class AccessDenied extends Data.TaggedError("AccessDenied")<{
  readonly status: 401 | 403 | 429 | 500
  readonly code: string
  readonly message: string
  readonly details?: Record<string, unknown>
  readonly headers?: Record<string, string>
}> {}

export type RequestError = CapabilityError | RouteNotFound | MethodNotAllowed | UnsupportedMediaType | PayloadTooLarge

export interface Rendered {
  readonly status: number
  readonly body: Record<string, unknown>
  readonly headers?: Record<string, string>
}

const STATUS_AND_CODE: Record<RequestError["_tag"], readonly [number, string]> = {
  InvalidRequest: [400, "VALIDATION_ERROR"],
  NotFound: [404, "NOT_FOUND"],
  NotIndexed: [404, "NOT_INDEXED"],
  UpstreamUnavailable: [502, "UPSTREAM_ERROR"],
  MapCoordinatesUnavailable: [503, "MAP_COORDINATES_UNAVAILABLE"],
  CorpusUnavailable: [503, "CORPUS_UNAVAILABLE"],
  BackendFailed: [500, "INTERNAL_ERROR"],
  RouteNotFound: [404, "NOT_FOUND"],
  MethodNotAllowed: [405, "METHOD_NOT_ALLOWED"],
  UnsupportedMediaType: [415, "UNSUPPORTED_MEDIA_TYPE"],
  PayloadTooLarge: [413, "PAYLOAD_TOO_LARGE"]
}

/** Failures that are about the request itself rather than the backend. */
const REQUEST_SHAPE = new Set(["InvalidRequest", "RouteNotFound", "MethodNotAllowed", "UnsupportedMediaType", "PayloadTooLarge"])

interface RenderContext {
  readonly requestId: string
  readonly timestamp: string
}

const extraHeaders = (e: RequestError) =>
  e._tag === "MethodNotAllowed" ? { allow: e.allow.join(", ") } : undefined

export const renderFailure = (family: Family, e: RequestError, ctx: RenderContext): Rendered => {
  const [status, code] = STATUS_AND_CODE[e._tag]
  const headers = extraHeaders(e)
  switch (family) {
    case "prior-art":
      return REQUEST_SHAPE.has(e._tag)
        ? { status, body: { success: false, error: e.message }, headers }
        : { status: 500, body: { success: false, error: e.message, request_id: ctx.requestId } }
    case "coded":
      return { status, body: { error: e.message, code, timestamp: ctx.timestamp }, headers }
    case "claim-validation":
      // GET routes pull from the warehouse: an unreachable corpus is a failed pull (502).
      return { status: e._tag === "CorpusUnavailable" || e._tag === "MapCoordinatesUnavailable" ? 502 : status, body: { error: e.message }, headers }
  }
}

/** An unexpected defect: the family's 500 answer, without leaking internals. */
export const renderDefect = (family: Family, ctx: RenderContext): Rendered =>
  renderFailure(family, new BackendFailed({ message: "internal error; quote the request id when reporting it" }), ctx)

export const renderDenied = (family: Family, e: AccessDenied, ctx: RenderContext): Rendered => ({
  status: e.status,
  body: {
    ...(family === "prior-art" ? { success: false } : {}),
    error: e.message,
    code: e.code,
    timestamp: ctx.timestamp,
    ...(e.status === 500 ? { request_id: ctx.requestId } : {}),
    ...e.details
  },
  headers: e.headers
})

export const renderDraining = (family: Family): Rendered => ({
  status: 503,
  body: { ...(family === "prior-art" ? { success: false } : {}), error: "the service is draining for a deployment; retry" },
  headers: { "retry-after": "5", connection: "close" }
})

// ---------------------------------------------------------------------------------------------
// Documentation schemas: the same envelopes as Schemas, so HttpApi derives an accurate OpenAPI
// document. Their Type side is the domain error, so handlers fail with domain errors; the bodies
// are produced by the render functions above (api/http/middleware/edge.ts catches every failure first).
// ---------------------------------------------------------------------------------------------

type ErrorClass = abstract new (...args: any) => RequestError

const documented = <A extends RequestError | AccessDenied>(
  body: Schema.Schema<any, any>,
  domain: Schema.Schema<A>,
  status: number,
  identifier: string,
  description: string
) =>
  Schema.transformOrFail(body, domain, {
    strict: false,
    decode: (i, _, ast) => ParseResult.fail(new ParseResult.Forbidden(ast, i, "error envelopes are documentation only")),
    encode: (a, _, ast) => ParseResult.fail(new ParseResult.Forbidden(ast, a, "rendered by envelopes.renderFailure"))
  }).annotations({ identifier, description, ...HttpApiSchema.annotations({ status }) })

const instanceOfAny = <C extends ErrorClass>(classes: ReadonlyArray<C>) =>
  Schema.declare((u): u is InstanceType<C> => classes.some((c) => u instanceof c))

export const PriorArtErrorBody = Schema.Struct({ success: Schema.Literal(false), error: Schema.String })
export const PriorArtFailureBody = Schema.Struct({
  success: Schema.Literal(false),
  error: Schema.String,
  request_id: Schema.String.annotations({ description: "Quote when reporting the error" })
})
export const CodedBody = <C extends string>(code: C) =>
  Schema.Struct({ error: Schema.String, code: Schema.Literal(code), timestamp: Schema.String })
export const MessageBody = Schema.Struct({ error: Schema.String })

export const PriorArt = {
  invalid: documented(PriorArtErrorBody, instanceOfAny([InvalidRequest]), 400, "PriorArtValidationError", "The body broke a field rule; `error` names the field and the rule"),
  failed: documented(
    PriorArtFailureBody,
    instanceOfAny([BackendFailed, CorpusUnavailable, UpstreamUnavailable, NotFound]),
    500,
    "PriorArtFailure",
    "The search or lookup failed (or its index is not available); quote request_id"
  )
}

const coded = <C extends ErrorClass>(cls: C, status: number, code: string, description: string) =>
  documented(CodedBody(code), instanceOfAny([cls]), status, `${code}_${status}`, description)

export const Coded = {
  validation: coded(InvalidRequest, 400, "VALIDATION_ERROR", "A parameter broke a rule; `error` names the field and the rule"),
  notFound: coded(NotFound, 404, "NOT_FOUND", "No such record"),
  notIndexed: coded(NotIndexed, 404, "NOT_INDEXED", "The application is not in the vector index"),
  upstream: coded(UpstreamUnavailable, 502, "UPSTREAM_ERROR", "A backend (hub, vector index, atlas storage) is unreachable"),
  noCoordinates: coded(MapCoordinatesUnavailable, 503, "MAP_COORDINATES_UNAVAILABLE", "The vector index stores no map coordinates"),
  corpus: coded(CorpusUnavailable, 503, "CORPUS_UNAVAILABLE", "The dataset is not configured or unreachable")
}

const plain = <C extends ErrorClass>(classes: ReadonlyArray<C>, status: number, identifier: string, description: string) =>
  documented(MessageBody, instanceOfAny(classes), status, identifier, description)

export const ClaimValidation = {
  invalid: plain([InvalidRequest], 400, "ClaimValidationInvalid", "Unusable input; `error` says which field and rule"),
  failed: plain([BackendFailed], 500, "ClaimValidationFailed", "The check or analysis failed"),
  pullFailed: plain([UpstreamUnavailable, CorpusUnavailable, BackendFailed], 502, "ClaimValidationPullFailed", "The warehouse or specification pull failed")
}

/**
 * Refusals of the request body, which the admission middleware reads before HttpApi decodes it
 * (api/http/security/Http.ts). Their bodies follow the route family, so the documented shape is
 * the union of the three: `success` on prior-art routes, `code` and `timestamp` on coded ones.
 */
const RefusedBody = (code: string) =>
  Schema.Struct({
    success: Schema.optional(Schema.Literal(false)),
    error: Schema.String,
    code: Schema.optional(Schema.Literal(code)),
    timestamp: Schema.optional(Schema.String)
  })

export const Refused = {
  tooLarge: documented(RefusedBody("PAYLOAD_TOO_LARGE"), instanceOfAny([PayloadTooLarge]), 413, "PayloadTooLarge", "The body is over the size limit (declared by Content-Length or read)"),
  mediaType: documented(RefusedBody("UNSUPPORTED_MEDIA_TYPE"), instanceOfAny([UnsupportedMediaType]), 415, "UnsupportedMediaType", "The body is not application/json"),
  /**
   * An empty, malformed, too deeply nested or unfinished body: answered as the family's own 400,
   * which each group documents already (the OpenAPI document drops this duplicate, as it drops
   * HttpApiDecodeError).
   */
  unreadable: documented(MessageBody, instanceOfAny([InvalidRequest]), 400, "UnreadableBody", "The body is empty, not JSON, nested too deep, or was not sent whole"),
  /** The router let an empty path parameter through (`/patent//citations`): no route, like any other unmatched path (left out of the document). */
  emptySegment: documented(MessageBody, instanceOfAny([RouteNotFound]), 404, "EmptyPathSegment", "No such route")
}

/** Part-5 refusals, declared once at API level so every operation documents them. */
const DeniedBody = (codes: ReadonlyArray<string>) =>
  Schema.Struct({
    success: Schema.optional(Schema.Literal(false)),
    error: Schema.String,
    code: Schema.Literal(...(codes as [string, ...Array<string>])),
    timestamp: Schema.String
  })
const denied = (status: number, codes: ReadonlyArray<string>, description: string, extra: Record<string, Schema.Schema<any, any> | Schema.PropertySignature<any, any, any, any, any, any, never>> = {}) =>
  documented(
    Schema.extend(DeniedBody(codes), Schema.Struct(extra)),
    Schema.declare((u): u is AccessDenied => u instanceof AccessDenied && u.status === status),
    status,
    `AccessDenied${status}`,
    description
  )

export const Denied = {
  unauthorized: denied(401, ["MISSING_API_KEY", "INVALID_AUTH_FORMAT", "INVALID_KEY_FORMAT", "KEY_NOT_FOUND", "API_KEY_EXPIRED"], "The bearer key is missing, malformed, unknown, suspended, revoked or expired"),
  forbidden: denied(403, ["TEST_KEY_FORBIDDEN", "IP_NOT_WHITELISTED", "INSUFFICIENT_PERMISSIONS"], "The key may not call this endpoint from here", {
    permission: Schema.optional(Schema.String.annotations({ description: "The missing permission (INSUFFICIENT_PERMISSIONS)" }))
  }),
  quota: denied(429, ["USAGE_LIMIT_EXCEEDED"], "The key's daily or monthly quota is used up", {
    limit: Schema.optional(Schema.Literal("daily", "monthly")),
    quota: Schema.optional(Schema.Number),
    used: Schema.optional(Schema.Number),
    resetsAt: Schema.optional(Schema.String)
  }),
  system: denied(500, ["AUTH_SYSTEM_ERROR"], "Key validation itself failed; retry", { request_id: Schema.optional(Schema.String) })
}
