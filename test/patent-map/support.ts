/**
 * Fixtures for the patent-map tests: copies of the sample build (with a planted void, without the atlas,
 * with an application that has text but no vector, with a citing application over the limit,
 * without coordinates), an inference-hub child process, and DuckDB reads of the truth.
 */
import { writeServingRecords } from "../../pipeline/serving/stage.ts"
import { DuckDBInstance } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { ATLAS_FILE, buildAtlas } from "../../pipeline/atlas/stage.ts"
import { carveVoid } from "./planted-void.ts"

const scratch = path.resolve(".tmp/patent-map-tests")

export const sql = async (sqlText: string) => {
  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  try {
    return (await conn.runAndReadAll(sqlText)).getRowObjectsJS() as Record<string, any>[]
  } finally {
    conn.closeSync()
    db.closeSync()
  }
}

const copies: string[] = []

/** Removes every copy this test file made. */
export const removeCopies = () => Promise.all(copies.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })))

/** A private copy of a version folder (the served one is shared by every test file). */
export const copyVersion = async (from: string, name: string) => {
  await fs.mkdir(scratch, { recursive: true })
  const dir = await fs.mkdtemp(path.join(scratch, `${name}-`))
  copies.push(dir)
  await fs.cp(await fs.realpath(from), dir, { recursive: true, filter: (src) => !src.endsWith("catalog.duckdb") })
  return dir
}

/**
 * The sample build with a void planted in it (planted-void.ts) and its atlas built there by the
 * atlas stage, so the whitespace routes have a confirmed void to serve whatever the encoder makes
 * of the sample's own gaps. Fails here, saying why, when the atlas does not confirm the planted void.
 */
export const withPlantedVoid = async (sample: string) => {
  const dir = await copyVersion(sample, "planted-void")
  const ball = await carveVoid(dir)
  // The points records derive from the coordinates.
  await writeServingRecords(dir)
  const atlas = await buildAtlas(dir)
  const planted = atlas.voids.find((v) => Math.hypot(v.position.x - ball.centre[0], v.position.y - ball.centre[1], v.position.z - ball.centre[2]) < ball.radius)
  if (!planted) {
    throw new Error(
      `the atlas did not confirm the void planted at ${ball.centre.map((v) => v.toFixed(3))} (radius ${ball.radius.toFixed(3)}, ${ball.members.length} documents, ` +
        `predicted excess ${ball.excess.toFixed(4)} against a margin of ${atlas.parameters.vectorCheckMargin}; ${atlas.parameters.candidates} candidates)`
    )
  }
  await fs.writeFile(path.join(dir, ATLAS_FILE), JSON.stringify(atlas))
  return dir
}

export const withoutAtlas = async (sample: string) => {
  const dir = await copyVersion(sample, "no-atlas")
  await fs.rm(path.join(dir, "atlas"), { recursive: true, force: true })
  return dir
}

export const withoutCoordinates = async (sample: string) => {
  const dir = await copyVersion(sample, "no-coords")
  await fs.rm(path.join(dir, "map"), { recursive: true, force: true })
  await writeServingRecords(dir)
  return dir
}

export const DESIGN_APP = "29000001"

/**
 * Variant: `unvectored` keeps its text but loses its vector (as a pre-corpus application would);
 * DESIGN_APP is a design application with no text and no vector; `citing` cites `examiner` apps
 * through the examiner and 170 more through the applicant, all in the corpus.
 */
export const variant = async (sample: string) => {
  const dir = await copyVersion(sample, "variant")
  const q = (f: string) => `'${path.join(dir, f)}'`
  const [unvectored] = await sql(
    `SELECT a.app_num FROM read_parquet(${q("tables/applications.parquet")}) a JOIN read_parquet(${q("tables/claims.parquet")}) c
     ON c.app_num = a.app_num AND c.claim_num = 1 WHERE a.abstract IS NOT NULL ORDER BY a.app_num LIMIT 1 OFFSET 100`
  )
  const cited = (await sql(`SELECT app_num FROM read_parquet(${q("index/vectors.parquet")}) ORDER BY key LIMIT 180 OFFSET 1000`)).map((r) => r.app_num as string)
  const citing = cited[0]
  const examiner = cited.slice(171, 176)
  const rewrite = async (file: string, select: string) => {
    const tmp = path.join(dir, `${file}.tmp`)
    const db = await DuckDBInstance.create(":memory:")
    const conn = await db.connect()
    await conn.run(`COPY (${select}) TO '${tmp}' (FORMAT parquet)`)
    conn.closeSync()
    db.closeSync()
    await fs.rename(tmp, path.join(dir, file))
  }
  await rewrite("index/vectors.parquet", `SELECT * FROM read_parquet(${q("index/vectors.parquet")}) WHERE app_num <> '${unvectored.app_num}'`)
  await rewrite(
    "tables/applications.parquet",
    `SELECT * FROM read_parquet(${q("tables/applications.parquet")})
     UNION ALL BY NAME SELECT '${DESIGN_APP}' AS app_num, 'design' AS doc_type, 'Ornamental design for a lamp' AS title, DATE '2020-01-01' AS filing_date`
  )
  const extra = cited
    .slice(1, 176)
    .map((a) => `('${citing}', '${a}', '${a}', ${examiner.includes(a)}, 2016)`)
    .join(",")
  await rewrite(
    "tables/citations.parquet",
    `SELECT * FROM read_parquet(${q("tables/citations.parquet")})
     UNION ALL BY NAME SELECT * FROM (VALUES ${extra}) t(citing_app, cited_doc, cited_app, examiner_cited, citing_filing_year)`
  )
  // The serving records derive from the tables: rewritten tables need them rewritten too.
  await writeServingRecords(dir)
  return { dir, unvectored: unvectored.app_num as string, citing, examiner }
}

export { startHub } from "../support/hub-process.ts"
