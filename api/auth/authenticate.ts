/**
 * Authentication in the order SPEC part 5 fixes: header present → `Bearer <key>` form → key
 * shape (before any lookup) → live-only deployment → record by handle and constant-time hash
 * comparison → status → expiry → IP allowlist; then, once the route is known, its permission
 * (`requirePermission`). The HttpApi middleware in api/http/security/ runs both.
 */
import { Effect } from "effect"
import type { ApiSettings } from "../config.ts"
import { AccessDenied } from "../http/envelopes.ts"
import { isAllowed } from "./ip-allowlist.ts"
import { keyMatches } from "./key-hash.ts"
import { handleOf, isTestKey, isWellFormedKey } from "./key-shape.ts"
import type { KeyStore } from "./KeyStore.ts"
import type { Permission } from "./permissions.ts"

export interface Caller {
  readonly handle: string
  readonly lineage: string
  readonly name: string
  readonly daily: number
  readonly monthly: number
  /** The permissions the key holds; undefined: all of them. */
  readonly permissions: ReadonlyArray<string> | undefined
}

const deny = (status: 401 | 403 | 500, code: string, message: string, details?: Record<string, unknown>) =>
  Effect.fail(new AccessDenied({ status, code, message, details }))

const BEARER = /^Bearer +(\S+) *$/i

/**
 * Checks a request's key. Settings and the store are resolved once by the caller (the middleware
 * runs this on every request): the only asynchronous step is the store lookup.
 */
export const authenticate = (
  settings: ApiSettings,
  store: KeyStore,
  request: { readonly authorization: string | undefined; readonly remoteAddress: string | undefined }
): Effect.Effect<Caller, AccessDenied> => {
  if (request.authorization === undefined || request.authorization.trim() === "") {
    return deny(401, "MISSING_API_KEY", "no Authorization header; send Authorization: Bearer <API_KEY>")
  }
  const bearer = BEARER.exec(request.authorization)
  if (!bearer) return deny(401, "INVALID_AUTH_FORMAT", "the Authorization header must be of the form: Bearer <API_KEY>")
  const key = bearer[1]
  if (!isWellFormedKey(key)) {
    return deny(401, "INVALID_KEY_FORMAT", "an API key is ak_live_ or ak_test_ followed by 32 letters and digits (40 characters)")
  }
  if (isTestKey(key) && settings.keysLiveOnly) {
    return deny(403, "TEST_KEY_FORBIDDEN", "this deployment accepts live keys (ak_live_…) only")
  }
  return store.findByHandle(handleOf(key)).pipe(
    Effect.catchTag("KeyStoreFailure", (e) => Effect.zipRight(Effect.logError(e.message), deny(500, "AUTH_SYSTEM_ERROR", "key validation failed; retry"))),
    Effect.flatMap((record) => {
      if (!record || !keyMatches(record.salt, record.hash, key) || record.status !== "active") {
        return deny(401, "KEY_NOT_FOUND", "no active key matches; it may never have existed, or be suspended or revoked")
      }
      if (settings.now() >= Date.parse(record.expiresAt)) {
        return deny(401, "API_KEY_EXPIRED", `the key expired at ${record.expiresAt}; rotate it for a new one`, { expiredAt: record.expiresAt })
      }
      if (record.allowIps && !isAllowed(request.remoteAddress, record.allowIps)) {
        return deny(403, "IP_NOT_WHITELISTED", `requests from ${request.remoteAddress ?? "this address"} are outside the key's IP allowlist`)
      }
      return Effect.succeed({
        handle: record.handle,
        lineage: record.lineage,
        name: record.name,
        daily: record.daily,
        monthly: record.monthly,
        permissions: record.permissions ?? undefined
      } satisfies Caller)
    })
  )
}

/** The caller's key must hold the route's permission (a key without a list holds all). */
export const requirePermission = (caller: Caller, permission: Permission) =>
  caller.permissions && !caller.permissions.includes(permission)
    ? deny(403, "INSUFFICIENT_PERMISSIONS", `the key lacks the permission ${permission}`, { permission })
    : Effect.void
