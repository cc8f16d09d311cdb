/** Quota admission for metered routes (SPEC parts 5 and 8), backed by the durable ledger in STATE_DIR/quota. */
import * as path from "node:path"
import { Effect } from "effect"
import type { Caller } from "../auth/authenticate.ts"
import { Settings } from "../config.ts"
import { AccessDenied } from "../http/envelopes.ts"
import { QuotaLedger } from "./ledger.ts"

export class Quota extends Effect.Service<Quota>()("api/Quota", {
  scoped: Effect.gen(function* () {
    const settings = yield* Settings
    const ledger = yield* Effect.acquireRelease(
      Effect.promise(() => QuotaLedger.open(path.join(settings.stateDir, "quota"), settings.now())),
      (l) => Effect.promise(() => l.close())
    )
    return {
      /** Counts the request against the caller's windows; resolves once the count is on disk. */
      admit: (caller: Caller) =>
        Effect.gen(function* () {
          const admission = ledger.admit(caller.lineage, caller, settings.now())
          if (!admission.admitted) {
            const { limit, quota, used, resetsAt } = admission
            const retryAfter = Math.max(1, Math.ceil((Date.parse(resetsAt) - settings.now()) / 1000))
            return yield* Effect.fail(
              new AccessDenied({
                status: 429,
                code: "USAGE_LIMIT_EXCEEDED",
                message: `${limit} quota of ${quota} requests used up; it resets at ${resetsAt}`,
                details: { limit, quota, used, resetsAt },
                headers: { "retry-after": String(retryAfter) }
              })
            )
          }
          yield* Effect.tryPromise({
            try: () => admission.durable,
            catch: (e) =>
              new AccessDenied({ status: 500, code: "AUTH_SYSTEM_ERROR", message: `quota store failed; retry (${e instanceof Error ? e.message : String(e)})` })
          })
        }),
      usage: (lineage: string) => ledger.usage(lineage, settings.now())
    } as const
  })
}) {}
