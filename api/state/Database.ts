/**
 * The shared-state database: a `pg` pool to PostgreSQL when `DATABASE_URL` is set (CONTRACT.md),
 * with the schema migrated before the first use; nothing when it is unset (the file store under
 * STATE_DIR is the embedded default). KeyStore and Quota pick their backend from this service, so
 * one pool serves both.
 */
import pg from "pg"
import { Data, Effect, Option, Redacted, type Scope } from "effect"
import { Settings } from "../config.ts"
import { migrate } from "./migrations.ts"

export class DatabaseUnavailable extends Data.TaggedError("DatabaseUnavailable")<{ readonly message: string }> {}

/** The message of a failure, never the connection string (it may carry a password). */
export const describe = (e: unknown) => (e instanceof Error ? e.message : String(e))

/** Connections per process: admissions are single short statements, so a few go a long way. */
export const POOL_SIZE = 10

export const openPool = (url: string) => {
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_SIZE,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // A statement stuck behind a lock must not hold a request forever.
    statement_timeout: 10_000,
    application_name: "patent-intelligence"
  })
  // An idle client losing its server (restart, failover) emits here; without a listener the process dies.
  pool.on("error", (e) =>
    process.stderr.write(
      `${JSON.stringify({ message: `database connection lost: ${describe(e)}`, logLevel: "WARN", timestamp: new Date().toISOString() })}\n`
    )
  )
  return pool
}

export interface SharedState {
  /** None: DATABASE_URL is unset and state lives in files under STATE_DIR. */
  readonly pool: Option.Option<pg.Pool>
  /** For readiness: fails when the database does not answer a trivial query (always succeeds without one). */
  readonly ping: Effect.Effect<void, DatabaseUnavailable>
}

export class StateDatabase extends Effect.Service<StateDatabase>()("api/StateDatabase", {
  scoped: Effect.gen(function* (): Effect.fn.Return<SharedState, DatabaseUnavailable, Settings | Scope.Scope> {
    const { databaseUrl } = yield* Settings
    const url = databaseUrl === undefined ? "" : Redacted.value(databaseUrl).trim()
    if (url === "") return { pool: Option.none<pg.Pool>(), ping: Effect.void }
    const pool = yield* Effect.acquireRelease(
      Effect.sync(() => openPool(url)),
      (p) => Effect.promise(() => p.end())
    )
    yield* Effect.tryPromise({
      try: () => migrate(pool),
      catch: (e) => new DatabaseUnavailable({ message: `DATABASE_URL: the shared-state database could not be prepared: ${describe(e)}` })
    })
    return {
      pool: Option.some(pool),
      ping: Effect.tryPromise({
        try: () => pool.query("SELECT 1").then(() => undefined),
        catch: (e) => new DatabaseUnavailable({ message: `shared-state database unreachable: ${describe(e)}` })
      })
    }
  })
}) {}
