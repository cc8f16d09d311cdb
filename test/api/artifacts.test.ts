/** The served artifact version: follows `current`, opens the Parquet tables read-only in DuckDB, reports readiness. */
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ArtifactStore } from "../../api/artifacts/ArtifactStore.ts"
import { Settings } from "../../api/config.ts"
import { settingsWith } from "../../api/server.ts"
import { call, startTestServer, tempDir, type TestServer } from "./support.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const versionDir = await sampleArtifacts()
let linkDir: string
let server: TestServer

beforeAll(async () => {
  // A `current` symlink of our own, as `make artifacts` leaves it.
  linkDir = tempDir("artifacts")
  fs.symlinkSync(versionDir, path.join(linkDir, "current"))
  server = await startTestServer({ artifactsDir: path.join(linkDir, "current") })
})
afterAll(() => server.close())

const withStore = <A, E>(artifactsDir: string, f: (store: ArtifactStore) => Effect.Effect<A, E>) =>
  Effect.runPromise(
    Effect.flatMap(ArtifactStore, f).pipe(
      Effect.provide(ArtifactStore.Default.pipe(Layer.provide(Settings.layer(settingsWith({ artifactsDir, logRequests: false }))))),
      Effect.scoped
    )
  )

describe("ArtifactStore", () => {
  it("/healthz is 200 once the version is loaded and names it", async () => {
    const r = await call(server.url, "GET", "/healthz")
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({ status: "ok", artifacts: { version: path.basename(versionDir) } })
  })

  it("answers parameterised queries over the Parquet tables through the symlink", async () => {
    const rows = await withStore(path.join(linkDir, "current"), (store) =>
      store.query("SELECT count(*)::INTEGER AS n FROM applications WHERE app_num <> $1", ["0"], ["applications"])
    )
    expect(rows[0].n).toBeGreaterThan(0)
  })

  it("a missing table or version fails with CorpusUnavailable, not a crash", async () => {
    const missingTable = await withStore(versionDir, (store) => Effect.flip(store.requireTables("no_such_table")))
    expect(missingTable._tag).toBe("CorpusUnavailable")
    const missingVersion = await withStore(path.join(linkDir, "nothing"), (store) => Effect.flip(store.query("SELECT 1")))
    expect(missingVersion._tag).toBe("CorpusUnavailable")
    expect(missingVersion.message).toContain("cannot be opened")
  })
})
