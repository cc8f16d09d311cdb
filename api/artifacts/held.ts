/**
 * Bounded tables of the served version held in memory (the CPC scheme, the guidance manuals, the
 * examiner roster): read once, then every request is a lookup. Shared by the route families that
 * hold a table.
 */
import { Duration, Effect, Option } from "effect"
import type { CorpusUnavailable } from "../domain/errors.ts"
import type { ArtifactStore } from "./ArtifactStore.ts"

/**
 * DuckDB's VARCHAR order: by code point (its bytes are UTF-8), which differs from JavaScript's
 * `<` (UTF-16 code units) only for characters above U+FFFF.
 */
export const compareText = (a: string, b: string): number => {
  if (a === b) return 0
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!
    const y = b.codePointAt(i)!
    if (x !== y) return x - y
    if (x > 0xffff) i++
  }
  return a.length - b.length
}

/**
 * One table (or a few) of the served version held in memory: `load` runs on the first request
 * and is kept for the version's lifetime; a failed load (a version without the table answers
 * CorpusUnavailable) is retried by the next request. With `preload` (the served API) it is read
 * at start, where the version has the tables, so that no request pays for it.
 */
export const heldTable = <A>(
  store: ArtifactStore,
  options: { readonly tables: ReadonlyArray<string>; readonly preload: boolean; readonly describe: (a: A) => string },
  load: Effect.Effect<A, CorpusUnavailable>
) =>
  Effect.gen(function* () {
    const held = yield* Effect.cachedInvalidateWithTTL(load, Duration.infinity).pipe(Effect.map(([get, invalidate]) => Effect.tapError(get, () => invalidate)))
    const served = store.served()
    if (options.preload && Option.isSome(served) && options.tables.every((t) => served.value.tables.has(t))) {
      yield* held.pipe(
        Effect.timed,
        Effect.tap(([took, a]) => Effect.logInfo(`${options.describe(a)} held in memory, read in ${Math.round(Duration.toMillis(took))} ms`)),
        Effect.catchAll((e) => Effect.logWarning(`${options.tables.join(", ")} not preloaded (the first request retries): ${e.message}`)),
        store.preload
      )
    }
    return held
  })
