/**
 * What the runner gives a stage about its earlier work and what it takes back: `previous` (the
 * stage's folder and record in `current`), outputs under a hidden folder kept out of dependents'
 * input hashes, and the recorded hashes of outputs the stage says it hard-linked.
 */
import { Effect, Exit } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { CorpusStore } from "../../pipeline/corpus/CorpusStore.ts"
import { silentProgress } from "../../pipeline/stages/progress.ts"
import { runPipeline } from "../../pipeline/stages/runner.ts"
import { type Stage, type StageContext, stagePromise } from "../../pipeline/stages/Stage.ts"
import { output } from "../../pipeline/stages/outputs.ts"

let tmp: string
let corpus: string
let root: string

beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "stage-previous-"))
  corpus = path.join(tmp, "corpus")
  root = path.join(tmp, "artifacts")
  await fs.mkdir(path.join(corpus, "docs"), { recursive: true })
  await fs.writeFile(path.join(corpus, "docs", "a.txt"), "alpha\n")
})
afterEach(() => fs.rm(tmp, { recursive: true, force: true }))

/**
 * A stage with a public output that depends on the corpus only and a private one (hidden folder)
 * named after its code version, like ingest's partitions; `seen` records what it was told.
 */
const producer = (seen: Array<Pick<StageContext, "previous" | "codeVersion">>, setting: string): Stage => ({
  name: "producer",
  sources: ["test/pipeline/stage-previous.test.ts"],
  settings: Effect.succeed(setting),
  dependsOn: [],
  readsCorpusFile: () => true,
  run: (ctx) =>
    stagePromise(async () => {
      seen.push({ previous: ctx.previous, codeVersion: ctx.codeVersion })
      await fs.writeFile(path.join(ctx.workDir, "public.txt"), "same table")
      const priv = `.state/${ctx.codeVersion}.txt`
      await fs.mkdir(path.join(ctx.workDir, ".state"), { recursive: true })
      await fs.writeFile(path.join(ctx.workDir, priv), "working state")
      return { outputs: ["public.txt", priv], rowCounts: {} }
    })
})

const consumer = (runs: string[]): Stage => ({
  name: "consumer",
  sources: ["test/pipeline/stage-previous.test.ts"],
  dependsOn: ["producer"],
  readsCorpusFile: () => false,
  run: (ctx) =>
    stagePromise(async () => {
      runs.push("consumer")
      await fs.writeFile(path.join(ctx.workDir, "consumed.txt"), await fs.readFile(ctx.outputOf(output("producer", "public.txt"))))
      return { outputs: ["consumed.txt"], rowCounts: {} }
    })
})

const ok = async (stages: Stage[]) => {
  const exit = await Effect.runPromiseExit(
    runPipeline({ corpus, artifactsRoot: root, stages, progress: silentProgress }).pipe(Effect.provide(CorpusStore.Default))
  )
  if (Exit.isFailure(exit)) throw new Error(String(exit.cause))
  return exit.value
}

describe("a stage's earlier work", () => {
  it("is shown to the stage as previous, and its private outputs do not make dependents rerun", async () => {
    const seen: Array<Pick<StageContext, "previous" | "codeVersion">> = []
    const runs: string[] = []
    const first = await ok([producer(seen, "v1"), consumer(runs)])
    expect(seen[0].previous).toBeUndefined()
    const second = await ok([producer(seen, "v2"), consumer(runs)])
    // The producer ran again under its new code version and saw the first version's record.
    expect(seen).toHaveLength(2)
    expect(seen[1].previous?.dir).toBe(first.versionDir)
    expect(seen[1].previous?.record.codeVersion).toBe(seen[0].codeVersion)
    expect(seen[1].codeVersion).not.toBe(seen[0].codeVersion)
    // Its public output is unchanged and only its private output's name changed: the consumer is reused.
    expect(runs).toEqual(["consumer"])
    expect(second.manifest.stages[1].reused).toBe(true)
    expect(second.manifest.stages[0].outputs.map((o) => o.path)).toContain(`.state/${seen[1].codeVersion}.txt`)
  })

  it("takes the recorded hashes of outputs the stage hard-linked from previous instead of reading them", async () => {
    const linker: Stage = {
      name: "linker",
      sources: ["test/pipeline/stage-previous.test.ts"],
      dependsOn: [],
      readsCorpusFile: () => true,
      run: (ctx) =>
        stagePromise(async () => {
          const rel = "kept.txt"
          const old = ctx.previous?.record.outputs.find((o) => o.path === rel)
          if (ctx.previous && old) {
            await fs.link(path.join(ctx.previous.dir, rel), path.join(ctx.workDir, rel))
            // A made-up hash: the runner must take it over, not compute the file's.
            return { outputs: [rel], rowCounts: {}, linkedOutputs: { [rel]: { ...old, sha256: "recorded" } } }
          }
          await fs.writeFile(path.join(ctx.workDir, rel), "kept across versions")
          return { outputs: [rel], rowCounts: {} }
        })
    }
    const first = await ok([linker])
    expect(first.manifest.stages[0].outputs[0].sha256).toMatch(/^[0-9a-f]{64}$/)
    await fs.writeFile(path.join(corpus, "docs", "b.txt"), "beta\n")
    const second = await ok([linker])
    expect(second.manifest.stages[0].outputs[0].sha256).toBe("recorded")
    expect((await fs.stat(path.join(second.versionDir, "kept.txt"))).ino).toBe((await fs.stat(path.join(first.versionDir, "kept.txt"))).ino)
  })
})
