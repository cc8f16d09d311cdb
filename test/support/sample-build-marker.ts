/** Where the sample build of a test run lives, and what its child process leaves when done (build-sample.ts). */
import * as path from "node:path"

export const sampleArtifactsRoot = path.resolve(".tmp/test-artifacts")

export type SampleBuildOutcome = { readonly versionDir: string } | { readonly error: string }
