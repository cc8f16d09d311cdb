/**
 * The sample build behind the test suite, run by the global setup as a child process so that the
 * test files that do not read the sample run beside it (the encoder trains on one thread, the
 * other core would idle for minutes). Writes `SAMPLE_BUILD_MARKER` once done: the published
 * version's folder, or why the build failed. The runner's up-to-date check makes a later run
 * with the same code and corpus nearly free.
 */
import { Effect } from "effect"
import * as path from "node:path"
import { CorpusStore } from "../../pipeline/corpus/CorpusStore.ts"
import { allStages } from "../../pipeline/stages/all.ts"
import { consoleProgress } from "../../pipeline/stages/progress.ts"
import { runPipeline } from "../../pipeline/stages/runner.ts"
import { sampleArtifactsRoot, settleSampleBuild } from "./sample-build-marker.ts"

const marker = process.env.SAMPLE_BUILD_MARKER
if (!marker) throw new Error("SAMPLE_BUILD_MARKER: the file to write the outcome to is not set")

try {
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
  settleSampleBuild(marker, { versionDir: outcome.versionDir })
} catch (e) {
  settleSampleBuild(marker, { error: e instanceof Error ? e.message : String(e) })
  process.exitCode = 1
}
