/**
 * Runs the stages into a new artifact version.
 *
 * - A build is identified by its build key (corpus fingerprints + every stage's code version).
 *   When `current` already has that key there is nothing to do.
 * - Work happens in `.partial-<buildKey>/`; each finished stage leaves a record in
 *   `stages/<name>.json` there, so a crashed run resumes from the first unfinished stage.
 * - A stage whose code version and input hash equal those of the same stage in `current`, or of
 *   a stage an interrupted build of other code finished, takes its outputs over (hard links)
 *   instead of running; a successful build removes the other interrupted builds' folders.
 * - A stage that does run sees its own folder and record in `current` (`previous`), so it can
 *   take over the parts of its earlier work that still apply (ingest: unchanged objects).
 * - Only after the manifest validates is the directory renamed to its version name and
 *   `current` switched to it.
 */
import { type ConfigError, Data, Effect, Either } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { decodeManifest, type Manifest, type StageRecord } from "../../core/artifacts/manifest.ts"
import { CorpusStore, parseCorpusLocation, type CorpusObject } from "../corpus/CorpusStore.ts"
import { buildLock, BuildLockError } from "../artifacts/build-lock.ts"
import { undeclaredRead } from "./outputs.ts"
import { writeCatalog } from "../../core/artifacts/catalog.ts"
import { CORPUS_FINGERPRINTS, openFingerprintCache } from "../corpus/fingerprint-cache.ts"
import { currentVersionDir, partialDirOf, pruneVersions, readManifest, switchCurrent } from "../../core/artifacts/versions.ts"
import { codeVersionOf, sha256, sha256OfFile } from "./fingerprint.ts"
import { linkFile } from "../../core/artifacts/files.ts"
import type { Progress } from "./progress.ts"
import { isPrivateOutput, SkipTally, type Stage, type StageError, type StageResult } from "./Stage.ts"

export interface PipelineOptions {
  readonly corpus: string
  readonly artifactsRoot: string
  readonly stages: ReadonlyArray<Stage>
  readonly progress: Progress
  /** Complete versions kept besides the current one. */
  readonly keepVersions?: number
}

export interface PipelineOutcome {
  readonly version: string
  readonly versionDir: string
  readonly upToDate: boolean
  readonly manifest: Manifest
}

/** A stage failed: nothing was published, and the next run resumes from that stage. */
export class StageFailed extends Data.TaggedError("StageFailed")<{ readonly stage: string; readonly message: string; readonly cause?: unknown }> {
  static of(stage: string, e: StageError | ConfigError.ConfigError) {
    return new StageFailed({ stage, message: `stage ${stage} failed: ${e.message}`, cause: e._tag === "StageError" ? e.cause : e })
  }
}

/** The finished version does not hold together (its manifest does not decode, or an output is gone): not published. */
export class VersionInvalid extends Data.TaggedError("VersionInvalid")<{ readonly message: string }> {}

const exists = (p: string) => fs.stat(p).then(() => true, () => false)

const versionName = (buildKey: string, at: Date) =>
  `v${at.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")}-${buildKey.slice(0, 8)}`

const outputsIntact = async (dir: string, rec: StageRecord) => {
  for (const o of rec.outputs) {
    const st = await fs.stat(path.join(dir, o.path)).catch(() => undefined)
    if (!st || st.size !== o.bytes) return false
  }
  return true
}

const linkOutputs = async (fromDir: string, toDir: string, rec: StageRecord) => {
  for (const o of rec.outputs) await linkFile(path.join(fromDir, o.path), path.join(toDir, o.path))
}

/** Work folders of interrupted builds other than this one. */
const partialDirsOf = async (root: string, work: string) =>
  (await fs.readdir(root, { withFileTypes: true }))
    .filter((e) => e.isDirectory() && e.name.startsWith(".partial-"))
    .map((e) => path.join(root, e.name))
    .filter((d) => d !== work)

/** A finished run of this stage, with the same code and inputs, whose outputs are intact: in `current` first, then in interrupted builds. */
const findDonor = async (
  stage: string,
  matches: (r: StageRecord | undefined) => r is StageRecord,
  currentDir: string | undefined,
  currentManifest: Manifest | undefined,
  partials: ReadonlyArray<string>
): Promise<{ dir: string; record: StageRecord; label: string } | undefined> => {
  const previous = currentManifest?.stages.find((s) => s.name === stage)
  if (currentDir && matches(previous) && (await outputsIntact(currentDir, previous))) return { dir: currentDir, record: previous, label: currentManifest!.version }
  for (const dir of partials) {
    const marker = await fs.readFile(path.join(dir, "stages", `${stage}.json`), "utf8").then((t) => JSON.parse(t) as StageRecord, () => undefined)
    if (matches(marker) && (await outputsIntact(dir, marker))) return { dir, record: marker, label: `the interrupted build ${path.basename(dir)}` }
  }
  return undefined
}

const recordOf = async (
  stage: Stage,
  codeVersion: string,
  inputHash: string,
  inputs: ReadonlyArray<string>,
  workDir: string,
  result: StageResult,
  startedAt: Date
): Promise<StageRecord> => {
  const outputs = []
  for (const rel of result.outputs) {
    const full = path.join(workDir, rel)
    const st = await fs.stat(full)
    const linked = result.linkedOutputs?.[rel]
    outputs.push({
      path: rel,
      sha256: linked && linked.bytes === st.size ? linked.sha256 : await sha256OfFile(full),
      bytes: st.size,
      rows: result.rowCounts[path.basename(rel).replace(/\.parquet$/, "")],
      contentHash: result.contentHashes?.[rel]
    })
  }
  const skipped = result.skipped ?? new SkipTally()
  const finishedAt = new Date()
  return {
    name: stage.name,
    codeVersion,
    inputHash,
    inputs: [...inputs],
    outputs,
    rowCounts: { ...result.rowCounts },
    skipped: { count: skipped.count, byReason: { ...skipped.byReason }, samples: [...skipped.samples] },
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    seconds: (finishedAt.getTime() - startedAt.getTime()) / 1000,
    reused: false,
    notes: result.notes ? [...result.notes] : undefined
  }
}

/** Runs the stages under the artifacts folder's build lock (concurrent builds wait their turn). */
export const runPipeline = (opts: PipelineOptions) =>
  // The build runs in the caller's runtime (its services, Config provider, logger): a stage reads
  // INGEST_WORKERS, ENCODER … from whatever provider the caller set, not only the environment.
  Effect.scoped(
    Effect.gen(function* () {
      const root = path.resolve(opts.artifactsRoot)
      yield* Effect.tryPromise({
        try: () => fs.mkdir(root, { recursive: true }),
        catch: (e) => new BuildLockError({ message: `cannot create the artifacts folder ${root}: ${e instanceof Error ? e.message : String(e)}` })
      })
      let told = false
      yield* buildLock(root, (holder) => {
        if (!told) opts.progress.info(`waiting for the build running in process ${holder}`)
        told = true
      })
      return yield* build(opts)
    })
  )

const build = (opts: PipelineOptions) =>
  Effect.gen(function* () {
    const store = yield* CorpusStore
    const location = parseCorpusLocation(opts.corpus)
    const root = path.resolve(opts.artifactsRoot)
    // A local corpus's fingerprints are kept beside the versions: a night hashes only what changed.
    const fingerprints = location._tag === "Local" ? yield* Effect.promise(() => openFingerprintCache(path.join(root, CORPUS_FINGERPRINTS), location.root)) : undefined
    const files = yield* store.list(location, fingerprints?.fingerprintOf)
    if (fingerprints) yield* Effect.promise(() => fingerprints.save())
    // Settings are read in the caller's runtime, so a Config provider it sets (tests, benchmarks) counts.
    const settings = yield* Effect.forEach(opts.stages, (s) =>
      s.settings ? s.settings.pipe(Effect.mapError((e) => StageFailed.of(s.name, e))) : Effect.succeed(undefined)
    )
    const codeVersions = yield* Effect.promise(() =>
      Promise.all(opts.stages.map(async (s, i) => (settings[i] !== undefined ? sha256(`${await codeVersionOf(s.sources)}|${settings[i]}`).slice(0, 16) : codeVersionOf(s.sources))))
    )
    const mustRerun = yield* Effect.forEach(opts.stages, (s) => s.rerun ?? Effect.succeed(false))
    // A stage told to run again (RETRAIN=1) makes a build of its own, not "up to date".
    const rerun = opts.stages.filter((_, i) => mustRerun[i]).map((s) => s.name)
    const buildKey = sha256(
      JSON.stringify({
        files: files.map((f) => [f.path, f.fingerprint]),
        code: opts.stages.map((s, i) => [s.name, codeVersions[i]]),
        ...(rerun.length ? { rerun } : {})
      })
    ).slice(0, 16)

    yield* Effect.promise(() => fs.mkdir(root, { recursive: true }))
    const currentDir = yield* Effect.promise(() => currentVersionDir(root))
    const currentManifest = currentDir ? yield* Effect.promise(() => readManifest(currentDir)) : undefined
    if (currentDir && currentManifest?.buildKey === buildKey) {
      opts.progress.info(`artifacts ${currentManifest.version} are up to date with the corpus and the code`)
      return { version: currentManifest.version, versionDir: currentDir, upToDate: true, manifest: currentManifest } satisfies PipelineOutcome
    }

    const work = partialDirOf(root, buildKey)
    yield* Effect.promise(() => fs.mkdir(path.join(work, "stages"), { recursive: true }))
    const otherPartials = yield* Effect.promise(() => partialDirsOf(root, work))
    const records = new Map<string, StageRecord>()

    for (const [i, stage] of opts.stages.entries()) {
      const codeVersion = codeVersions[i]
      const inputs: CorpusObject[] = files.filter((f) => stage.readsCorpusFile(f.path))
      const deps = stage.dependsOn.map((d) => {
        const r = records.get(d)
        if (!r) throw new Error(`stage ${stage.name} depends on ${d}, which is not an earlier stage`)
        const read = stage.readsOutput ?? (() => true)
        return [d, r.outputs.filter((o) => !isPrivateOutput(o.path) && read(o.path)).map((o) => [o.path, o.sha256])]
      })
      const inputHash = sha256(JSON.stringify({ corpus: inputs.map((f) => [f.path, f.fingerprint]), deps })).slice(0, 16)
      const matches = (r: StageRecord | undefined): r is StageRecord =>
        !!r && r.codeVersion === codeVersion && r.inputHash === inputHash
      // A stage told to run again resumes its own build's work but takes nothing over from others.
      const mustRun = mustRerun[i]
      opts.progress.stage(stage.name)

      // 1. Resume: finished in an earlier, interrupted run of this same build.
      const markerPath = path.join(work, "stages", `${stage.name}.json`)
      const marker = yield* Effect.promise(async () =>
        (await exists(markerPath)) ? (JSON.parse(await fs.readFile(markerPath, "utf8")) as StageRecord) : undefined
      )
      if (matches(marker) && (yield* Effect.promise(() => outputsIntact(work, marker)))) {
        records.set(stage.name, marker)
        opts.progress.done(`resumed: finished by an earlier interrupted run`)
        continue
      }
      // 2. Reuse: same code and inputs as the stage in the current version, or as a stage an
      //    interrupted build of other code finished (a fix to a late stage after a crash must
      //    not redo the hours of ingest before it).
      const donor = mustRun ? undefined : yield* Effect.promise(() => findDonor(stage.name, matches, currentDir, currentManifest, otherPartials))
      if (donor) {
        yield* Effect.promise(() => linkOutputs(donor.dir, work, donor.record))
        const rec = { ...donor.record, reused: true }
        yield* Effect.promise(() => fs.writeFile(markerPath, JSON.stringify(rec)))
        records.set(stage.name, rec)
        opts.progress.done(`reused from ${donor.label} (inputs and code unchanged)`)
        continue
      }
      // 3. Run.
      const startedAt = new Date()
      const previousRecord = currentManifest?.stages.find((s) => s.name === stage.name)
      const result = yield* stage
        .run({
          workDir: work,
          corpusFiles: inputs,
          openCorpusFile: (p) => store.file(location, p),
          outputOf: (handle) => {
            if (handle.stage !== stage.name && !stage.dependsOn.includes(handle.stage)) throw undeclaredRead(stage.name, handle)
            return path.join(work, handle.path)
          },
          progress: opts.progress,
          codeVersion,
          corpusLocation: location,
          previous: currentDir && previousRecord ? { dir: currentDir, record: previousRecord } : undefined,
          interrupted: otherPartials
        })
        .pipe(Effect.mapError((e) => StageFailed.of(stage.name, e)))
      const rec = yield* Effect.promise(() =>
        recordOf(stage, codeVersion, inputHash, inputs.map((f) => f.path), work, result, startedAt)
      )
      yield* Effect.promise(() => fs.writeFile(markerPath, JSON.stringify(rec)))
      records.set(stage.name, rec)
      const skippedNote = rec.skipped.count ? `, ${rec.skipped.count} records skipped` : ""
      opts.progress.done(`${Object.entries(rec.rowCounts).map(([t, n]) => `${t} ${n}`).join(", ") || "ok"}${skippedNote}`)
    }

    const createdAt = new Date()
    const version = versionName(buildKey, createdAt)
    const manifest: Manifest = {
      formatVersion: 1,
      version,
      buildKey,
      createdAt: createdAt.toISOString(),
      corpus: { location: location.display, files: files.map((f) => ({ path: f.path, bytes: f.size, fingerprint: f.fingerprint })) },
      stages: opts.stages.map((s) => records.get(s.name)!)
    }
    // Validate before publishing: the manifest decodes and every output it lists is present.
    const decoded = yield* Effect.either(decodeManifest(manifest))
    if (Either.isLeft(decoded)) return yield* Effect.fail(new VersionInvalid({ message: `manifest does not validate: ${decoded.left.message}` }))
    for (const s of manifest.stages) {
      if (!(yield* Effect.promise(() => outputsIntact(work, s)))) {
        return yield* Effect.fail(new VersionInvalid({ message: `stage ${s.name}: an output is missing or changed size; not publishing` }))
      }
    }
    yield* Effect.promise(() => fs.writeFile(path.join(work, "manifest.json"), JSON.stringify(manifest, null, 2)))
    const versionDir = path.join(root, version)
    yield* Effect.promise(() => fs.rename(work, versionDir))
    yield* Effect.promise(() => writeCatalog(versionDir))
    yield* Effect.promise(() => switchCurrent(root, version))
    yield* Effect.promise(() => pruneVersions(root, (opts.keepVersions ?? 2) + 1))
    // What interrupted builds of other code left behind was either taken over above or is stale.
    for (const dir of otherPartials) yield* Effect.promise(() => fs.rm(dir, { recursive: true, force: true }))
    opts.progress.info(`published ${version}; ${path.join(opts.artifactsRoot, "current")} now points at it`)
    return { version, versionDir, upToDate: false, manifest } satisfies PipelineOutcome
  })
