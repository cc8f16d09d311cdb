/**
 * The map stage: exact 3D coordinates for every indexed application, in one shared frame.
 *
 * UMAP (umap-js) is fitted on a bounded, evenly spread sample of the vectors (umap-js is slow
 * past ~20k points); every other application is placed at the similarity-weighted mean of its
 * nearest sample neighbours' coordinates. The fit is seeded, so the frame is deterministic for
 * the same vectors. Coordinates are stored once here and never recomputed at request time.
 *
 * Output: map/coordinates.parquet (key, app_num, x, y, z, fitted)
 */
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api"
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { UMAP } from "umap-js"
import { exactSearchBatch } from "../../core/index/hnsw.ts"
import { normalizeRows, readVectorFile, vectorFilePath } from "../../core/index/vector-file.ts"
import { seededRandom } from "../../core/random.ts"
import type { Stage, StageResult } from "../stages/Stage.ts"
import { sqlString } from "../stages/tables.ts"

export const MAP_SAMPLE = 3000
const PLACE_NEIGHBOURS = 8
/** Applications placed per exact-search call. */
const PLACE_BATCH = 20_000
/** umap-js transform() hangs unless nEpochs is a multiple of 3 (DESIGN.md); keep fit() consistent. */
const EPOCHS = 300
/** The frame is scaled so coordinates lie within ±FRAME. */
const FRAME = 10

/** Versions whose embed stage predates index/vectors.f32: the Parquet lists, in key slices. */
const vectorsFromParquet = async (conn: DuckDBConnection, parquet: string, dims: number, n: number) => {
  const out = new Float32Array(n * dims)
  for (let from = 0; from < n; from += 50_000) {
    const rows = (await conn.runAndReadAll(`SELECT key, vector FROM read_parquet(${parquet}) WHERE key >= ${from} AND key < ${from + 50_000}`)).getRowsJS() as [number, number[]][]
    for (const [key, vector] of rows) out.set(vector, key * dims)
  }
  return normalizeRows(out, dims)
}

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

export const mapStage: Stage = {
  name: "map",
  sources: ["pipeline/map", "core/random.ts", "core/index"],
  dependsOn: ["embed"],
  readsCorpusFile: () => false,
  run: (ctx) =>
    Effect.tryPromise(async (): Promise<StageResult> => {
      const info = JSON.parse(await fs.readFile(path.join(ctx.workDir, "index", "index.json"), "utf8")) as { dims: number; count: number }
      const dims = info.dims
      const db = await DuckDBInstance.create(":memory:")
      const conn = await db.connect()
      try {
        const parquet = sqlString(path.join(ctx.workDir, "index", "vectors.parquet"))
        const appNums = ((await conn.runAndReadAll(`SELECT app_num FROM read_parquet(${parquet}) ORDER BY key`)).getRowsJS() as [string][]).map((r) => r[0])
        const n = appNums.length
        // Unit vectors as one typed array (off the JS heap): a million vectors as JS number
        // lists ran out of the 4 GB heap.
        const vectors = (await readVectorFile(vectorFilePath(ctx.workDir), dims, n)) ?? (await vectorsFromParquet(conn, parquet, dims, n))
        const row = (i: number) => vectors.subarray(i * dims, (i + 1) * dims)
        const step = Math.max(1, n / MAP_SAMPLE)
        const sampleIdx = Array.from({ length: Math.min(n, MAP_SAMPLE) }, (_, i) => Math.floor(i * step))
        ctx.progress.info(`fitting UMAP on ${sampleIdx.length} of ${n} vectors`)
        const fitted = fitFrame(sampleIdx.map((i) => Array.from(row(i))), 42)
        const norm = normaliser(fitted)
        const sampleCoords = fitted.map(norm)
        const coords = new Float64Array(n * 3)
        const fittedKeys = new Uint8Array(n)
        sampleIdx.forEach((i, j) => {
          coords.set(sampleCoords[j], i * 3)
          fittedKeys[i] = 1
        })

        // Out-of-sample placement from the nearest fitted neighbours (exact search over the
        // sample, a batch of queries per call).
        const sampleMatrix = new Float32Array(sampleIdx.length * dims)
        sampleIdx.forEach((i, j) => sampleMatrix.set(row(i), j * dims))
        const k = Math.min(PLACE_NEIGHBOURS, sampleIdx.length)
        for (let from = 0; from < n && sampleIdx.length > 0; from += PLACE_BATCH) {
          const to = Math.min(n, from + PLACE_BATCH)
          const found = exactSearchBatch(sampleMatrix, vectors.subarray(from * dims, to * dims), dims, k)
          for (let i = from; i < to; i++) {
            if (fittedKeys[i]) continue
            const q = i - from
            let wsum = 0
            const p = [0, 0, 0]
            for (let j = 0; j < found.counts[q]; j++) {
              const w = Math.max(1e-6, 1 - found.distances[q * k + j]) ** 2
              const c = sampleCoords[Number(found.keys[q * k + j])]
              for (let d = 0; d < 3; d++) p[d] += w * c[d]
              wsum += w
            }
            for (let d = 0; d < 3; d++) coords[i * 3 + d] = wsum > 0 ? p[d] / wsum : 0
          }
          ctx.progress.tick(to - from, "placed")
        }

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
        const file = path.join(ctx.workDir, "map", "coordinates.parquet")
        await fs.mkdir(path.dirname(file), { recursive: true })
        await conn.run(`COPY (SELECT * FROM c ORDER BY key) TO ${sqlString(file)} (FORMAT parquet, COMPRESSION zstd)`)
        return {
          outputs: ["map/coordinates.parquet"],
          rowCounts: { coordinates: n },
          notes: [`UMAP fitted on ${sampleIdx.length} vectors (seed 42, ${EPOCHS} epochs); ${n - sampleIdx.length} placed from ${k} nearest fitted neighbours`]
        }
      } finally {
        conn.closeSync()
        db.closeSync()
      }
    })
}


