/**
 * The embed + index stage: one vector per application with text (abstract, separator, first
 * claim; the title alone where that is all there is), encoded in batches through the ONNX
 * encoder the encoder stage wrote, stored in Parquet and indexed in a usearch HNSW index.
 * Design and plant applications get no vector (SPEC 4.2: their `self` is null), so they are
 * never a dense neighbour or a prior-art result through the index.
 *
 * Outputs
 *   index/vectors.parquet  key, app_num, text_hash (key = row order, and the graph's label
 *                          unless labels.u32 says otherwise; text_hash: 64 bits of the encoded
 *                          text's SHA-256, which lets a build under a pinned encoder take
 *                          unchanged vectors over: reuse.ts)
 *   index/embeddings.parquet  app_num, vector FLOAT[dims]: the encoder's vectors, for analysts;
 *                          a night writes a delta beside the earlier version's (embeddings.ts)
 *   index/hnsw.usearch     the HNSW index, quantization chosen by measured end-to-end recall
 *                          (b1 codes of rotated vectors where they reach it; core/index/hnsw.ts)
 *   index/vectors.f32      the same vectors scaled to unit length, raw float32 in key order
 *                          (core/index/vector-file.ts: what the API loads)
 *   index/index.json       dims, count, quantization, connectivity, the b1 codes' rotation, the
 *                          recall measurements behind the choice (on a sample of at most 20,000)
 *                          and indexRecallAt10, the recall of the index over every vector
 *   index/recall-probe.json  200 query vectors with their exact nearest labels: what the recall is
 *                          measured against, brought up to date by a night (recall-probe.ts)
 *   index/labels.u32       only when the earlier version's graph was extended rather than rebuilt
 *                          (nightly-index.ts): the graph's label of each row (core/index/labels.ts)
 *
 * With BUILD_QUEUE set the texts to encode (those not taken over from the earlier version) go as
 * jobs of BUILD_EMBED_BATCH texts to build workers on any machines (pipeline/distributed/
 * embed-coordinator.ts); their vectors come back through BUILD_STORE and are placed exactly where
 * this process's own encoding puts them, in the order the batches were sent.
 */
import { ARRAY, type DuckDBConnection, DuckDBArrayValue, DuckDBDataChunk, FLOAT, INTEGER, VARCHAR } from "@duckdb/node-api"
import { Cause, ConfigError, Effect, Exit, Option, Runtime } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { HNSW_EXPANSION_SEARCH } from "../../core/index/hnsw.ts"
import { LABEL_FILE, writeLabels } from "../../core/index/labels.ts"
import { normalizeRows, writeVectorFile } from "../../core/index/vector-file.ts"
import { indexedText } from "../../core/encoder/document-text.ts"
import { loadTextEncoder, type PatentTextEncoder } from "../../core/encoder/encoder.ts"
import { batchEncodingInQueue } from "../distributed/embed-coordinator.ts"
import { embedQueueName } from "../distributed/jobs.ts"
import { type BuildQueueSettings, buildQueueSettings } from "../distributed/settings.ts"
import { type Stage, type StageContext, StageError, type StageResult, stagePromise } from "../stages/Stage.ts"
import { sqlString, withTables } from "../stages/tables.ts"
import { closeStageDatabase, openStageDatabase, spillDirOf, stageMemoryLimit } from "../stages/duckdb.ts"
import { stopwatch } from "../stages/stopwatch.ts"
import { encoderModel } from "../encoder/save.ts"
import { embedOutputs } from "./outputs.ts"
import { type EarlierVectors, earlierVectors, textHash } from "./reuse.ts"
import { applicationTexts } from "./texts.ts"
import { changedSince, ingestChanges } from "../ingest/changes.ts"
import { extendLimit, indexForBuild } from "./nightly-index.ts"
import { RECALL_PROBE, writeProbe } from "./recall-probe.ts"
import { writeEmbeddings } from "./embeddings.ts"
import { tableDeltaLimit } from "../ingest/merge.ts"
import { withLinkedOutputs } from "../stages/take-over.ts"

const BATCH = 256

/**
 * How the stage turns batches of texts into vectors: with its own encoder, one batch at a time, or
 * as jobs on the build queue, many in flight. Either way a batch's vectors are placed in the order
 * the batches were sent.
 */
interface BatchEncoding {
  readonly batchSize: number
  readonly inFlight: number
  /** Vectors of `texts`, in order; `applications` names the batch in errors. */
  readonly encode: (texts: ReadonlyArray<string>, applications: string) => Promise<Float32Array[]>
}

/**
 * onnxruntime intra-op threads for encoding, one per core, set rather than left to onnxruntime: the
 * last bits of a vector depend on the count (1 and 2 threads agree, 3 and more differ), and a
 * distributed build's workers must encode with the count this process would have used.
 */
const encoderThreads = () => os.availableParallelism()

const localEncoding = (encoder: PatentTextEncoder): BatchEncoding => ({ batchSize: BATCH, inFlight: 1, encode: (texts) => encoder.encode(texts) })

/** Batches as jobs for build workers; batches still in flight when the stage ends (it failed) are abandoned with the scope. */
const queueEncoding = (ctx: StageContext, settings: BuildQueueSettings, encoderDir: string, dims: number, threads: number) =>
  Effect.gen(function* () {
    const remote = yield* batchEncodingInQueue(settings, encoderDir, dims, threads)
    ctx.progress.info(
      `encoding on build queue ${embedQueueName(settings.queueName)} in batches of ${settings.embedBatch} (encoder ${remote.encoder} and vectors through ${settings.store.display})`
    )
    const runtime = yield* Effect.runtime<never>()
    const abandon = yield* Effect.acquireRelease(Effect.sync(() => new AbortController()), (c) => Effect.sync(() => c.abort()))
    return {
      batchSize: settings.embedBatch,
      inFlight: settings.embedInFlight,
      // The stage's loop is Promise code (DuckDB appenders): each batch's Effect is run once, here at its edge.
      encode: (texts, applications) =>
        Runtime.runPromiseExit(runtime)(remote.encode(texts, applications), { signal: abandon.signal }).then((exit) =>
          Exit.isSuccess(exit) ? exit.value : Promise.reject(Cause.squash(exit.cause))
        )
    } satisfies BatchEncoding
  })

/** Design and plant applications: a drawing or a plant variety, not text to search (SPEC 4.2). */
export const isUnindexedDocType = (docType: string | null | undefined) => docType === "design" || docType === "plant"

export const embedStage: Stage = {
  name: "embed",
  sources: ["pipeline/embed", "core/encoder", "core/text", "core/index"],
  dependsOn: ["ingest", "encoder"],
  readsCorpusFile: () => false,
  run: (ctx) =>
    Effect.gen(function* () {
      const encoderDir = ctx.outputOf(encoderModel)
      const threads = encoderThreads()
      const encoder = yield* Effect.acquireRelease(stagePromise(() => loadTextEncoder(encoderDir, { threads })), (e) => Effect.promise(() => e.close()))
      // BUILD_QUEUE set: the batches are encoded by build workers on any machine (pipeline/distributed).
      const distributed = yield* buildQueueSettings
      const encoding = Option.isSome(distributed) ? yield* queueEncoding(ctx, distributed.value, encoderDir, encoder.dimensions, threads) : localEncoding(encoder)
      const limit = yield* extendLimit
      const deltaLimit = yield* tableDeltaLimit
      return yield* stagePromise(async () => withLinkedOutputs(await embedApplications(ctx, encoder.dimensions, encoding, limit, deltaLimit), ctx.previous?.record))
    }).pipe(
      Effect.scoped,
      // Config problems stay ConfigErrors; anything else (the queue, a worker, the store) becomes the stage's failure.
      Effect.mapError((e) => (ConfigError.isConfigError(e) ? e : StageError.from(e)))
    )
}

/**
 * The vectors taken over (rows whose `origin` is an earlier row): copied from the earlier
 * vectors.f32 in runs of consecutive rows (a night keeps almost every row, so a few long reads), and
 * recorded in table `reused` (key, app_num, text_hash, earlier_key) from the earlier vectors.parquet.
 */
const takeOverRows = async (out: DuckDBConnection, earlier: EarlierVectors, matrix: Float32Array, origin: Int32Array) => {
  const rows: number[] = []
  for (let k = 0; k < origin.length; k++) if (origin[k]! >= 0) rows.push(k)
  const from = rows.map((k) => origin[k]!)
  for (let i = 0; i < rows.length; ) {
    let j = i + 1
    while (j < rows.length && rows[j] === rows[j - 1]! + 1 && from[j] === from[j - 1]! + 1) j++
    await earlier.rows.copyRows(from[i]!, j - i, matrix, rows[i]!)
    i = j
  }
  await out.run(`CREATE TEMP TABLE taken (key INTEGER, earlier_key INTEGER)`)
  const taken = await out.createAppender("taken")
  // A chunk at a time: two million appender calls cost more than the copy.
  for (let at = 0; at < rows.length; at += 2048) {
    const end = Math.min(rows.length, at + 2048)
    const chunk = DuckDBDataChunk.create([INTEGER, INTEGER], end - at)
    chunk.setColumns([rows.slice(at, end), from.slice(at, end)])
    taken.appendDataChunk(chunk)
  }
  taken.flushSync()
  taken.closeSync()
  await out.run(`INSERT INTO reused SELECT t.key, e.app_num, e.text_hash, t.earlier_key
    FROM taken t JOIN read_parquet(${sqlString(earlier.parquet)}) e ON e.key = t.earlier_key`)
}

const embedApplications = async (
  ctx: StageContext,
  dims: number,
  encoding: BatchEncoding,
  extendLimit: number,
  deltaLimit: number
): Promise<StageResult & { readonly linked: ReadonlyArray<string> }> => {
  const seconds = stopwatch()
  const dir = path.join(ctx.workDir, "index")
  await fs.rm(dir, { recursive: true, force: true })
  await fs.mkdir(dir, { recursive: true })
  const vectorsFile = path.join(ctx.workDir, embedOutputs.vectors.path)
  // Vectors are staged in a DuckDB file, then written once to Parquet.
  const stagingFile = path.join(dir, ".vectors.duckdb")
  // Open together with the tables' database while texts are read: half the stage's memory each.
  const spillDir = spillDirOf(ctx.workDir, "embed")
  const db = await openStageDatabase({ file: stagingFile, spillDir, memoryLimit: stageMemoryLimit(1 / 2) })
  const out = await db.connect()
  // A fixed-size FLOAT[dims] column appended a chunk at a time: rows as one list value per cell
  // (appendList) cost 80% more CPU than the encoding itself, and the COPY scanned lists slower.
  await out.run(`CREATE TABLE v (key INTEGER, app_num VARCHAR, vector FLOAT[${dims}], text_hash VARCHAR)`)
  await out.run(`CREATE TABLE reused (key INTEGER, app_num VARCHAR, text_hash VARCHAR, earlier_key INTEGER)`)
  const appender = await out.createAppender("v")
  const rowTypes = [INTEGER, VARCHAR, ARRAY(FLOAT, dims), VARCHAR]
  // Under a pinned encoder the earlier version's vectors of unchanged texts are taken over.
  const earlier = await earlierVectors(out, ctx.previous?.dir, ctx.workDir, dims)
  // All unit vectors stay in one buffer: the index is built in a single multi-threaded add. It is
  // sized once to the application count (an upper bound on the rows): grown by doubling, it held
  // 5% more than needed at 1M and, while growing, the old and the new copy at once.
  let matrix = new Float32Array(0)
  // The earlier row each row's vector was taken over from (−1: encoded now): what extends the earlier graph.
  let origin = new Int32Array(0)
  let key = 0
  let withoutText = 0
  let designOrPlant = 0
  let reusedCount = 0
  let applications = 0
  let textsRead = 0
  let embeddings: Awaited<ReturnType<typeof writeEmbeddings>> | undefined
  try {
    await withTables(ctx.workDir, async (conn) => {
      const count = Number((await conn.runAndReadAll(`SELECT count(*) FROM applications`)).getRows()[0][0])
      matrix = new Float32Array(count * dims)
      origin = new Int32Array(count)
      // Texts to encode, with the key each will have: keys follow application order whether a
      // vector is new or taken over.
      type Batch = { key: number; app_num: string; text: string; hash: string }[]
      let batch: Batch = []
      // Batches sent and not yet placed, oldest first: placed in the order they were sent, as one at a time would be.
      const sent: { batch: Batch; vectors: Promise<Float32Array[]> }[] = []
      const place = async ({ batch, vectors: encoded }: (typeof sent)[number]) => {
        const vectors = await encoded
        const chunk = DuckDBDataChunk.create(rowTypes, batch.length)
        chunk.setColumns([
          batch.map((b) => b.key),
          batch.map((b) => b.app_num),
          // setItem only indexes `items`: the encoder's Float32Array goes in without a number[] copy.
          vectors.map((v) => new DuckDBArrayValue(v as unknown as number[])),
          batch.map((b) => b.hash)
        ])
        appender.appendDataChunk(chunk)
        for (const [i, b] of batch.entries()) {
          const row = matrix.subarray(b.key * dims, (b.key + 1) * dims)
          row.set(vectors[i])
          normalizeRows(row, dims)
        }
        ctx.progress.tick(batch.length, "documents encoded")
      }
      const flush = async () => {
        if (!batch.length) return
        // A text gets the same vector whichever batch it falls in (core/encoder/batching.ts), so a
        // build that encodes only new texts, or in batches of another size, equals one that encodes them all.
        const vectors = encoding.encode(
          batch.map((b) => b.text),
          `applications ${batch[0].app_num} … ${batch[batch.length - 1].app_num}`
        )
        // Awaited in order below; a failure meanwhile must not count as an unhandled rejection.
        vectors.catch(() => {})
        sent.push({ batch, vectors })
        batch = []
        while (sent.length >= encoding.inFlight) await place(sent.shift()!)
      }
      /** The earlier row's vector becomes row k's (copied after the walk, takeOverRows). */
      const takeOver = (k: number, before: { readonly key: number }) => {
        origin[k] = before.key
        reusedCount++
      }
      // Ingest's change lists against the version the vectors come from: only listed applications' texts are read.
      const changed = earlier ? await changedSince(ctx.outputOf(ingestChanges), ctx.previous?.dir, ["applications", "claims"]) : undefined
      for await (const a of applicationTexts(conn, changed, earlier?.parquet)) {
        applications++
        if (a.read) textsRead++
        if (isUnindexedDocType(a.docType)) {
          designOrPlant++
          continue
        }
        if (!a.read) {
          // Not listed: its title, abstract and first claim are those the earlier vector was encoded from.
          if (a.before) takeOver(key++, a.before)
          else withoutText++ // it had no text there, and its rows did not change
          continue
        }
        const text = indexedText({ title: a.title, abstract: a.abstract, firstClaim: a.firstClaim })
        if (!text) {
          withoutText++
          continue
        }
        const hash = textHash(text)
        const k = key++
        origin[k] = -1
        if (a.before && a.before.hash === hash) {
          takeOver(k, a.before)
          continue
        }
        batch.push({ key: k, app_num: a.app_num, text, hash })
        if (batch.length >= encoding.batchSize) await flush()
      }
      await flush()
      while (sent.length > 0) await place(sent.shift()!)
    }, { memoryLimit: stageMemoryLimit(1 / 2) })
    appender.flushSync()
    appender.closeSync()
    if (earlier && reusedCount > 0) await takeOverRows(out, earlier, matrix, origin.subarray(0, key))
    ctx.progress.info(`texts of ${textsRead} of ${applications} applications read, ${reusedCount} vectors taken over and ${key - reusedCount} encoded (${seconds()})`)
    // The tables' database is closed: the whole budget for writing the vectors.
    await out.run(`SET memory_limit = ${sqlString(stageMemoryLimit())}`)
    // Every row was appended in key order when every vector was encoded now (insertion order is
    // preserved): no sort then. Sorting 1M rows of 356 floats was the full build's peak (7.7 GB with the matrix beside it).
    const keys = earlier
      ? `SELECT * FROM (SELECT key, app_num, text_hash FROM v UNION ALL SELECT key, app_num, text_hash FROM reused) ORDER BY key`
      : `SELECT key, app_num, text_hash FROM v`
    await out.run(`COPY (${keys}) TO ${sqlString(vectorsFile)} (FORMAT parquet, COMPRESSION zstd)`)
    embeddings = await writeEmbeddings(out, ctx.workDir, "v", "reused", earlier ? ctx.previous?.dir : undefined, deltaLimit)
  } finally {
    out.closeSync()
    await closeStageDatabase(db, spillDir)
    await earlier?.rows.close()
    await fs.rm(stagingFile, { force: true })
    await fs.rm(`${stagingFile}.wal`, { force: true })
  }

  ctx.progress.info(`vectors.parquet and ${embeddings!.note} (${seconds()})`)
  // Rows were scaled to unit length as they were encoded (or were unit rows already).
  const unitRows = matrix.subarray(0, key * dims)
  // The earlier graph is extended only when the vectors taken over are the earlier version's own.
  const graph = await indexForBuild(unitRows, dims, origin.subarray(0, key), earlier ? ctx.previous?.dir : undefined, ctx.progress, extendLimit)
  const { built, choice, indexRecallAt10, labels, removedSinceBuild, extendedFrom } = graph
  const { raw, info } = built
  raw.save(path.join(ctx.workDir, embedOutputs.index.path))
  if (labels) writeLabels(dir, labels)
  await writeProbe(dir, graph.probe, dims)
  await writeVectorFile(path.join(ctx.workDir, embedOutputs.vectorFile.path), unitRows)
  ctx.progress.info(`index and vectors.f32 written (${seconds()})`)
  // metric is what readers get (cosine, re-scored); a b1 index ranks its candidates by Hamming distance.
  await fs.writeFile(
    path.join(ctx.workDir, embedOutputs.info.path),
    JSON.stringify({ ...info, metric: "cos", expansionSearch: HNSW_EXPANSION_SEARCH, ...choice, indexRecallAt10, removedSinceBuild, ...(extendedFrom ? { extendedFrom } : {}) }, null, 2)
  )
  return {
    outputs: [...Object.values(embedOutputs).map((o) => o.path), `index/${RECALL_PROBE}`, ...(labels ? [`index/${LABEL_FILE}`] : []), ...embeddings!.outputs],
    linked: embeddings!.linked,
    rowCounts: { vectors: key },
    notes: [
      earlier ? `${reusedCount} vectors taken over from the earlier version (same encoder, same text); ${key - reusedCount} encoded` : `${key} vectors encoded`,
      textsRead < applications ? `texts read for ${textsRead} of ${applications} applications: the others are unchanged since the earlier version (ingest's change lists)` : `texts read for all ${applications} applications`,
      embeddings!.note,
      `${withoutText} applications have no text and no vector`, `${designOrPlant} design and plant applications get no vector`, `quantization ${choice.quantization}: ${choice.reason}; recall@10 of the index over all ${key} vectors ${indexRecallAt10.toFixed(3)}`, graph.note]
  }
}
