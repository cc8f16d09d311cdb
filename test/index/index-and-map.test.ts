/**
 * The vector index and the 3D frame of the sample build: the index answers like exact search
 * (recall@10 ≥ 0.95), every indexed application has finite coordinates in the frame, and the
 * frame is deterministic for a seed.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { exactSearch, viewIndex, type Quantization } from "../../core/index/hnsw.ts"
import { readVectorFile, vectorFilePath } from "../../core/index/vector-file.ts"
import { measureRecall } from "../../pipeline/embed/quantization.ts"
import { fitFrame } from "../../pipeline/map/stage.ts"

import { keyedVectorsSql } from "../../pipeline/embed/embeddings.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const versionDir = await sampleArtifacts()
let conn: Awaited<ReturnType<DuckDBInstance["connect"]>>
let info: { dims: number; count: number; quantization: Quantization; recallAt10: Record<string, number> }
let matrix: Float32Array

beforeAll(async () => {
  conn = await (await DuckDBInstance.create(":memory:")).connect()
  info = JSON.parse(await fs.readFile(path.join(versionDir, "index", "index.json"), "utf8"))
  const rows = (
    await conn.runAndReadAll(`SELECT vector FROM ${await keyedVectorsSql(conn, versionDir)} ORDER BY key`)
  ).getRowsJS() as [number[]][]
  matrix = new Float32Array(rows.length * info.dims)
  rows.forEach(([v], i) => matrix.set(v, i * info.dims))
})

describe("vector index", () => {
  it("holds one unit vector per application with text", async () => {
    expect(info.count).toBe(matrix.length / info.dims)
    expect(info.count).toBeGreaterThan(5000)
    const norms = Array.from({ length: 50 }, (_, i) => Math.hypot(...matrix.subarray(i * info.dims, (i + 1) * info.dims)))
    for (const n of norms) expect(n === 0 || Math.abs(n - 1) < 1e-4).toBe(true)
  })

  it("index/vectors.f32 holds the same vectors as vectors.parquet, row for row, and a truncated copy is not read", async () => {
    const raw = await readVectorFile(vectorFilePath(versionDir), info.dims, info.count)
    expect(raw).toBeDefined()
    for (const i of [0, 1, Math.floor(info.count / 2), info.count - 1])
      for (let j = 0; j < info.dims; j++) expect(raw![i * info.dims + j]).toBeCloseTo(matrix[i * info.dims + j], 5)
    expect(await readVectorFile(vectorFilePath(versionDir), info.dims, info.count + 1)).toBeUndefined()
  })

  it("the saved, memory-mapped index finds what exact search finds (recall@10 ≥ 0.95)", () => {
    const index = viewIndex(path.join(versionDir, "index", "hnsw.usearch"), info.dims, info.quantization)
    expect(index.size()).toBe(info.count)
    let hits = 0
    let total = 0
    for (let q = 0; q < info.count; q += Math.floor(info.count / 200)) {
      const v = matrix.slice(q * info.dims, (q + 1) * info.dims)
      const approx = new Set(Array.from(index.search(v, 10, 0).keys, Number))
      // Ties (identical texts) make the exact top 10 ambiguous: count a hit by distance, not key.
      const exact = exactSearch(matrix, v, info.dims, 10)
      const tenth = exact.distances[9]
      const approxD = index.search(v, 10, 0).distances
      for (let i = 0; i < 10; i++) if (approx.has(Number(exact.keys[i])) || approxD[i] <= tenth + 1e-6) hits++
      total += 10
    }
    expect(hits / total).toBeGreaterThanOrEqual(0.95)
    expect(info.recallAt10[info.quantization]).toBeGreaterThanOrEqual(0.95)
  })

  it("the quantization choice was measured, not assumed", () => {
    expect(measureRecall(matrix.slice(0, 2000 * info.dims), info.dims, "f16")).toBeGreaterThan(0.9)
  })
})

describe("3D map", () => {
  it("gives every indexed application finite coordinates inside the frame", async () => {
    const [row] = (
      await conn.runAndReadAll(
        `SELECT count(*) n, count(DISTINCT app_num) apps, max(greatest(abs(x), abs(y), abs(z))) extent,
           count(*) FILTER (WHERE isfinite(x) AND isfinite(y) AND isfinite(z)) finite
         FROM read_parquet('${path.join(versionDir, "map", "coordinates.parquet")}')`
      )
    ).getRowObjectsJS()
    expect(Number(row.n)).toBe(info.count)
    expect(Number(row.apps)).toBe(info.count)
    expect(Number(row.finite)).toBe(info.count)
    expect(Number(row.extent)).toBeLessThanOrEqual(10.0001)
  })

  it("fits the same frame for the same vectors and seed", () => {
    const sample = Array.from({ length: 120 }, (_, i) => Array.from(matrix.subarray(i * info.dims, (i + 1) * info.dims)))
    expect(fitFrame(sample, 42)).toEqual(fitFrame(sample, 42))
  })
})
