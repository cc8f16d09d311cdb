/** A PatentIntelService over a given artifact version, with the real ArtifactStore. */
import { Effect, Layer, ManagedRuntime } from "effect"
import { ArtifactStore } from "../../api/artifacts/ArtifactStore.ts"
import { Settings } from "../../api/config.ts"
import { PatentIntelService } from "../../api/patent-intel/PatentIntelService.ts"
import { settingsWith } from "../../api/server.ts"

export const patentIntelRuntime = (artifactsDir: string) => {
  const runtime = ManagedRuntime.make(
    Layer.provideMerge(PatentIntelService.Default, ArtifactStore.Default).pipe(
      Layer.provide(Settings.layer(settingsWith({ artifactsDir, logRequests: false })))
    )
  )
  return {
    /** Runs a service call and returns its body. */
    run: <A, E>(f: (s: PatentIntelService) => Effect.Effect<A, E>) => runtime.runPromise(Effect.flatMap(PatentIntelService, f)),
    /** Runs a service call that must fail and returns the failure. */
    fail: <A, E>(f: (s: PatentIntelService) => Effect.Effect<A, E>) => runtime.runPromise(Effect.flip(Effect.flatMap(PatentIntelService, f))),
    /** A direct query against the same tables, to check the service against them. */
    sql: (sql: string, params: ReadonlyArray<string | number> = []) =>
      runtime.runPromise(Effect.flatMap(ArtifactStore, (store) => store.query(sql, params))),
    dispose: () => runtime.dispose()
  }
}
