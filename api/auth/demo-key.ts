/**
 * The demo key `make serve` prints: short-lived and one at a time. Each start revokes the demo
 * keys an earlier start issued (found by their name) and issues a fresh one that expires after a
 * day, so restarts never pile up working keys. It is written to the store the server reads: the
 * PostgreSQL one when DATABASE_URL is set, STATE_DIR's otherwise.
 *
 * Why not one demo key reused across restarts: only a salted hash of a key is stored (SPEC part 5),
 * so reusing one would mean keeping the raw key on disk. Keys for real use come from the key CLI.
 */
import { Effect, Layer } from "effect"
import { Settings, settingsFromEnv } from "../config.ts"
import { KeyStore } from "./KeyStore.ts"

/** The name that marks a key as `make serve`'s demo key in `keys list`. */
export const DEMO_KEY_NAME = "make serve demo key"
export const DEMO_KEY_DAYS = 1

export const issueDemoKey = (stateDir: string): Promise<string> =>
  Effect.gen(function* () {
    const store = yield* KeyStore
    for (const earlier of yield* store.list) {
      if (earlier.name === DEMO_KEY_NAME && earlier.status !== "revoked") yield* store.setStatus(earlier.handle, "revoked")
    }
    return yield* store.create({ name: DEMO_KEY_NAME, expiresDays: DEMO_KEY_DAYS })
  }).pipe(
    Effect.mapError((e) => new Error(`demo key: ${e.message}`)),
    Effect.provide(
      KeyStore.Default.pipe(
        Layer.provide(Layer.effect(Settings, Effect.map(Effect.orDie(settingsFromEnv), (s) => ({ ...s, stateDir }))))
      )
    ),
    Effect.runPromise
  )
