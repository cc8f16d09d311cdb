/**
 * What the embed stage indexes in the sample build: every application with text has a vector,
 * except design and plant applications (SPEC 4.2: `self` is null for them), which therefore
 * can never be a dense neighbour or a prior-art result through the index.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { loadTextEncoder } from "../../core/encoder/encoder.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const versionDir = await sampleArtifacts()

const rows = async (sql: string) => {
  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  try {
    return (await conn.runAndReadAll(sql)).getRowObjectsJS()
  } finally {
    conn.closeSync()
    db.closeSync()
  }
}

describe("embedded applications of the sample build", () => {
  it("design and plant applications get no vector; utility applications with text do", async () => {
    const [counts] = await rows(`
      SELECT count(*) FILTER (WHERE a.doc_type IN ('design', 'plant')) AS design_or_plant_with_vector,
             count(*) FILTER (WHERE a.doc_type = 'utility') AS utility_with_vector
      FROM read_parquet('${path.join(versionDir, "index", "vectors.parquet")}') v
      JOIN read_parquet('${path.join(versionDir, "tables", "applications.parquet")}') a USING (app_num)`)
    const [designs] = await rows(
      `SELECT count(*) AS n FROM read_parquet('${path.join(versionDir, "tables", "applications.parquet")}') WHERE doc_type = 'design'`
    )
    expect(Number(designs.n)).toBeGreaterThan(100)
    expect(Number(counts.design_or_plant_with_vector)).toBe(0)
    expect(Number(counts.utility_with_vector)).toBeGreaterThan(8000)
    const index = JSON.parse(await fs.readFile(path.join(versionDir, "index", "index.json"), "utf8"))
    const [vectors] = await rows(`SELECT count(*) AS n FROM read_parquet('${path.join(versionDir, "index", "vectors.parquet")}')`)
    expect(index.count).toBe(Number(vectors.n))
  })

  it("the build's encoder loads and encodes to unit vectors of the index's width", async () => {
    const encoder = await loadTextEncoder(path.join(versionDir, "encoder"))
    try {
      const index = JSON.parse(await fs.readFile(path.join(versionDir, "index", "index.json"), "utf8"))
      const [v] = await encoder.encode(["a rotor blade for a wind turbine"])
      expect(v).toHaveLength(index.dims)
      expect(Math.hypot(...v)).toBeCloseTo(1, 5)
    } finally {
      await encoder.close()
    }
  })
})
