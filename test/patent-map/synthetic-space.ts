/**
 * A synthetic patent space with planted voids, written as the artifact files the atlas stage and
 * the patent-map service read (map/, index/, tables/). Positions are uniform in a ball of radius
 * 8 with dense clusters; the planted voids are empty balls. Vectors embed the 3D position
 * linearly (plus a little noise), so a void in 3D is also a void in vector space, except for the
 * artefact hole: documents whose vectors lie inside it were placed elsewhere on the map, as a
 * projection can do, so the hole is empty in 3D but not in vector space.
 */
import { DuckDBInstance, FLOAT, LIST } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { createIndex } from "../../core/index/hnsw.ts"
import { vectorFilePath, writeVectorFile } from "../../core/index/vector-file.ts"
import { seededRandom } from "../../core/random.ts"

type Vec3 = readonly [number, number, number]

export const PLANTED_VOIDS: ReadonlyArray<{ centre: Vec3; radius: number }> = [
  { centre: [3.5, 0, 0], radius: 2.2 },
  { centre: [-3, 3, 1], radius: 2.2 },
  { centre: [0, -3.5, -2.5], radius: 2.2 }
]
export const ARTEFACT_HOLE = { centre: [-2, -1, 4] as Vec3, radius: 2.2 }
export const DENSE_CLUSTERS: ReadonlyArray<{ centre: Vec3; sigma: number }> = [
  { centre: [-4, -2, -2], sigma: 0.9 },
  { centre: [1, 4, -3], sigma: 0.9 }
]
const BALL = 8
const SUBCLASSES = ["A01B", "B65D", "C07D", "G06F", "H04L"] as const
const TITLES: Record<string, string> = {
  A01B: "SOIL WORKING IN AGRICULTURE OR FORESTRY",
  B65D: "CONTAINERS FOR STORAGE OR TRANSPORT OF ARTICLES OR MATERIALS",
  C07D: "HETEROCYCLIC COMPOUNDS",
  G06F: "ELECTRIC DIGITAL DATA PROCESSING",
  H04L: "TRANSMISSION OF DIGITAL INFORMATION"
}

const dist = (a: Vec3, b: Vec3) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2])

/**
 * Positions of the synthetic space (x, y, z interleaved) and, for each document, where it sits in
 * vector space ("semantic", the same as its position except for the displaced documents). In
 * memory only, so a million points take about a second.
 */
export const syntheticPositions = (points: number, seed = 7) => {
  const random = seededRandom(seed)
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
  const holes = [...PLANTED_VOIDS, ARTEFACT_HOLE]
  const free = (p: Vec3) => holes.every((h) => dist(p, h.centre) > h.radius) && Math.hypot(...p) < BALL
  const place = (): Vec3 => {
    for (;;) {
      const r = random()
      const cluster = r < 0.2 ? DENSE_CLUSTERS[r < 0.1 ? 0 : 1] : null
      const p: Vec3 = cluster
        ? [cluster.centre[0] + gauss() * cluster.sigma, cluster.centre[1] + gauss() * cluster.sigma, cluster.centre[2] + gauss() * cluster.sigma]
        : [(random() * 2 - 1) * BALL, (random() * 2 - 1) * BALL, (random() * 2 - 1) * BALL]
      if (free(p)) return p
    }
  }
  // Documents that belong inside the artefact hole in vector space but sit elsewhere on the map:
  // 6% of them, so the hole is plainly full in vector space (about 3.6× as dense as the art around).
  const displaced = Math.max(20, Math.round(points * 0.06))
  const coords = new Float32Array(points * 3)
  const semantic = new Float32Array(points * 3)
  for (let i = 0; i < points; i++) {
    const p = place()
    coords.set(p, i * 3)
    semantic.set(p, i * 3)
    if (i % Math.floor(points / displaced) === 0) {
      const u: Vec3 = [gauss(), gauss(), gauss()]
      const s = (ARTEFACT_HOLE.radius * Math.cbrt(random())) / Math.hypot(...u)
      semantic.set([ARTEFACT_HOLE.centre[0] + u[0] * s, ARTEFACT_HOLE.centre[1] + u[1] * s, ARTEFACT_HOLE.centre[2] + u[2] * s], i * 3)
    }
  }
  // The noise dimensions draw from their own stream, so positions do not depend on `dims`.
  return { coords, semantic, random: seededRandom((seed ^ 0x5eed) >>> 0) }
}

export const writeSyntheticSpace = async (dir: string, points: number, options: { dims?: number; seed?: number; withVectorFile?: boolean } = {}) => {
  const dims = options.dims ?? 32
  const { coords, semantic, random } = syntheticPositions(points, options.seed ?? 7)
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
  const vectors = new Float32Array(points * dims)
  for (let i = 0; i < points; i++) {
    const v = vectors.subarray(i * dims, (i + 1) * dims)
    v.set([semantic[i * 3] * 0.1, semantic[i * 3 + 1] * 0.1, semantic[i * 3 + 2] * 0.1, 1])
    for (let d = 4; d < dims; d++) v[d] = gauss() * 0.005
    const norm = Math.hypot(...v)
    for (let d = 0; d < dims; d++) v[d] /= norm
  }

  for (const sub of ["map", "index", "tables"]) await fs.mkdir(path.join(dir, sub), { recursive: true })
  const index = createIndex(dims, "f32")
  index.add(BigUint64Array.from({ length: points }, (_, i) => BigInt(i)), vectors, 0)
  index.save(path.join(dir, "index", "hnsw.usearch"))
  await fs.writeFile(path.join(dir, "index", "index.json"), JSON.stringify({ dims, count: points, metric: "cos", quantization: "f32" }))
  // As the embed stage does; withVectorFile: false leaves it out, like a version built before it existed.
  if (options.withVectorFile !== false) await writeVectorFile(vectorFilePath(dir), vectors)

  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  try {
    await conn.run(`CREATE TABLE v (key INTEGER, app_num VARCHAR, vector FLOAT[])`)
    await conn.run(`CREATE TABLE c (key INTEGER, app_num VARCHAR, x DOUBLE, y DOUBLE, z DOUBLE, fitted BOOLEAN)`)
    await conn.run(`CREATE TABLE a (app_num VARCHAR, title VARCHAR, filing_date DATE, art_unit VARCHAR, assignees VARCHAR[], subclass VARCHAR)`)
    const va = await conn.createAppender("v")
    const ca = await conn.createAppender("c")
    for (let i = 0; i < points; i++) {
      const appNum = String(20_000_000 + i)
      va.appendInteger(i)
      va.appendVarchar(appNum)
      va.appendList(Array.from(vectors.subarray(i * dims, (i + 1) * dims)), LIST(FLOAT))
      va.endRow()
      ca.appendInteger(i)
      ca.appendVarchar(appNum)
      for (let d = 0; d < 3; d++) ca.appendDouble(coords[i * 3 + d])
      ca.appendBoolean(false)
      ca.endRow()
    }
    va.closeSync()
    ca.closeSync()
    // Attributes follow the position, so bordering art has a plausible CPC and age mix.
    await conn.run(`
      INSERT INTO a SELECT app_num, 'Synthetic art ' || key,
        DATE '1995-01-01' + CAST(((x + 8) / 16 * 29 * 365 + (key % 97)) AS INTEGER),
        CAST(1600 + (key % 9) * 100 + (key % 7) AS VARCHAR),
        ['Assignee ' || CAST(floor((y + 8) / 4) AS INTEGER)],
        ['${SUBCLASSES.join("','")}'][1 + CAST(floor((z + 8) / 3.21) AS INTEGER) % 5]
      FROM c`)
    const out = (name: string, select: string) =>
      conn.run(`COPY (${select}) TO '${path.join(dir, name).replace(/'/g, "''")}' (FORMAT parquet)`)
    await out("index/vectors.parquet", `SELECT * FROM v ORDER BY key`)
    await out("map/coordinates.parquet", `SELECT * FROM c ORDER BY key`)
    await out("tables/applications.parquet", `SELECT app_num, title, filing_date, art_unit, assignees FROM a ORDER BY app_num`)
    await out(
      "tables/cpc_assignments.parquet",
      `SELECT app_num, subclass || '1/00' AS symbol, subclass, substr(subclass, 1, 1) AS section, true AS is_inventive, true AS is_main FROM a ORDER BY app_num`
    )
    await out(
      "tables/cpc_scheme.parquet",
      `SELECT * FROM (VALUES ${SUBCLASSES.map((s) => `('${s}', 3, '${TITLES[s]}', '${s[0]}', '${s[0]}')`).join(",")}) t(symbol, level, title, parent, section)`
    )
    await out("tables/citations.parquet", `SELECT NULL::VARCHAR AS citing_app, NULL::VARCHAR AS cited_doc, NULL::VARCHAR AS cited_app, false AS examiner_cited, NULL::INTEGER AS citing_filing_year WHERE false`)
  } finally {
    conn.closeSync()
    db.closeSync()
  }
  // A manifest, so the API serves the folder like a built version.
  await fs.writeFile(
    path.join(dir, "manifest.json"),
    JSON.stringify({ formatVersion: 1, version: "synthetic", buildKey: "synthetic", createdAt: new Date(0).toISOString(), corpus: { location: "synthetic", files: [] }, stages: [] })
  )
  return { dims, points, vectors, coords }
}
