/**
 * Quota admission for metered routes (SPEC parts 5 and 8). The counters follow the configuration:
 * PostgreSQL (api/quota/pg-quota.ts, exact across replicas) when DATABASE_URL is set, the durable
 * ledger in STATE_DIR/quota (api/quota/ledger.ts, exact within one process) otherwise. Either way a
 * request is counted, durably, before it proceeds.
 */
import * as path from "node:path"
import { Effect, Option } from "effect"
import type pg from "pg"
import type { Caller } from "../auth/authenticate.ts"
import { type ApiSettings, Settings } from "../config.ts"
import { AccessDenied } from "../http/envelopes.ts"
import { StateDatabase } from "../state/Database.ts"
import { QuotaLedger, type Usage } from "./ledger.ts"
import { type Outcome, pgQuota } from "./pg-quota.ts"
import { describe, QuotaUnavailable } from "./usage.ts"

interface Counters {
  readonly admit: (caller: Caller, nowMs: number) => Promise<Outcome>
  readonly usage: (lineage: string, nowMs: number) => Promise<Usage>
}

const sharedCounters = (pool: pg.Pool): Counters => {
  const shared = pgQuota(pool)
  return { admit: (caller, nowMs) => shared.admit(caller.lineage, caller, nowMs), usage: shared.usage }
}

const fileCounters = (settings: ApiSettings) =>
  Effect.map(
    Effect.acquireRelease(
      Effect.promise(() => QuotaLedger.open(path.join(settings.stateDir, "quota"), settings.now())),
      (l) => Effect.promise(() => l.close())
    ),
    (ledger): Counters => ({
      // The check and the count happen synchronously in `ledger.admit`; only the fsync is awaited.
      admit: async (caller, nowMs) => {
        const admission = ledger.admit(caller.lineage, caller, nowMs)
        if (!admission.admitted) return admission
        await admission.durable
        return { admitted: true }
      },
      usage: async (lineage, nowMs) => ledger.usage(lineage, nowMs)
    })
  )

export class Quota extends Effect.Service<Quota>()("api/Quota", {
  scoped: Effect.gen(function* () {
    const settings = yield* Settings
    const database = yield* StateDatabase
    const counters = Option.isSome(database.pool) ? sharedCounters(database.pool.value) : yield* fileCounters(settings)

    return {
      /** Counts the request against the caller's windows; succeeds once the count is durable. */
      admit: (caller: Caller) =>
        Effect.tryPromise({ try: () => counters.admit(caller, settings.now()), catch: describe }).pipe(
          // The cause goes to the log, not to the client.
          Effect.catchAll((cause) =>
            Effect.zipRight(
              Effect.logError(`quota store failed: ${cause}`),
              Effect.fail(new AccessDenied({ status: 500, code: "AUTH_SYSTEM_ERROR", message: "quota store failed; retry" }))
            )
          ),
          Effect.flatMap((outcome) => {
            if (outcome.admitted) return Effect.void
            const { limit, quota, used, resetsAt } = outcome
            const retryAfter = Math.max(1, Math.ceil((Date.parse(resetsAt) - settings.now()) / 1000))
            return Effect.fail(
              new AccessDenied({
                status: 429,
                code: "USAGE_LIMIT_EXCEEDED",
                message: `${limit} quota of ${quota} requests used up; it resets at ${resetsAt}`,
                details: { limit, quota, used, resetsAt },
                headers: { "retry-after": String(retryAfter) }
              })
            )
          })
        ),
      usage: (lineage: string) =>
        Effect.tryPromise({
          try: () => counters.usage(lineage, settings.now()),
          catch: (e) => new QuotaUnavailable({ message: `quota counters unreadable: ${describe(e)}` })
        })
    } as const
  }),
  dependencies: [StateDatabase.Default]
}) {}
