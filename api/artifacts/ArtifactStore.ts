/**
 * The artifact version the API serves: follows ARTIFACTS_DIR (usually the `current` symlink) to
 * the real version directory, reads its manifest and opens an in-memory DuckDB with one view per
 * `tables/<table>.parquet`. Parquet files are never written by the API.
 *
 * A missing directory, manifest or table is not a crash: services fail with CorpusUnavailable,
 * which each route family renders as its documented backend-unavailable answer.
 */
import { DuckDBInstance, type DuckDBValue } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Effect, Option } from "effect"
import { parquetFilesOf, sqlString } from "../../core/artifacts/files.ts"
import { decodeManifest, type Manifest } from "../../core/artifacts/manifest.ts"
import { Settings } from "../config.ts"
import { CorpusUnavailable } from "../domain/errors.ts"

export interface ServedVersion {
  readonly versionDir: string
  readonly manifest: Manifest
  readonly tables: ReadonlySet<string>
  readonly instance: DuckDBInstance
}

const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`

const openVersion = async (artifactsDir: string): Promise<ServedVersion> => {
  const versionDir = await fs.realpath(artifactsDir)
  const manifest = await Effect.runPromise(decodeManifest(JSON.parse(await fs.readFile(path.join(versionDir, "manifest.json"), "utf8"))))
  // Every Parquet file of the version is a view named by its file name: tables/applications.parquet
  // → applications, prosecution/examiner_statistics.parquet → examiner_statistics, …
  const files = await parquetFilesOf(versionDir)
  const instance = await DuckDBInstance.create(":memory:")
  const connection = await instance.connect()
  try {
    for (const file of files) {
      const table = path.basename(file, ".parquet")
      await connection.run(`CREATE VIEW ${quoteIdent(table)} AS SELECT * FROM read_parquet(${sqlString(path.join(versionDir, file))})`)
    }
  } finally {
    connection.closeSync()
  }
  return { versionDir, manifest, tables: new Set(files.map((f) => path.basename(f, ".parquet"))), instance }
}

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
    yield* Effect.addFinalizer(() => Effect.sync(() => Option.map(served, (s) => s.instance.closeSync())))

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
      Effect.flatMap(requireTables(...tables), (s) =>
        Effect.acquireUseRelease(
          Effect.promise(() => s.instance.connect()),
          (connection) =>
            Effect.tryPromise({
              try: async () => (await connection.runAndReadAll(sql, [...params])).getRowObjectsJS(),
              catch: (e) => new CorpusUnavailable({ message: `dataset query failed: ${e instanceof Error ? e.message : String(e)}` })
            }),
          (connection) => Effect.sync(() => connection.closeSync())
        )
      ).pipe(Effect.withSpan("ArtifactStore.query"))

    return {
      /** What /healthz reports. */
      status: () =>
        Option.match(served, {
          onNone: () => ({ loaded: false as const, reason: reason ?? "not loaded" }),
          onSome: (s) => ({ loaded: true as const, version: s.manifest.version, tables: [...s.tables].sort() })
        }),
      served: () => served,
      requireTables,
      query
    } as const
  })
}) {}
