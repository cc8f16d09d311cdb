/**
 * Vitest global setup: builds the bundled sample corpus into test artifacts once per run
 * (the runner's up-to-date check makes later runs nearly free) and hands the directory to
 * the test files through `inject("sampleArtifacts")`.
 */
import { Effect } from "effect"
import * as path from "node:path"
import type { TestProject } from "vitest/node"
import { CorpusStore } from "../../pipeline/corpus/CorpusStore.ts"
import { allStages } from "../../pipeline/stages/all.ts"
import { consoleProgress } from "../../pipeline/stages/progress.ts"
import { runPipeline } from "../../pipeline/stages/runner.ts"

export const sampleArtifactsRoot = path.resolve(".tmp/test-artifacts")

export default async function setup(project: TestProject) {
  const outcome = await Effect.runPromise(
    runPipeline({
      corpus: path.resolve("pipeline/sample-corpus"),
      artifactsRoot: sampleArtifactsRoot,
      stages: allStages,
      progress: consoleProgress((l) => process.stderr.write(`  ${l}\n`), 10_000),
      // Several versions are kept: concurrent runs (different checkouts of the code) must not delete the one another run serves.
      keepVersions: 3
    }).pipe(Effect.provide(CorpusStore.Default))
  )
  project.provide("sampleArtifacts", outcome.versionDir)
}

declare module "vitest" {
  export interface ProvidedContext {
    sampleArtifacts: string
  }
}
