/**
 * The map stage: exact 3D coordinates for every indexed application, in one shared frame.
 *
 * UMAP (umap-js) is fitted on a bounded, evenly spread sample of the vectors (umap-js is slow
 * past ~20k points); every other application is placed at the similarity-weighted mean of its
 * nearest sample neighbours' coordinates. The fit is seeded, so the frame is deterministic for
 * the same vectors. Coordinates are stored once here and never recomputed at request time.
 *
 * The fitted sample is kept as the version's frame (frame.ts). A build whose encoder is the
 * earlier version's (pinned) keeps that frame: unchanged applications keep their coordinates, new
 * ones are placed on the same map, and the result equals placing every application on the kept
 * frame from scratch. A new encoder refits.
 *
 * Outputs: map/coordinates.parquet (key, app_num, x, y, z, fitted), map/frame.json, map/frame.f32
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { Config, Effect, Option } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { UMAP } from "umap-js"
import { exactSearchBatch } from "../../core/index/hnsw.ts"
import { readVectorFile } from "../../core/index/vector-file.ts"
import { seededRandom } from "../../core/random.ts"
import { type Stage, type StageResult, stagePromise } from "../stages/Stage.ts"
import { hasTextHash, sameEncoder } from "../embed/reuse.ts"
import { EncoderPin } from "../encoder/pin.ts"
import { embedOutputs } from "../embed/outputs.ts"
import { mapOutputs } from "./outputs.ts"
import { type Frame, readFrame, writeFrame } from "./frame.ts"
import { sqlString } from "../stages/tables.ts"
import { closeStageDatabase, openStageDatabase, spillDirOf } from "../stages/duckdb.ts"

export const MAP_SAMPLE = 3000
/** How many applications UMAP is fitted on (the frame); smaller only to test placement on small corpora. */
export const MapSample = Config.integer("MAP_SAMPLE").pipe(
  Config.validate({ message: "MAP_SAMPLE: must be an integer from 4 to 100000", validation: (n) => n >= 4 && n <= 100_000 }),
  Config.withDefault(MAP_SAMPLE)
)
const PLACE_NEIGHBOURS = 8
/** Applications placed per exact-search call. */
const PLACE_BATCH = 20_000
/** umap-js transform() hangs unless nEpochs is a multiple of 3 (DESIGN.md); keep fit() consistent. */
const EPOCHS = 300
/** The frame is scaled so coordinates lie within ±FRAME. */
const FRAME = 10

export const fitFrame = (sample: number[][], seed: number): number[][] => {
  if (sample.length === 0) return []
  if (sample.length < 4) return sample.map((_, i) => [i, 0, 0])
  const umap = new UMAP({
    nComponents: 3,
    nNeighbors: Math.min(15, sample.length - 1),
    minDist: 0.1,
    nEpochs: EPOCHS,
    random: seededRandom(seed)
  })
  return umap.fit(sample)
}

/** Centres and scales coordinates into ±FRAME (same transform for every point). */
const normaliser = (coords: number[][]) => {
  const mean = [0, 1, 2].map((d) => coords.reduce((a, c) => a + c[d], 0) / Math.max(1, coords.length))
  const extent = Math.max(1e-9, ...coords.flatMap((c) => c.map((v, d) => Math.abs(v - mean[d]))))
  return (c: number[]) => c.map((v, d) => ((v - mean[d]) / extent) * FRAME)
}

/**
 * Copies the earlier version's coordinates of applications whose text (so vector) is unchanged
 * into `coords`, marking them placed; returns how many. Versions whose vectors carry no text hash
 * give nothing.
 */
const takeOverPlaces = async (conn: DuckDBConnection, earlierDir: string, parquetFile: string, placed: Uint8Array, coords: Float64Array) => {
  const earlierFile = path.join(earlierDir, embedOutputs.vectors.path)
  if (!(await hasTextHash(conn, earlierFile)) || !(await hasTextHash(conn, parquetFile))) return 0
  const earlierVectors = sqlString(earlierFile)
  const parquet = sqlString(parquetFile)
  const earlierCoords = sqlString(path.join(earlierDir, "map", "coordinates.parquet"))
  const result = await conn.stream(`
    SELECT now.key, c.x, c.y, c.z
    FROM read_parquet(${parquet}) now
    JOIN read_parquet(${earlierVectors}) e ON e.app_num = now.app_num AND e.text_hash = now.text_hash
    JOIN read_parquet(${earlierCoords}) c ON c.key = e.key
    WHERE NOT c.fitted`)
  let taken = 0
  for await (const rows of result.yieldRowsJs()) {
    for (const [key, x, y, z] of rows as [number, number, number, number][]) {
      if (placed[key]) continue
      coords[key * 3] = x
      coords[key * 3 + 1] = y
      coords[key * 3 + 2] = z
      placed[key] = 1
      taken++
    }
  }
  return taken
}

export const mapStage: Stage = {
  name: "map",
  sources: ["pipeline/map", "core/random.ts", "core/index"],
  settings: Effect.map(MapSample, (n) => (n === MAP_SAMPLE ? "" : `MAP_SAMPLE=${n}`)),
  dependsOn: ["embed"],
  readsCorpusFile: () => false,
  run: (ctx) =>
    Effect.flatMap(Effect.all([EncoderPin, MapSample]), ([pin, mapSample]) => stagePromise(async (): Promise<StageResult> => {
      const info = JSON.parse(await fs.readFile(ctx.outputOf(embedOutputs.info), "utf8")) as { dims: number; count: number }
      const dims = info.dims
      const spillDir = spillDirOf(ctx.workDir, "map")
      const db = await openStageDatabase({ spillDir })
      const conn = await db.connect()
      try {
        const parquet = sqlString(ctx.outputOf(embedOutputs.vectors))
        const appNums = ((await conn.runAndReadAll(`SELECT app_num FROM read_parquet(${parquet}) ORDER BY key`)).getRowsJS() as [string][]).map((r) => r[0])
        const n = appNums.length
        // Unit vectors as one typed array (off the JS heap): a million vectors as JS number
        // lists ran out of the 4 GB heap.
        // The embed stage of every build this stage pairs with writes vectors.f32.
        const vectors = await readVectorFile(ctx.outputOf(embedOutputs.vectorFile), dims, n)
        if (!vectors) throw new Error(`${embedOutputs.vectorFile.path} is missing or does not hold ${n} vectors of ${dims}: build the embed stage again`)
        const row = (i: number) => vectors.subarray(i * dims, (i + 1) * dims)
        const explicitPin = Option.getOrUndefined(pin)
        // The frame: the pinned version's (ENCODER_PIN), else the earlier version's when its vectors
        // come from this same encoder, else fitted now.
        const frameFrom = explicitPin ?? (ctx.previous && (await sameEncoder(ctx.previous.dir, ctx.workDir)) ? ctx.previous.dir : undefined)
        const kept = frameFrom ? await readFrame(frameFrom, dims) : undefined
        let frame: Frame
        if (kept) {
          frame = kept
          ctx.progress.info(`keeping the frame of ${path.basename(frameFrom!)} (${kept.apps.length} fitted applications)`)
        } else {
          const step = Math.max(1, n / mapSample)
          const sampleIdx = Array.from({ length: Math.min(n, mapSample) }, (_, i) => Math.floor(i * step))
          ctx.progress.info(`fitting UMAP on ${sampleIdx.length} of ${n} vectors`)
          const fitted = fitFrame(sampleIdx.map((i) => Array.from(row(i))), 42)
          const norm = normaliser(fitted)
          const sampleVectors = new Float32Array(sampleIdx.length * dims)
          sampleIdx.forEach((i, j) => sampleVectors.set(row(i), j * dims))
          frame = { dims, apps: sampleIdx.map((i) => appNums[i]), coords: fitted.map((c) => norm(c) as [number, number, number]), vectors: sampleVectors }
        }
        await writeFrame(ctx.workDir, frame)

        const coords = new Float64Array(n * 3)
        const fittedKeys = new Uint8Array(n)
        const placed = new Uint8Array(n)
        // A frame application whose vector is the one it was fitted with keeps its fitted place.
        const frameIndex = new Map(frame.apps.map((a, j) => [a, j]))
        for (let i = 0; i < n; i++) {
          const j = frameIndex.get(appNums[i])
          if (j === undefined) continue
          const v = row(i)
          const f = frame.vectors.subarray(j * dims, (j + 1) * dims)
          if (v.every((x, d) => x === f[d])) {
            coords.set(frame.coords[j], i * 3)
            fittedKeys[i] = 1
            placed[i] = 1
          }
        }
        // Under the earlier version's frame, an unchanged application (same text, so the same
        // vector) keeps the coordinates it had: placing it again would give the same numbers.
        let takenOver = 0
        if (kept && frameFrom === ctx.previous?.dir) takenOver = await takeOverPlaces(conn, ctx.previous!.dir, ctx.outputOf(embedOutputs.vectors), placed, coords)

        // Everything else is placed from its nearest frame points (exact search over the frame,
        // a batch of queries per call).
        const frameCoords = frame.coords
        const m = frame.apps.length
        const k = Math.min(PLACE_NEIGHBOURS, m)
        const toPlace = Array.from({ length: n }, (_, i) => i).filter((i) => !placed[i])
        for (let from = 0; from < toPlace.length && m > 0; from += PLACE_BATCH) {
          const ids = toPlace.slice(from, from + PLACE_BATCH)
          const queries = new Float32Array(ids.length * dims)
          ids.forEach((i, q) => queries.set(row(i), q * dims))
          const found = exactSearchBatch(frame.vectors, queries, dims, k)
          ids.forEach((i, q) => {
            let wsum = 0
            const p = [0, 0, 0]
            for (let j = 0; j < found.counts[q]; j++) {
              const w = Math.max(1e-6, 1 - found.distances[q * k + j]) ** 2
              const c = frameCoords[Number(found.keys[q * k + j])]
              for (let d = 0; d < 3; d++) p[d] += w * c[d]
              wsum += w
            }
            for (let d = 0; d < 3; d++) coords[i * 3 + d] = wsum > 0 ? p[d] / wsum : 0
          })
          ctx.progress.tick(ids.length, "placed")
        }
        const fittedCount = fittedKeys.reduce((a, b) => a + b, 0)

        await conn.run(`CREATE TABLE c (key INTEGER, app_num VARCHAR, x DOUBLE, y DOUBLE, z DOUBLE, fitted BOOLEAN)`)
        const ap = await conn.createAppender("c")
        for (let i = 0; i < n; i++) {
          ap.appendInteger(i)
          ap.appendVarchar(appNums[i])
          ap.appendDouble(coords[i * 3])
          ap.appendDouble(coords[i * 3 + 1])
          ap.appendDouble(coords[i * 3 + 2])
          ap.appendBoolean(fittedKeys[i] === 1)
          ap.endRow()
        }
        ap.flushSync()
        ap.closeSync()
        const file = path.join(ctx.workDir, mapOutputs.coordinates.path)
        await fs.mkdir(path.dirname(file), { recursive: true })
        await conn.run(`COPY (SELECT * FROM c ORDER BY key) TO ${sqlString(file)} (FORMAT parquet, COMPRESSION zstd)`)
        return {
          outputs: Object.values(mapOutputs).map((o) => o.path),
          rowCounts: { coordinates: n },
          notes: [
            kept
              ? `frame of ${path.basename(frameFrom!)} kept (${m} fitted applications)`
              : `UMAP fitted on ${m} vectors (seed 42, ${EPOCHS} epochs)`,
            `${fittedCount} at their fitted place, ${takenOver} unchanged places taken over, ${toPlace.length} placed from ${k} nearest frame points`
          ]
        }
      } finally {
        conn.closeSync()
        await closeStageDatabase(db, spillDir)
      }
    }))
}
