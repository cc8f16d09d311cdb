/**
 * What the middleware must know about an endpoint: the permission it needs, whether it
 * is metered, its Cache-Control, its MCP tool and its error envelope family. Declared as
 * annotations on the HttpApi endpoints, so the route table, the OpenAPI document and the MCP tool
 * list all read one declaration.
 */
import { Context } from "effect"
import type { Permission } from "../auth/permissions.ts"

export type Family = "prior-art" | "coded" | "claim-validation"

export interface RouteAccess {
  readonly permission: Permission
  readonly metered: boolean
  readonly cacheControl: string
  /** MCP tool that reaches this route, when it has one. */
  readonly tool?: string
  /** A body limit below the server's (bytes), refused by Content-Length before the body is read. */
  readonly maxBodyBytes?: number
}

export class Access extends Context.Tag("api/RouteAccess")<Access, RouteAccess>() {}

export class RouteFamily extends Context.Tag("api/RouteFamily")<RouteFamily, Family>() {}

export const CACHE_DAY = "private, max-age=86400"
export const CACHE_HALF_HOUR = "private, max-age=1800"
export const NO_STORE = "no-store"

export const metered = (permission: Permission, cacheControl: string, tool?: string): RouteAccess => ({
  permission,
  metered: true,
  cacheControl,
  tool
})

export const free = (permission: Permission, cacheControl: string, tool?: string): RouteAccess => ({
  permission,
  metered: false,
  cacheControl,
  tool
})

/** The same access with a tighter body limit. */
export const withBodyLimit = (access: RouteAccess, maxBodyBytes: number): RouteAccess => ({ ...access, maxBodyBytes })
