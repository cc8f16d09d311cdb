/**
 * A version directory holding the sample build's tables plus the guidance stage's outputs, and
 * a GuidanceService runtime over it. Until the stage is registered in the pipeline the sample
 * build lacks guidance/, so the stage is run here into a temp copy of the tables.
 */
import { Effect, Layer, ManagedRuntime } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { ArtifactStore } from "../../api/artifacts/ArtifactStore.ts"
import { Settings } from "../../api/config.ts"
import { GuidanceService } from "../../api/guidance/GuidanceService.ts"
import { settingsWith } from "../../api/server.ts"
import { guidanceStage } from "../../pipeline/guidance/stage.ts"
import type { StageContext, StageResult } from "../../pipeline/stages/Stage.ts"

const quietProgress = { stage: () => {}, tick: () => {}, info: () => {}, done: () => {} }

/** Runs the guidance stage into `workDir` (which must hold tables/). */
export const runGuidanceStage = (workDir: string): Promise<StageResult> => {
  const ctx: StageContext = {
    workDir,
    corpusFiles: [],
    openCorpusFile: () => {
      throw new Error("the guidance stage reads no corpus files")
    },
    outputOf: (o) => path.join(workDir, o.path),
    progress: quietProgress
  }
  return Effect.runPromise(guidanceStage.run(ctx))
}

/** A temp version: manifest and tables of `sampleDir`, plus a fresh guidance stage run. */
export const guidanceVersion = async (sampleDir: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "guidance-version-"))
  fs.copyFileSync(path.join(sampleDir, "manifest.json"), path.join(dir, "manifest.json"))
  fs.cpSync(path.join(sampleDir, "tables"), path.join(dir, "tables"), { recursive: true })
  const result = await runGuidanceStage(dir)
  return { dir, result, remove: () => fs.rmSync(dir, { recursive: true, force: true }) }
}

export const guidanceRuntime = (artifactsDir: string) => {
  const runtime = ManagedRuntime.make(
    Layer.provideMerge(GuidanceService.Default, ArtifactStore.Default).pipe(
      Layer.provide(Settings.layer(settingsWith({ artifactsDir, logRequests: false })))
    )
  )
  return {
    run: <A, E>(f: (s: GuidanceService) => Effect.Effect<A, E>) => runtime.runPromise(Effect.flatMap(GuidanceService, f)),
    fail: <A, E>(f: (s: GuidanceService) => Effect.Effect<A, E>) => runtime.runPromise(Effect.flip(Effect.flatMap(GuidanceService, f))),
    sql: (sql: string, params: ReadonlyArray<string | number> = []) =>
      runtime.runPromise(Effect.flatMap(ArtifactStore, (store) => store.query(sql, params))),
    dispose: () => runtime.dispose()
  }
}
