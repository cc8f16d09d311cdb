/**
 * `make artifacts [CORPUS=uri] [ARTIFACTS=dir]`: runs every stage and publishes a new version.
 * Exits non-zero (naming the stage and cause) only when a stage as a whole fails; bad records
 * are skipped and counted in the manifest.
 */
import { Effect } from "effect"
import { parseArgs } from "node:util"
import { CorpusStore } from "./corpus/CorpusStore.ts"
import { allStages } from "./stages/all.ts"
import { consoleProgress } from "./stages/progress.ts"
import { runPipeline } from "./stages/runner.ts"

const { values } = parseArgs({
  options: {
    corpus: { type: "string", default: process.env.CORPUS || "pipeline/sample-corpus" },
    artifacts: { type: "string", default: process.env.ARTIFACTS || "artifacts" }
  }
})

const program = runPipeline({
  corpus: values.corpus!,
  artifactsRoot: values.artifacts!,
  stages: allStages,
  progress: consoleProgress()
}).pipe(
  Effect.tap((o) => Effect.sync(() => process.stdout.write(`${o.versionDir}\n`))),
  Effect.provide(CorpusStore.Default)
)

Effect.runPromiseExit(program).then((exit) => {
  if (exit._tag === "Failure") {
    const err = exit.cause._tag === "Fail" ? exit.cause.error : exit.cause
    process.stderr.write(`artifacts build failed: ${err instanceof Error ? err.message : String(err)}\n`)
    process.exit(1)
  }
})
