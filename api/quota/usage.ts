/**
 * Reading quota usage without admitting anything: the key CLI's view. Kept apart from Quota.ts so
 * the CLI loads neither the HTTP envelopes nor the file ledger's writer (a running server appends
 * to that ledger; the CLI only reads it).
 */
import * as path from "node:path"
import { Data, Effect, Option } from "effect"
import { Settings } from "../config.ts"
import { StateDatabase } from "../state/Database.ts"
import { QuotaLedger } from "./ledger.ts"
import { pgQuota } from "./pg-quota.ts"

/** The counters could not be read. */
export class QuotaUnavailable extends Data.TaggedError("QuotaUnavailable")<{ readonly message: string }> {}

export const describe = (e: unknown) => (e instanceof Error ? e.message : String(e))

/**
 * A read-only view of every lineage's usage, for the key CLI: it never opens the file ledger for
 * writing (a running server appends to it), and reads the shared counters in one query.
 */
export const readQuotaUsage = Effect.gen(function* () {
  const settings = yield* Settings
  const database = yield* StateDatabase
  const nowMs = settings.now()
  return yield* Effect.tryPromise({
    try: () =>
      Option.isSome(database.pool)
        ? pgQuota(database.pool.value).usageAll(nowMs)
        : QuotaLedger.readUsage(path.join(settings.stateDir, "quota"), nowMs),
    catch: (e) => new QuotaUnavailable({ message: `quota counters unreadable: ${describe(e)}` })
  })
})
