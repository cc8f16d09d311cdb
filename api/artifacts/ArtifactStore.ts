/**
 * The artifact version the API serves: follows ARTIFACTS_DIR (usually the `current` symlink) to
 * the real version directory, reads its manifest and opens an in-memory DuckDB with one view per
 * `tables/<table>.parquet`. Parquet files are never written by the API.
 *
 * Queries run on a fixed pool of connections opened once per served version. A request that is
 * interrupted (its client went away) interrupts its DuckDB query and waits for it to settle before
 * the connection goes back to the pool: closing a connection while a libuv worker still runs its
 * query deadlocks DuckDB's worker threads, and with them every route of the process.
 *
 * A missing directory, manifest or table is not a crash: services fail with CorpusUnavailable,
 * which each route family renders as its documented backend-unavailable answer.
 */
import { type DuckDBConnection, DuckDBInstance, type DuckDBValue } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { Effect, Fiber, Option, Pool } from "effect"
import { createTableViews } from "../../core/artifacts/table-delta.ts"
import { decodeManifest, type Manifest } from "../../core/artifacts/manifest.ts"
import { RecordFile } from "../../core/serving/reader.ts"
import { SERVING_DIR } from "../../core/serving/records.ts"
import { Settings } from "../config.ts"
import { CorpusUnavailable } from "../domain/errors.ts"

export interface ServedVersion {
  readonly versionDir: string
  readonly manifest: Manifest
  readonly tables: ReadonlySet<string>
  readonly instance: DuckDBInstance
  /** Record files of serving/ by name (absent for versions built before the serving stage). */
  readonly records: ReadonlyMap<string, RecordFile>
}


/**
 * Connections per served version. DuckDB parallelises one query over its own threads; more
 * connections than a few per core only queue on the libuv pool (4 threads by default).
 */
export const connectionPoolSize = () => Math.max(4, Math.min(16, os.availableParallelism() * 2))

/**
 * DuckDB keeps Parquet pages it has read in its buffer pool up to its memory limit, 80% of RAM by
 * default: a served process would grow for hours towards that and crowd out the vector index and
 * the hub. A fifth of the machine, at most 4 GB, leaves them room; requests read by key and need little.
 */
const duckdbMemoryLimit = () => `${Math.max(256, Math.min(4096, Math.floor(os.totalmem() / 1024 / 1024 / 5)))}MB`

const openVersion = async (artifactsDir: string): Promise<ServedVersion> => {
  const versionDir = await fs.realpath(artifactsDir)
  const manifest = await Effect.runPromise(decodeManifest(JSON.parse(await fs.readFile(path.join(versionDir, "manifest.json"), "utf8"))))
  // Every Parquet file of the version is a view named by its file name: tables/applications.parquet
  // → applications, prosecution/examiner_statistics.parquet → examiner_statistics, …
  // (a table a night changed by entity reads its base and delta together: core/artifacts/table-delta.ts)
  const instance = await DuckDBInstance.create(":memory:", { memory_limit: duckdbMemoryLimit() })
  const connection = await instance.connect()
  let files: ReadonlyArray<string> = []
  try {
    files = await createTableViews(connection, versionDir)
  } finally {
    connection.closeSync()
  }
  return { versionDir, manifest, tables: new Set(files.map((f) => path.basename(f, ".parquet"))), instance, records: await openRecordFiles(versionDir) }
}

/** Every serving/<name>.idx of the version, opened once (indexes in memory, data files by handle). */
const openRecordFiles = async (versionDir: string) => {
  const names = (await fs.readdir(path.join(versionDir, SERVING_DIR)).catch(() => [] as string[])).filter((n) => n.endsWith(".idx")).map((n) => n.slice(0, -4))
  const files = new Map<string, RecordFile>()
  for (const name of names.sort()) {
    const file = await RecordFile.open(versionDir, name)
    if (file) files.set(name, file)
  }
  return files
}

const queryFailed = (e: unknown) => new CorpusUnavailable({ message: `dataset query failed: ${e instanceof Error ? e.message : String(e)}` })

/**
 * Runs one statement on a pooled connection. On interruption the query is cancelled in DuckDB and
 * the interruption completes only once the statement has settled, so the connection returned to
 * the pool is idle.
 */
const runOn = (connection: DuckDBConnection, sql: string, params: ReadonlyArray<DuckDBValue>) =>
  Effect.async<Array<Record<string, unknown>>, CorpusUnavailable>((resume) => {
    const settled = connection.runAndReadAll(sql, [...params]).then(
      (reader) => resume(Effect.succeed(reader.getRowObjectsJS() as Array<Record<string, unknown>>)),
      (e) => resume(Effect.fail(queryFailed(e)))
    )
    return Effect.promise(() => {
      connection.interrupt()
      return settled
    })
  })

export class ArtifactStore extends Effect.Service<ArtifactStore>()("api/ArtifactStore", {
  scoped: Effect.gen(function* () {
    const { artifactsDir } = yield* Settings
    const opened = yield* Effect.either(
      Effect.tryPromise({
        try: () => openVersion(artifactsDir),
        catch: (e) => `artifacts at ${artifactsDir} cannot be opened: ${e instanceof Error ? e.message : String(e)}`
      })
    )
    const served = opened._tag === "Right" ? Option.some(opened.right) : Option.none<ServedVersion>()
    const reason = opened._tag === "Left" ? opened.left : undefined
    if (reason) yield* Effect.logWarning(reason)
    // What services opened from this version's files (search state, vector rows) is closed with
    // it: a running service releases each old version after a switch, and its file handles must go too.
    const closers: Array<() => Promise<unknown>> = []
    // The instance closes after the pool (finalizers run in reverse order of registration).
    yield* Effect.addFinalizer(() =>
      Option.match(served, {
        onNone: () => Effect.void,
        onSome: (s) =>
          Effect.promise(() => Promise.allSettled([...closers.map((close) => close()), ...[...s.records.values()].map((f) => f.close())])).pipe(
            Effect.zipRight(Effect.sync(() => s.instance.closeSync()))
          )
      })
    )

    const pool = yield* Option.match(served, {
      onNone: () => Effect.succeed(Option.none<Pool.Pool<DuckDBConnection, CorpusUnavailable>>()),
      onSome: (s) =>
        Pool.make({
          acquire: Effect.acquireRelease(
            Effect.tryPromise({ try: () => s.instance.connect(), catch: queryFailed }),
            (connection) => Effect.sync(() => connection.closeSync())
          ),
          size: connectionPoolSize()
        }).pipe(Effect.map(Option.some))
    })

    // Background loads of this version (search state, held tables) run in the store's scope: they
    // stop with the version, and a version switch waits for them before sending requests here.
    const scope = yield* Effect.scope
    const preloads: Array<Fiber.RuntimeFiber<unknown, unknown>> = []
    const preload = <A, E>(load: Effect.Effect<A, E>) =>
      Effect.tap(Effect.forkIn(load, scope), (fiber) => Effect.sync(() => preloads.push(fiber as Fiber.RuntimeFiber<unknown, unknown>)))
    /** Completes once every load registered so far has finished (failed ones included). */
    const preloaded = Effect.suspend(() => Effect.forEach([...preloads], Fiber.await, { discard: true }))

    const unavailable = (what: string) => new CorpusUnavailable({ message: `${what} is not available: ${reason ?? "the artifact version does not hold it"}` })

    /** Fails unless every named table is part of the served version. */
    const requireTables = (...tables: ReadonlyArray<string>) =>
      Option.match(served, {
        onNone: () => Effect.fail(unavailable(`the dataset (${tables.join(", ")})`)),
        onSome: (s) => {
          const missing = tables.filter((t) => !s.tables.has(t))
          return missing.length === 0
            ? Effect.succeed(s)
            : Effect.fail(new CorpusUnavailable({ message: `the served artifact version has no ${missing.join(", ")} table` }))
        }
      })

    /** Runs a parameterised query ($1, $2 … bound from `params`) and returns plain JS rows. */
    const query = (sql: string, params: ReadonlyArray<DuckDBValue> = [], tables: ReadonlyArray<string> = []) =>
      Effect.zipRight(
        requireTables(...tables),
        Option.match(pool, {
          onNone: () => Effect.fail(unavailable("the dataset")),
          onSome: (p) => Effect.scoped(Effect.flatMap(Pool.get(p), (connection) => runOn(connection, sql, params)))
        })
      ).pipe(Effect.withSpan("ArtifactStore.query", { captureStackTrace: false }))

    /**
     * A record file of the served version (serving/<name>), or None when the version predates the
     * serving stage: callers then fall back to SQL over the tables.
     */
    const records = <R>(name: string): Option.Option<RecordFile<R>> =>
      Option.flatMap(served, (s) => Option.fromNullable(s.records.get(name) as RecordFile<R> | undefined))

    /** Reads records by key from a record file; a failed read is the dataset being unavailable. */
    const readRecords = <R, K extends string | number>(file: RecordFile<R>, keys: ReadonlyArray<K>) =>
      Effect.tryPromise({ try: () => file.getMany(keys), catch: queryFailed }).pipe(Effect.withSpan("ArtifactStore.records", { captureStackTrace: false }))

    /** Readiness: the served version answers a query now (used by /healthz). */
    const probe = query("SELECT 1 AS ok").pipe(Effect.timeoutFail({ duration: "2 seconds", onTimeout: () => unavailable("a query answer within 2 s") }))

    return {
      /** What /healthz reports. */
      status: () =>
        Option.match(served, {
          onNone: () => ({ loaded: false as const, reason: reason ?? "not loaded" }),
          onSome: (s) => ({ loaded: true as const, version: s.manifest.version, tables: [...s.tables].sort() })
        }),
      served: () => served,
      /** Closes `close`'s resource when this version is released (after its last request). */
      onRelease: (close: () => Promise<unknown>) => Effect.sync(() => void closers.push(close)),
      preload,
      preloaded,
      probe,
      requireTables,
      query,
      records,
      readRecords
    } as const
  })
}) {}
