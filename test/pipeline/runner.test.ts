/**
 * The version mechanism: atomic publication, reuse of unchanged stages, resume after a crash,
 * and an unreadable corpus location named in the error.
 */
import { Config, ConfigProvider, Effect, Exit } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { CorpusStore } from "../../pipeline/corpus/CorpusStore.ts"
import { silentProgress } from "../../pipeline/stages/progress.ts"
import { runPipeline } from "../../pipeline/stages/runner.ts"
import { type Stage, stagePromise } from "../../pipeline/stages/Stage.ts"
import { output } from "../../pipeline/stages/outputs.ts"

let tmp: string
let corpus: string
let root: string

beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "runner-"))
  corpus = path.join(tmp, "corpus")
  root = path.join(tmp, "artifacts")
  await fs.mkdir(path.join(corpus, "docs"), { recursive: true })
  await fs.writeFile(path.join(corpus, "docs", "a.txt"), "alpha\nbeta\n")
  await fs.writeFile(path.join(corpus, "docs", "b.txt"), "gamma\n")
})
afterEach(() => fs.rm(tmp, { recursive: true, force: true }))

/** A stage that counts lines of every corpus file; `runs` records each real execution. */
const lineCounter = (runs: string[], opts: { crash?: boolean } = {}): Stage => ({
  name: "lines",
  sources: ["test/pipeline/runner.test.ts"],
  dependsOn: [],
  readsCorpusFile: (p) => p.endsWith(".txt"),
  run: (ctx) =>
    stagePromise(async () => {
      runs.push("lines")
      let n = 0
      for (const f of ctx.corpusFiles) {
        for await (const chunk of ctx.openCorpusFile(f.path).open()) n += Buffer.from(chunk).toString().split("\n").length - 1
      }
      await fs.writeFile(path.join(ctx.workDir, "lines.txt"), String(n))
      return { outputs: ["lines.txt"], rowCounts: { lines: n } }
    })
})

const doubler = (runs: string[], opts: { crash?: boolean } = {}): Stage => ({
  name: "double",
  sources: ["test/pipeline/runner.test.ts"],
  dependsOn: ["lines"],
  readsCorpusFile: () => false,
  run: (ctx) =>
    stagePromise(async () => {
      runs.push("double")
      if (opts.crash) throw new Error("simulated crash")
      const n = Number(await fs.readFile(ctx.outputOf(output("lines", "lines.txt")), "utf8"))
      await fs.writeFile(path.join(ctx.workDir, "double.txt"), String(2 * n))
      return { outputs: ["double.txt"], rowCounts: { double: 2 * n } }
    })
})

const build = (stages: Stage[]) =>
  Effect.runPromiseExit(
    runPipeline({ corpus, artifactsRoot: root, stages, progress: silentProgress }).pipe(Effect.provide(CorpusStore.Default))
  )

const ok = async (stages: Stage[]) => {
  const exit = await build(stages)
  if (Exit.isFailure(exit)) throw new Error(String(exit.cause))
  return exit.value
}

describe("artifact versions", () => {
  it("publishes a version with a validated manifest and points current at it", async () => {
    const runs: string[] = []
    const out = await ok([lineCounter(runs), doubler(runs)])
    expect(await fs.readFile(path.join(root, "current", "double.txt"), "utf8")).toBe("6")
    const manifest = JSON.parse(await fs.readFile(path.join(root, "current", "manifest.json"), "utf8"))
    expect(manifest.version).toBe(out.version)
    expect(manifest.stages.map((s: { name: string }) => s.name)).toEqual(["lines", "double"])
    expect(manifest.stages[0].rowCounts).toEqual({ lines: 3 })
    expect(manifest.stages[0].inputs).toEqual(["docs/a.txt", "docs/b.txt"])
    expect(manifest.corpus.files).toHaveLength(2)
    expect(await fs.realpath(path.join(root, "current"))).toBe(out.versionDir)
    expect((await fs.readdir(root)).filter((n) => n.startsWith(".partial"))).toEqual([])
  })

  it("does nothing when corpus and code are unchanged", async () => {
    const runs: string[] = []
    const first = await ok([lineCounter(runs), doubler(runs)])
    const second = await ok([lineCounter(runs), doubler(runs)])
    expect(second.upToDate).toBe(true)
    expect(second.version).toBe(first.version)
    expect(runs).toEqual(["lines", "double"])
  })

  it("reruns only stages whose inputs changed and reuses the others", async () => {
    const runs: string[] = []
    await ok([lineCounter(runs), doubler(runs)])
    // A file the first stage does not read changes the build key but not that stage's inputs.
    await fs.writeFile(path.join(corpus, "docs", "c.md"), "ignored")
    runs.length = 0
    const out = await ok([lineCounter(runs), doubler(runs)])
    expect(out.upToDate).toBe(false)
    expect(runs).toEqual([])
    expect(out.manifest.stages.every((s) => s.reused)).toBe(true)
    await fs.appendFile(path.join(corpus, "docs", "b.txt"), "delta\n")
    const third = await ok([lineCounter(runs), doubler(runs)])
    expect(runs).toEqual(["lines", "double"])
    expect(await fs.readFile(path.join(third.versionDir, "double.txt"), "utf8")).toBe("8")
  })

  it("leaves current untouched when a stage crashes, then resumes from the unfinished stage", async () => {
    const runs: string[] = []
    const first = await ok([lineCounter(runs), doubler(runs)])
    await fs.appendFile(path.join(corpus, "docs", "a.txt"), "more\n")
    runs.length = 0
    const crashed = await build([lineCounter(runs), doubler(runs, { crash: true })])
    expect(Exit.isFailure(crashed)).toBe(true)
    expect(String(Exit.isFailure(crashed) && crashed.cause)).toContain("stage double failed")
    expect(await fs.realpath(path.join(root, "current"))).toBe(first.versionDir)
    expect(await fs.readFile(path.join(root, "current", "double.txt"), "utf8")).toBe("6")
    runs.length = 0
    const resumed = await ok([lineCounter(runs), doubler(runs)])
    expect(runs).toEqual(["double"])
    expect(await fs.readFile(path.join(root, "current", "double.txt"), "utf8")).toBe("8")
    expect(resumed.versionDir).not.toBe(first.versionDir)
  })

  it("after a crash and a fix to the crashed stage's code, takes the finished stages over from the interrupted build", async () => {
    // The crashed stage's code lives in a file of its own, so fixing it changes the build key.
    const code = path.join(".tmp", `runner-code-${process.pid}-${Date.now()}.txt`)
    await fs.mkdir(".tmp", { recursive: true })
    await fs.writeFile(code, "buggy")
    try {
      const runs: string[] = []
      const fixable = (crash: boolean): Stage => ({ ...doubler(runs, { crash }), sources: ["test/pipeline/runner.test.ts", code] })
      const crashed = await build([lineCounter(runs), fixable(true)])
      expect(Exit.isFailure(crashed)).toBe(true)
      expect((await fs.readdir(root)).filter((n) => n.startsWith(".partial"))).toHaveLength(1)
      await fs.writeFile(code, "fixed")
      runs.length = 0
      const out = await ok([lineCounter(runs), fixable(false)])
      expect(runs).toEqual(["double"])
      expect(out.manifest.stages.find((s) => s.name === "lines")?.reused).toBe(true)
      expect(await fs.readFile(path.join(root, "current", "double.txt"), "utf8")).toBe("6")
      // The interrupted build's folder is gone once a build has been published.
      expect((await fs.readdir(root)).filter((n) => n.startsWith(".partial"))).toEqual([])
    } finally {
      await fs.rm(code, { force: true })
    }
  })

  it("names an unreadable corpus location", async () => {
    const exit = await Effect.runPromiseExit(
      runPipeline({ corpus: path.join(tmp, "nowhere"), artifactsRoot: root, stages: [], progress: silentProgress }).pipe(
        Effect.provide(CorpusStore.Default)
      )
    )
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(Exit.isFailure(exit) && exit.cause)).toContain(path.join(tmp, "nowhere"))
  })

  it("refuses a read of an output of a stage the reader does not depend on (its input hash would miss it)", async () => {
    const runs: string[] = []
    const reader: Stage = { ...doubler(runs), name: "undeclared", dependsOn: [] }
    const exit = await build([lineCounter(runs), reader])
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(Exit.isFailure(exit) && exit.cause)).toContain(`stage undeclared reads lines.txt of stage lines without depending on it`)
    await expect(fs.readlink(path.join(root, "current"))).rejects.toThrow()
  })

  it("fails on a setting that does not parse before any stage runs, even when the build is up to date", async () => {
    const runs: string[] = []
    const before = await ok([lineCounter(runs), doubler(runs)])
    const setting = Config.integer("RUNNER_TEST_SETTING").pipe(Config.validate({ message: "RUNNER_TEST_SETTING: must be at least 1", validation: (n) => n >= 1 }))
    const configured: Stage = { ...doubler(runs), settings: Effect.map(setting, String) }
    const exit = await Effect.runPromiseExit(
      runPipeline({ corpus, artifactsRoot: root, stages: [lineCounter(runs), configured], progress: silentProgress }).pipe(
        Effect.provide(CorpusStore.Default),
        Effect.withConfigProvider(ConfigProvider.fromJson({ RUNNER_TEST_SETTING: "0" }))
      )
    )
    expect(Exit.isFailure(exit)).toBe(true)
    expect(String(Exit.isFailure(exit) && exit.cause)).toContain("stage double failed: RUNNER_TEST_SETTING: must be at least 1")
    expect(runs).toEqual(["lines", "double"])
    expect(await fs.readlink(path.join(root, "current"))).toBe(before.version)
  })
})
