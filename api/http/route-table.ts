/**
 * The REST surface reflected from the HttpApi declaration, one entry per endpoint with its access
 * annotations and schemas: the admission middleware looks up the endpoint the router matched, the
 * MCP tool list and the OpenAPI document read it, and for a request the router did not match it
 * says which methods the path allows (405 with Allow) and which envelope family answers.
 */
import { HttpApi, type HttpApiEndpoint, OpenApi } from "@effect/platform"
import { Context, Option, type Schema } from "effect"
import { PatentApi } from "../Api.ts"
import { Access, type Family, RouteFamily, type RouteAccess } from "./route-meta.ts"

export interface RouteEntry {
  readonly method: string
  /** Full path template, e.g. /api/v1/patent-map/patent/:appNum */
  readonly template: string
  readonly segments: ReadonlyArray<string>
  readonly group: string
  readonly name: string
  readonly access: RouteAccess
  readonly family: Family
  readonly pathSchema: Option.Option<Schema.Schema.Any>
  readonly urlParamsSchema: Option.Option<Schema.Schema.Any>
  readonly payloadSchema: Option.Option<Schema.Schema.Any>
  readonly summary: string | undefined
}

const collect = (): ReadonlyArray<RouteEntry> => {
  const entries: Array<RouteEntry> = []
  HttpApi.reflect(PatentApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, group, mergedAnnotations }) => {
      // The MCP endpoint is not a REST route (no permission, metering or tool of its own).
      if (Context.get(mergedAnnotations, OpenApi.Exclude)) return
      const e = endpoint as unknown as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
      entries.push({
        method: e.method,
        template: e.path,
        segments: e.path.split("/").slice(1),
        group: group.identifier,
        name: e.name,
        access: Context.unsafeGet(mergedAnnotations, Access),
        family: Context.unsafeGet(mergedAnnotations, RouteFamily),
        pathSchema: e.pathSchema,
        urlParamsSchema: e.urlParamsSchema,
        payloadSchema: e.payloadSchema,
        summary: Option.getOrUndefined(Context.getOption(mergedAnnotations, OpenApi.Summary))
      })
    }
  })
  return entries
}

export const routeTable: ReadonlyArray<RouteEntry> = collect()

export type RouteMatch =
  | { readonly _tag: "Matched"; readonly route: RouteEntry }
  | { readonly _tag: "WrongMethod"; readonly allow: ReadonlyArray<string> }
  | { readonly _tag: "NoRoute" }

const fits = (route: RouteEntry, segments: ReadonlyArray<string>) =>
  route.segments.length === segments.length &&
  route.segments.every((s, i) => (s.startsWith(":") ? segments[i].length > 0 : s === segments[i]))

/** Matches a raw (still percent-encoded) path; literal segments win over parameters. */
export const matchRoute = (method: string, rawPath: string): RouteMatch => {
  const segments = rawPath.split("/").slice(1)
  const candidates = routeTable.filter((r) => fits(r, segments))
  const literalScore = (r: RouteEntry) => r.segments.filter((s) => !s.startsWith(":")).length
  const onMethod = candidates.filter((r) => r.method === method || (method === "HEAD" && r.method === "GET"))
  if (onMethod.length > 0) return { _tag: "Matched", route: onMethod.sort((a, b) => literalScore(b) - literalScore(a))[0] }
  if (candidates.length > 0) return { _tag: "WrongMethod", allow: [...new Set(candidates.map((r) => r.method))] }
  return { _tag: "NoRoute" }
}

/** The envelope family for any path under /api/v1, routed or not. */
export const familyOfPath = (rawPath: string): Family =>
  rawPath.startsWith("/api/v1/prior-art") ? "prior-art" : rawPath.startsWith("/api/v1/claim-validation") ? "claim-validation" : "coded"
