/**
 * Orders the test files so that those that do not read the sample build go first: they run while
 * the global setup builds it (global-setup.ts), and a worker only waits on the build once nothing
 * else is left. Within each group the longest run first, by the durations vitest keeps from
 * earlier runs where it has them; on a fresh clone (CI) the files of LONGEST first, then by size.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { BaseSequencer, type TestSpecification } from "vitest/node"

/**
 * Files that take minutes where the others take seconds (a fresh-clone CI run, 2026-11-30): the
 * distributed build of the sample, 255 s on its own and 285 s beside the sample build; the next
 * longest took 73 s. Started last, it alone would outlast the rest of the suite.
 */
const LONGEST = ["test/distributed/sample-build.test.ts"]

/** A file reads the sample build when it (or a helper it names) awaits sampleArtifacts(). */
const readsSample = (file: string) => fs.readFileSync(file, "utf8").includes("sampleArtifacts()")

export default class SampleLastSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const durationOf = (f: TestSpecification) => this.ctx.cache.getFileTestResults(`${f.project.name}:${path.relative(this.ctx.config.root, f.moduleId)}`)?.duration
    const known = (f: TestSpecification) => (LONGEST.includes(path.relative(this.ctx.config.root, f.moduleId)) ? 1 : 0)
    const sizeOf = (f: TestSpecification) => fs.statSync(f.moduleId).size
    const longestFirst = (group: TestSpecification[]) => {
      const timed = group.every((f) => durationOf(f) !== undefined)
      return [...group].sort((a, b) => (timed ? durationOf(b)! - durationOf(a)! : known(b) - known(a) || sizeOf(b) - sizeOf(a)))
    }
    return [...longestFirst(files.filter((f) => !readsSample(f.moduleId))), ...longestFirst(files.filter((f) => readsSample(f.moduleId)))]
  }
}
