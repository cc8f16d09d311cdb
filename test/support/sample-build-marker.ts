/** Where the sample build of a test run lives, and what its child process leaves when done (build-sample.ts). */
import * as fs from "node:fs"
import * as path from "node:path"

export const sampleArtifactsRoot = path.resolve(".tmp/test-artifacts")

export type SampleBuildOutcome = { readonly versionDir: string } | { readonly error: string }

/** Writes the outcome whole and renames it into place, so a reader never sees half of it. */
export const settleSampleBuild = (marker: string, outcome: SampleBuildOutcome) => {
  fs.writeFileSync(`${marker}.partial`, JSON.stringify(outcome))
  fs.renameSync(`${marker}.partial`, marker)
}
