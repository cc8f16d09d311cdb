/**
 * The key store the Authentication middleware (api/http/security/) checks keys against and the key CLI manages. Its backend follows
 * the configuration: PostgreSQL (table `api_keys`, shared by every replica) when DATABASE_URL is
 * set, STATE_DIR/keys.json otherwise. Either way a change is in force on the next request.
 */
import { Data, Effect, Option } from "effect"
import { Settings } from "../config.ts"
import { StateDatabase } from "../state/Database.ts"
import { fileKeys } from "./file-keys.ts"
import { type KeyOptions, KeyRequestInvalid } from "./issue.ts"
import type { KeyBackend, KeyStatus } from "./key-backend.ts"
import { pgKeys } from "./pg-keys.ts"

/** The store could not be read or written (a 500 AUTH_SYSTEM_ERROR for a request). */
export class KeyStoreFailure extends Data.TaggedError("KeyStoreFailure")<{ readonly message: string }> {}

/** A key operation asked for something the rules forbid (bad option, unknown handle, rotating a revoked key). */
export class KeyRejected extends Data.TaggedError("KeyRejected")<{ readonly message: string }> {}

const failure = (e: unknown) =>
  e instanceof KeyRequestInvalid
    ? new KeyRejected({ message: e.message })
    : new KeyStoreFailure({ message: `key store unavailable: ${e instanceof Error ? e.message : String(e)}` })

export class KeyStore extends Effect.Service<KeyStore>()("api/KeyStore", {
  effect: Effect.gen(function* () {
    const settings = yield* Settings
    const database = yield* StateDatabase
    const backend: KeyBackend = Option.match(database.pool, { onNone: () => fileKeys(settings.stateDir), onSome: pgKeys })
    const run = <A>(work: () => Promise<A>) => Effect.tryPromise({ try: work, catch: failure })

    return {
      /** "file" or "postgresql". */
      kind: backend.kind,
      findByHandle: (handle: string) =>
        Effect.tryPromise({
          try: () => backend.findByHandle(handle),
          catch: (e) => new KeyStoreFailure({ message: `key store unreadable: ${e instanceof Error ? e.message : String(e)}` })
        }),
      /** Issues a key; succeeds with the raw key, shown once and stored nowhere. */
      create: (options: KeyOptions, nowMs = settings.now()) => run(() => backend.create(options, nowMs)),
      setStatus: (handle: string, status: KeyStatus) => run(() => backend.setStatus(handle, status)),
      rotate: (handle: string, nowMs = settings.now()) => run(() => backend.rotate(handle, nowMs)),
      list: run(() => backend.list())
    } as const
  }),
  dependencies: [StateDatabase.Default]
}) {}
