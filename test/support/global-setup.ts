/**
 * Vitest global setup: starts the build of the bundled sample corpus (build-sample.ts, a child
 * process) and returns at once, handing the test files the file its outcome will be written to
 * (`inject("sampleBuild")`). A file that reads the sample awaits `sampleArtifacts()`; the others
 * run while the sample builds (the sequencer, sequencer.ts, gives them the workers first). The
 * build is about 7 minutes, most of it the encoder training on one thread, and the suite had
 * waited for it with the other core idle. Measured on two cores from a fresh clone (2026-11-30):
 * the suite took 1,091 s before and 1,031 s after in CI (940 s in a quiet local run); the two
 * cores gain less from running side by side than their count suggests. A run of only files that
 * do not read the sample no longer waits for the build at all (the teardown stops it).
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import type { TestProject } from "vitest/node"
import { sampleArtifactsRoot, settleSampleBuild } from "./sample-build-marker.ts"

export default function setup(project: TestProject) {
  fs.mkdirSync(sampleArtifactsRoot, { recursive: true })
  const marker = path.join(sampleArtifactsRoot, `.build-${process.pid}.json`)
  fs.rmSync(marker, { force: true })
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.resolve("test/support/build-sample.ts")], {
    env: { ...process.env, SAMPLE_BUILD_MARKER: marker },
    stdio: ["ignore", "inherit", "inherit"]
  })
  let tornDown = false
  // A child that dies before it writes (killed, out of memory) must not leave the files waiting.
  child.on("exit", (code, signal) => {
    if (tornDown || fs.existsSync(marker)) return
    settleSampleBuild(marker, { error: `the sample build exited with ${signal ?? code} before it finished` })
  })
  project.provide("sampleBuild", marker)
  return () => {
    tornDown = true
    // A run of only the files that do not read the sample ends before the build does.
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
    fs.rmSync(marker, { force: true })
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The file the sample build writes its outcome to (SampleBuildOutcome); read it through sampleArtifacts(). */
    sampleBuild: string
  }
}
