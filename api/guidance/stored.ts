/**
 * Reading the guidance stage's Parquet rows (JSON text columns, lists and ids) and holding each
 * table in memory for the served version. The guidance tables are bounded by the manuals they
 * come from (hundreds to a few thousand rows whatever the number of applications), so each is
 * read once and every request is a Map lookup or a filter over the held rows.
 */
import { Duration, Effect, Option } from "effect"
import type { ArtifactStore } from "../artifacts/ArtifactStore.ts"
import type { CorpusUnavailable } from "../domain/errors.ts"

export type Query = ArtifactStore["query"]
export type Row = Record<string, unknown>

/** A JSON text column as a value; SQL NULL stays `fallback`. */
export const json = <A>(text: unknown, fallback: A): A => (text === null || text === undefined ? fallback : (JSON.parse(String(text)) as A))

export const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : [])

export const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v))

export const num = (v: unknown): number => (typeof v === "bigint" ? Number(v) : Number(v ?? 0))

/** Rows by a key column, the first row of the table winning as `WHERE key = $1 LIMIT 1` did. */
export const byKey = (rows: ReadonlyArray<Row>, key: (r: Row) => unknown): ReadonlyMap<string, Row> => {
  const map = new Map<string, Row>()
  for (const r of rows) {
    const k = key(r)
    if (k === null || k === undefined) continue
    if (!map.has(String(k))) map.set(String(k), r)
  }
  return map
}

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
        Effect.forkDaemon
      )
    }
    return held
  })
