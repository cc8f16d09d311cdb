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
import { DuckDBInstance } from "@duckdb/node-api"
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { UMAP } from "umap-js"
import { exactSearch } from "../../core/index/hnsw.ts"
import { seededRandom } from "../../core/random.ts"
import type { Stage, StageResult } from "../stages/Stage.ts"
import { sqlString } from "../stages/tables.ts"

export const MAP_SAMPLE = 3000
const PLACE_NEIGHBOURS = 8
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
        const rows = (
          await conn.runAndReadAll(
            `SELECT key, app_num, vector FROM read_parquet(${sqlString(path.join(ctx.workDir, "index", "vectors.parquet"))}) ORDER BY key`
          )
        ).getRowsJS() as [number, string, number[]][]
        const n = rows.length
        const step = Math.max(1, n / MAP_SAMPLE)
        const sampleIdx = Array.from({ length: Math.min(n, MAP_SAMPLE) }, (_, i) => Math.floor(i * step))
        ctx.progress.info(`fitting UMAP on ${sampleIdx.length} of ${n} vectors`)
        const fitted = fitFrame(sampleIdx.map((i) => rows[i][2]), 42)
        const norm = normaliser(fitted)
        const sampleCoords = fitted.map(norm)
        const coords = new Array<number[] | undefined>(n)
        sampleIdx.forEach((i, j) => (coords[i] = sampleCoords[j]))

        // Out-of-sample placement from the nearest fitted neighbours (exact search over the sample).
        const sampleMatrix = new Float32Array(sampleIdx.length * dims)
        sampleIdx.forEach((i, j) => sampleMatrix.set(rows[i][2], j * dims))
        const k = Math.min(PLACE_NEIGHBOURS, sampleIdx.length)
        for (let i = 0; i < n; i++) {
          if (coords[i]) continue
          const m = exactSearch(sampleMatrix, Float32Array.from(rows[i][2]), dims, k)
          let wsum = 0
          const p = [0, 0, 0]
          m.keys.forEach((key, j) => {
            const w = Math.max(1e-6, 1 - m.distances[j]) ** 2
            const c = sampleCoords[Number(key)]
            for (let d = 0; d < 3; d++) p[d] += w * c[d]
            wsum += w
          })
          coords[i] = p.map((v) => v / wsum)
          if (i % 1000 === 0) ctx.progress.tick(1000, "placed")
        }

        await conn.run(`CREATE TABLE c (key INTEGER, app_num VARCHAR, x DOUBLE, y DOUBLE, z DOUBLE, fitted BOOLEAN)`)
        const ap = await conn.createAppender("c")
        const fittedSet = new Set(sampleIdx)
        rows.forEach(([key, app], i) => {
          const [x, y, z] = coords[i]!
          ap.appendInteger(key)
          ap.appendVarchar(app)
          ap.appendDouble(x)
          ap.appendDouble(y)
          ap.appendDouble(z)
          ap.appendBoolean(fittedSet.has(i))
          ap.endRow()
        })
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


