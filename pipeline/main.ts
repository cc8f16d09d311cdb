/**
 * `make artifacts [CORPUS=uri] [ARTIFACTS=dir] [PUBLISH=s3://bucket/prefix]`: runs every stage and
 * publishes a new version (locally: `current` is switched; with PUBLISH the version is also
 * uploaded and the bucket's `current` pointer moved, for replicas started with ARTIFACTS_URL).
 * Exits non-zero (naming the stage and cause) only when a stage as a whole fails; bad records
 * are skipped and counted in the manifest.
 */
import { Effect } from "effect"
import { parseArgs } from "node:util"
import { publishVersion } from "../core/artifacts/published.ts"
import { makeS3Client, parseS3Uri, S3Settings } from "../core/artifacts/s3.ts"
import { CorpusStore } from "./corpus/CorpusStore.ts"
import { allStages } from "./stages/all.ts"
import { consoleProgress } from "./stages/progress.ts"
import { runPipeline } from "./stages/runner.ts"

const { values } = parseArgs({
  options: {
    corpus: { type: "string", default: process.env.CORPUS || "pipeline/sample-corpus" },
    artifacts: { type: "string", default: process.env.ARTIFACTS || "artifacts" },
    publish: { type: "string", default: process.env.PUBLISH || "" }
  }
})

// Checked before the build: a typo must not cost a night's build.
const publishTo = values.publish ? parseS3Uri(values.publish) : undefined
if (values.publish && !publishTo) {
  process.stderr.write(`PUBLISH must be s3://bucket/prefix, got ${values.publish}\n`)
  process.exit(2)
}

const publish = (versionDir: string) =>
  Effect.gen(function* () {
    if (!publishTo) return
    const client = makeS3Client(yield* S3Settings)
    const out = yield* Effect.tryPromise({
      try: () => publishVersion(client, publishTo, versionDir),
      catch: (e) => new Error(`publishing to ${publishTo.display} failed (the bucket's current pointer was not moved): ${e instanceof Error ? e.message : String(e)}`)
    })
    const mb = (n: number) => (n / 2 ** 20).toFixed(1)
    process.stderr.write(
      `published ${out.version} to ${publishTo.display}: ${out.files} files, ${out.uploaded} uploaded (${mb(out.uploadedBytes)} MB), ${mb(out.reusedBytes)} MB already there; current → ${out.version}\n`
    )
  })

const program = runPipeline({
  corpus: values.corpus!,
  artifactsRoot: values.artifacts!,
  stages: allStages,
  progress: consoleProgress()
}).pipe(
  Effect.tap((o) => Effect.sync(() => process.stdout.write(`${o.versionDir}\n`))),
  Effect.tap((o) => publish(o.versionDir)),
  Effect.provide(CorpusStore.Default)
)

Effect.runPromiseExit(program).then((exit) => {
  if (exit._tag === "Failure") {
    const err = exit.cause._tag === "Fail" ? exit.cause.error : exit.cause
    process.stderr.write(`artifacts build failed: ${err instanceof Error ? err.message : String(err)}\n`)
    process.exit(1)
  }
})
