/**
 * The ingest stage: every corpus object through its reader into its raw partition, then merged
 * into the published Parquet tables under `tables/`.
 *
 * - Objects are read by a pool of worker threads (INGEST_WORKERS, default one per core), each
 *   into its own partition (partition.ts); the merge orders rows by (object's place in the
 *   corpus, row's place in the object), so the tables do not depend on the number of workers.
 * - An object whose partition already exists for this code version and fingerprint is not read
 *   again: from this build's own folder (a crashed build resumes) or hard-linked from the current
 *   version (a nightly build reads only new and changed objects). A deleted object's partition
 *   is simply not merged.
 * - A bad record is skipped and counted (file, position, reason); a file that cannot be read at
 *   all is reported the same way with position "file" and the build goes on with the rest. The
 *   tally of a reused partition comes with it, so the manifest counts what a full read counts.
 */
import { ConfigError, Effect, Option } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import type { StageOutput } from "../../core/artifacts/manifest.ts"
import { hasRecordedSize, linkFile } from "../../core/artifacts/files.ts"
import { isPageImagePath } from "../../core/artifacts/page-images.ts"
import type { CorpusObject } from "../corpus/CorpusStore.ts"
import { SkipTally, type Stage, type StageContext, StageError, type StageResult } from "../stages/Stage.ts"
import { type EarlierMerge, entityMergeLimit, mergePartitions, tableDeltaLimit, type PartitionRows } from "./merge.ts"
import {
  type ObjectPartition,
  parseObject,
  PARTITIONS_DIR,
  partitionFiles,
  partitionKey,
  partitionRel,
  PartitionWriter,
  readPartition,
  readerCodeVersion
} from "./partition.ts"
import { ingestWorkers, parseInWorkers } from "./pool.ts"
import type { ParseEvent, ParseRequest } from "./protocol.ts"
import { parseInQueue } from "../distributed/coordinator.ts"
import { buildQueueSettings } from "../distributed/settings.ts"

const sources = ["pipeline/ingest", "core/artifacts/tables.ts", "core/corpus", "core/claims/dependencies.ts", "core/text", "core/guidance/ids.ts"]

interface Planned {
  readonly object: CorpusObject
  readonly doc: number
  /** Partition folder relative to the version directory. */
  readonly rel: string
}

/** Hard-links (or copies, across devices) a partition's files from the previous version. */
const linkPartition = (fromDir: string, toDir: string, files: ReadonlyArray<string>) =>
  Effect.promise(async () => {
    await fs.rm(toDir, { recursive: true, force: true })
    for (const f of files) await linkFile(path.join(fromDir, f), path.join(toDir, f))
  })

/**
 * The previous version's partition for this key, when it is listed in its record with every file
 * present at its recorded size: the record, not the folder, says what that version holds.
 */
const previousPartition = (ctx: StageContext, previousOutputs: ReadonlyMap<string, StageOutput>, rel: string) =>
  Effect.gen(function* () {
    if (!ctx.previous || !previousOutputs.has(`${rel}/object.json`)) return Option.none()
    const dir = path.join(ctx.previous.dir, rel)
    const partition = yield* readPartition(dir)
    if (Option.isNone(partition)) return Option.none()
    const files = partitionFiles(partition.value)
    for (const f of files) {
      const recorded = previousOutputs.get(`${rel}/${f}`)
      if (!recorded || !(yield* Effect.promise(() => hasRecordedSize(path.join(dir, f), recorded.bytes)))) return Option.none()
    }
    return Option.some({ dir, partition: partition.value, files })
  })

/** A partition an interrupted build of other code finished for the same key (complete: its object.json is written last). */
const interruptedPartition = (ctx: StageContext, rel: string) =>
  Effect.gen(function* () {
    for (const dir of ctx.interrupted ?? []) {
      const partition = yield* readPartition(path.join(dir, rel))
      if (Option.isSome(partition)) return Option.some({ dir: path.join(dir, rel), partition: partition.value })
    }
    return Option.none()
  })

const PARTITION_RECORD = new RegExp(`^${PARTITIONS_DIR.replace(".", "\\.")}/([^/]+)/object\\.json$`)

/**
 * What the merge may start from: the current version's tables, when its ingest ran the same code
 * (so its tables are what this merge would make of its partitions), with the partitions that
 * came and went since. None when there is no such version or a gone partition cannot be read.
 */
const earlierMerge = (ctx: StageContext, planned: ReadonlyArray<Planned>, partitions: ReadonlyMap<number, ObjectPartition>) =>
  Effect.gen(function* () {
    const previous = ctx.previous
    if (!previous || ctx.codeVersion === undefined || previous.record.codeVersion !== ctx.codeVersion) return Option.none<EarlierMerge>()
    const before = new Set(previous.record.outputs.flatMap((o) => PARTITION_RECORD.exec(o.path)?.[1] ?? []))
    const now = new Set(planned.map((p) => path.basename(p.rel)))
    const added = planned.filter((p) => !before.has(path.basename(p.rel))).map((p) => ({ dir: path.join(ctx.workDir, p.rel), rows: partitions.get(p.doc)!.rows }))
    const gone: PartitionRows[] = []
    for (const key of before) {
      if (now.has(key)) continue
      const dir = path.join(previous.dir, PARTITIONS_DIR, key)
      const partition = yield* readPartition(dir)
      if (Option.isNone(partition)) return Option.none<EarlierMerge>()
      gone.push({ dir, rows: partition.value.rows })
    }
    const tables = new Map(previous.record.outputs.filter((o) => o.path.startsWith("tables/")).map((o) => [o.path, o]))
    return Option.some<EarlierMerge>({ dir: previous.dir, tables, added, gone })
  })

/** Reads objects in this thread (INGEST_WORKERS=0, or a caller that gave no corpus location). */
const parseHere = (ctx: StageContext, requests: ReadonlyArray<ParseRequest>, stagingDir: string, done: (r: ParseRequest, p: ObjectPartition) => void) =>
  Effect.acquireUseRelease(
    Effect.promise(() => PartitionWriter.open({ memoryLimit: "1GB", tempDirectory: path.join(stagingDir, "writer.spill") })),
    (writer) =>
      Effect.forEach(
        requests,
        (r) =>
          Effect.tryPromise(() => parseObject(writer, ctx.openCorpusFile(r.path), r, r.dir, (n) => ctx.progress.tick(n, "rows", r.path))).pipe(
            Effect.map((p) => done(r, p))
          ),
        { discard: true }
      ),
    (writer) => Effect.sync(() => writer.close())
  )

/**
 * The stage. Partitions are keyed by the version of the code that reads objects (`readerVersion`,
 * default: readerCodeVersion()), not the whole stage's, so a change to the merge keeps them.
 */
export const runIngest = (ctx: StageContext, options: { readonly readerVersion?: string } = {}) =>
  Effect.gen(function* () {
    const codeVersion = options.readerVersion ?? (yield* Effect.promise(readerCodeVersion))
    const workers = yield* ingestWorkers
    const stagingDir = path.join(ctx.workDir, ".staging")
    yield* Effect.promise(() => fs.mkdir(stagingDir, { recursive: true }))
    const planned: Planned[] = ctx.corpusFiles.map((object, doc) => ({ object, doc, rel: partitionRel(partitionKey(codeVersion, object)) }))
    const partitions = new Map<number, ObjectPartition>()
    const linkedOutputs: Record<string, StageOutput> = {}
    const previousOutputs = new Map((ctx.previous?.record.outputs ?? []).map((o) => [o.path, o]))
    const toRead: Planned[] = []
    let resumed = 0
    let reused = 0

    // 1. Which objects need reading: not those finished by an interrupted run of this build or of
    //    a build of other code (a partition's key names the reading code and the object's bytes, so
    //    one finished there is this build's own), nor those the current version read with this code
    //    from the same bytes.
    for (const p of planned) {
      const own = yield* readPartition(path.join(ctx.workDir, p.rel))
      if (Option.isSome(own)) {
        partitions.set(p.doc, own.value)
        resumed++
        continue
      }
      const left = yield* interruptedPartition(ctx, p.rel)
      if (Option.isSome(left)) {
        yield* linkPartition(left.value.dir, path.join(ctx.workDir, p.rel), partitionFiles(left.value.partition))
        partitions.set(p.doc, left.value.partition)
        resumed++
        continue
      }
      const prev = yield* previousPartition(ctx, previousOutputs, p.rel)
      if (Option.isSome(prev)) {
        yield* linkPartition(prev.value.dir, path.join(ctx.workDir, p.rel), prev.value.files)
        for (const f of prev.value.files) linkedOutputs[`${p.rel}/${f}`] = previousOutputs.get(`${p.rel}/${f}`)!
        partitions.set(p.doc, prev.value.partition)
        reused++
        continue
      }
      toRead.push(p)
    }
    if (resumed) ctx.progress.info(`${resumed} objects already read by an interrupted run`)
    if (reused) ctx.progress.info(`${reused} objects unchanged since ${path.basename(ctx.previous!.dir)}: their partitions are reused`)

    // 2. Read the rest, largest first (see parseInWorkers), each into its partition.
    const requests: ParseRequest[] = [...toRead]
      .sort((a, b) => b.object.size - a.object.size || a.doc - b.doc)
      .map((p) => ({
        location: ctx.corpusLocation!,
        path: p.object.path,
        fingerprint: p.object.fingerprint,
        codeVersion,
        dir: path.join(ctx.workDir, p.rel)
      }))
    const docOf = new Map(toRead.map((p) => [p.object.path, p.doc]))
    let read = 0
    const finished = (r: ParseRequest, partition: ObjectPartition) => {
      partitions.set(docOf.get(r.path)!, partition)
      ctx.progress.info(`${r.path} read (${++read}/${requests.length})`)
    }
    const onEvent = (r: ParseRequest, ev: ParseEvent) => {
      if (ev._tag === "Rows") ctx.progress.tick(ev.n, "rows", r.path)
      else finished(r, ev.partition)
    }
    const threads = Math.min(workers, requests.length)
    // BUILD_QUEUE set: the objects are read by build workers on any machine (pipeline/distributed).
    const distributed = yield* buildQueueSettings
    if (Option.isSome(distributed) && ctx.corpusLocation && requests.length > 0) {
      ctx.progress.info(`reading ${requests.length} objects on build queue ${distributed.value.queueName} (partitions through ${distributed.value.store.display})`)
      yield* parseInQueue(requests, onEvent, distributed.value)
    } else if (threads > 0 && ctx.corpusLocation) {
      if (requests.length > 0) ctx.progress.info(`reading ${requests.length} objects with ${threads} worker threads`)
      yield* parseInWorkers(requests, threads, stagingDir, onEvent)
    } else {
      if (requests.length > 0) ctx.progress.info(`reading ${requests.length} objects with this thread`)
      yield* parseHere(ctx, requests, stagingDir, finished)
    }

    // 3. Partition folders of objects no longer in the corpus (or left half-written) go.
    const keep = new Set(planned.map((p) => path.basename(p.rel)))
    const partitionsRoot = path.join(ctx.workDir, PARTITIONS_DIR)
    for (const name of yield* Effect.promise(() => fs.readdir(partitionsRoot).catch(() => [] as string[]))) {
      if (!keep.has(name)) yield* Effect.promise(() => fs.rm(path.join(partitionsRoot, name), { recursive: true, force: true }))
    }

    // 4. Merge, and tally what was skipped in corpus order (as a single-threaded read adds it).
    const skipped = new SkipTally()
    const outputs: string[] = []
    const mergeInputs = planned.map((p) => {
      const partition = partitions.get(p.doc)!
      skipped.absorb(partition.skipped)
      outputs.push(...partitionFiles(partition).map((f) => `${p.rel}/${f}`))
      return { path: p.object.path, doc: p.doc, dir: path.join(ctx.workDir, p.rel), rows: partition.rows }
    })
    const earlier = yield* earlierMerge(ctx, planned, partitions)
    ctx.progress.info(`merging ${planned.length} partitions${Option.isSome(earlier) ? `, from ${path.basename(ctx.previous!.dir)}'s tables where only some entities changed` : ""}`)
    const limit = yield* entityMergeLimit
    const deltaLimit = yield* tableDeltaLimit
    const merged = yield* Effect.tryPromise(() =>
      mergePartitions(ctx.workDir, mergeInputs, { log: (line) => ctx.progress.info(line), earlier: Option.getOrUndefined(earlier), entityMergeLimit: limit, tableDeltaLimit: deltaLimit })
    )
    const notes = [`${toRead.length} corpus objects read, ${reused} reused from the previous version, ${resumed} from an interrupted run`, merged.note]
    return {
      outputs: [...merged.outputs, ...outputs],
      rowCounts: merged.rowCounts,
      contentHashes: merged.contentHashes,
      skipped,
      notes,
      linkedOutputs: { ...linkedOutputs, ...merged.linked }
    } satisfies StageResult
  })

export const ingestStage: Stage = {
  name: "ingest",
  sources,
  dependsOn: [],
  // Page images are copied by their own stage; everything else is read (or skipped and counted) here.
  readsCorpusFile: (p) => !isPageImagePath(p),
  // Config problems stay ConfigErrors; anything else (a worker, the queue, the merge) becomes the stage's failure.
  run: (ctx) => runIngest(ctx).pipe(Effect.mapError((e) => (ConfigError.isConfigError(e) ? e : StageError.from(e))))
}
