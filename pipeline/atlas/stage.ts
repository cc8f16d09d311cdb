/**
 * The atlas stage: the whitespace atlas, regions of the patent space with little art that are
 * enclosed by dense art.
 *
 *   1. Void candidates over map/coordinates.parquet: nearly empty balls, judged against the
 *      density of the art around them on a grid pyramid, so they hold at any corpus size, on the
 *      grid sized for the corpus and on finer ones where the art is clumped (voids.ts).
 *   2. Each candidate is confirmed in the original vector space with the HNSW index (confirm.ts):
 *      its centre must be less covered, against its border, than the median of up to 200 populated
 *      places of the same map measured the same way, so projection artefacts are dropped.
 *   3. Each void is described from its bordering art (describe.ts) and scored (opportunity.ts,
 *      where the formula is documented).
 *
 * Output: atlas/atlas.json { formula, summarySource, parameters, count, voids[] }, voids sorted by
 * opportunity descending. The API loads it once and caches it for 30 minutes.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { type IndexInfo, viewIndex } from "../../core/index/hnsw.ts"
import { readVectorFile, VectorRows } from "../../core/index/vector-file.ts"
import { embedOutputs } from "../embed/outputs.ts"
import { ingestTable } from "../ingest/outputs.ts"
import { mapOutputs } from "../map/outputs.ts"
import { closeStageDatabase, openStageDatabase, spillDirOf } from "../stages/duckdb.ts"
import { stopwatch } from "../stages/stopwatch.ts"
import type { OutputHandle } from "../stages/outputs.ts"
import { type Stage, type StageResult, stagePromise } from "../stages/Stage.ts"
import { tableRelation } from "../../core/artifacts/table-delta.ts"
import { sqlString } from "../stages/tables.ts"
import { confirmVoids, NEIGHBOURS, vectorCheckMargin } from "./confirm.ts"
import { type BorderingArt, describeVoid, SUMMARY_SOURCE } from "./describe.ts"
import { opportunityComponents, opportunityScore, RECENT_YEARS } from "./opportunity.ts"
import { findVoidCandidates, type VoidSearchOptions } from "./voids.ts"

export const ATLAS_FILE = "atlas/atlas.json"
export const VOID_METHOD = "nearly empty balls among art, significant against the density around them, at every scale (pipeline/atlas/voids.ts)"
export const OPPORTUNITY_FORMULA =
  "0.35·emptiness + 0.25·borderDensity + 0.20·growth + 0.20·recency (pipeline/atlas/opportunity.ts)"

/** Most bytes of stored vectors the stage holds in memory (1M vectors of 256 dimensions: 1 GB). */
const RESIDENT_VECTOR_BYTES = 2 ** 31

/** Main symbol's section/subclass, else the alphabetically first symbol's (the API uses the same rule). */
const CPC_PER_APP = `
  SELECT app_num,
         coalesce(arg_min(section, symbol) FILTER (WHERE is_main), arg_min(section, symbol)) AS section,
         coalesce(arg_min(subclass, symbol) FILTER (WHERE is_main), arg_min(subclass, symbol)) AS subclass
  FROM cpc_assignments GROUP BY app_num`

const rows = async (conn: DuckDBConnection, sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJS() as Record<string, any>[]

/** Where the atlas reads an earlier stage's output: the build's outputOf, or a finished version's folder. */
type Outputs = (output: OutputHandle) => string

const openViews = async (outputs: Outputs, spillDir: string) => {
  const db = await openStageDatabase({ spillDir })
  const conn = await db.connect()
  const views: Record<string, OutputHandle> = {
    coordinates: mapOutputs.coordinates,
    applications: ingestTable("applications"),
    cpc_assignments: ingestTable("cpc_assignments"),
    cpc_scheme: ingestTable("cpc_scheme")
  }
  for (const [name, handle] of Object.entries(views)) {
    await conn.run(`CREATE VIEW ${name} AS SELECT * FROM ${await tableRelation(conn, outputs(handle))}`)
  }
  return { db, conn }
}

/** The atlas of a version: `from` is its folder, or (in the build) the stage context's outputOf. */
export const buildAtlas = async (
  from: string | Outputs,
  options: VoidSearchOptions = {},
  log: (line: string) => void = () => {},
  /** Where DuckDB spills (the build's staging folder); by default a temporary folder. */
  spillTo?: string
) => {
  const outputs: Outputs = typeof from === "string" ? (h) => path.join(from, h.path) : from
  const info = JSON.parse(await fs.readFile(outputs(embedOutputs.info), "utf8")) as IndexInfo
  const spillDir = spillTo ?? (await fs.mkdtemp(path.join(os.tmpdir(), "atlas-spill-")))
  const { db, conn } = await openViews(outputs, spillDir)
  const seconds = stopwatch()
  try {
    // 1. Coordinates in key order, as flat arrays.
    const [{ n }] = await rows(conn, `SELECT count(*)::INTEGER AS n FROM coordinates`)
    const coords = new Float32Array(n * 3)
    const keys = new Int32Array(n)
    let p = 0
    const stream = await conn.stream(`SELECT key, x, y, z FROM coordinates ORDER BY key`)
    for await (const chunk of stream.yieldRowsJs()) {
      for (const [key, x, y, z] of chunk as [number, number, number, number][]) {
        keys[p] = key
        coords.set([x, y, z], p * 3)
        p++
      }
    }
    const { dense, candidates, references, grid, gridSizes } = findVoidCandidates(coords, options)
    log(`${candidates.length} void candidates on ${gridSizes.map((g) => `${g}³`).join(", ")} grids (and coarser levels) over ${n} points (${seconds()})`)

    // 2. Vector-space confirmation, calibrated on populated places of the same map. Every
    // confirmation search re-scores its candidates from the stored rows: held in memory when they
    // fit RESIDENT_VECTOR_BYTES (a positioned read per candidate made this stage 30× slower at
    // 100k), else read by offset as the API reads them.
    const viewed = viewIndex(outputs(embedOutputs.index), info.dims, info.quantization)
    const count = info.count ?? viewed.size()
    const vectorFile = outputs(embedOutputs.vectorFile)
    const resident = count * info.dims * 4 <= RESIDENT_VECTOR_BYTES ? await readVectorFile(vectorFile, info.dims, count) : undefined
    const index = resident ? viewed.withResidentVectors(resident) : viewed
    const borderKeys = [...new Set([...candidates, ...references].flatMap((c) => c.bordering.map((b) => keys[b.point])))]
    const vectorOf = new Map<number, Float32Array>()
    if (resident) for (const key of borderKeys) vectorOf.set(key, resident.subarray(key * info.dims, (key + 1) * info.dims))
    else if (borderKeys.length) {
      const rowsOf = await VectorRows.open(vectorFile, info.dims, count)
      if (!rowsOf) throw new Error(`${vectorFile} is missing or does not hold ${count} vectors of ${info.dims} dimensions`)
      try {
        for (const [key, row] of await rowsOf.read(borderKeys)) vectorOf.set(key, row)
      } finally {
        await rowsOf.close()
      }
    }
    const similarityToNearest = (queries: ReadonlyArray<Float32Array>, self: ReadonlyArray<number | null>) => {
      if (!queries.length) return []
      const matrix = new Float32Array(queries.length * info.dims)
      queries.forEach((q, i) => matrix.set(q, i * info.dims))
      type Matches = { keys: BigUint64Array; distances: Float32Array }
      // One query answers Matches, several answer BatchMatches.
      const found = index.search(matrix, NEIGHBOURS + 1, 0) as unknown as Matches & { get?: (i: number) => Matches }
      return queries.map((_, i) => {
        const m = found.get ? found.get(i) : found
        const own = self[i] === null ? null : keys[self[i]!]
        const others = Array.from(m.distances).filter((_, j) => Number(m.keys[j]) !== own)
        return others.length ? 1 - others[Math.min(NEIGHBOURS, others.length) - 1] : 0
      })
    }
    const space = { dims: info.dims, vectorOf: (point: number) => vectorOf.get(keys[point]), similarityToNearest }
    const margin = vectorCheckMargin(references, space)
    const confirmed = confirmVoids(candidates, space, margin)
    log(`${confirmed.length} of ${candidates.length} candidates confirmed in vector space (margin ${margin.toFixed(4)} from ${references.length} populated places; ${seconds()})`)

    // 3. Describe and score.
    const [{ latest }] = await rows(conn, `SELECT coalesce(max(year(filing_date)), 0)::INTEGER AS latest FROM applications`)
    const [{ share }] = await rows(
      conn,
      `SELECT coalesce(avg((year(filing_date) > ${latest - RECENT_YEARS})::INTEGER), 0)::DOUBLE AS share FROM applications WHERE filing_date IS NOT NULL`
    )
    const artKeys = [...new Set(confirmed.flatMap((c) => c.candidate.bordering.map((b) => keys[b.point])))]
    const artOf = new Map<number, Omit<BorderingArt, "distance">>()
    if (artKeys.length) {
      await conn.run(`CREATE OR REPLACE TEMP TABLE art AS SELECT unnest([${artKeys.join(",")}]::INTEGER[]) AS key`)
      const found = await rows(
        conn,
        `WITH cpc AS (${CPC_PER_APP})
         SELECT c.key, c.app_num, c.x, c.y, c.z, a.title, year(a.filing_date)::INTEGER AS year, a.assignees, cpc.section, cpc.subclass
         FROM coordinates c JOIN art USING (key) LEFT JOIN applications a USING (app_num) LEFT JOIN cpc USING (app_num)`
      )
      for (const r of found)
        artOf.set(r.key, {
          appNum: r.app_num,
          x: r.x,
          y: r.y,
          z: r.z,
          title: r.title ?? null,
          filingYear: r.year ?? null,
          section: r.section ?? null,
          subclass: r.subclass ?? null,
          assignees: (r.assignees ?? []) as string[]
        })
    }
    const subclasses = [...new Set([...artOf.values()].map((a) => a.subclass).filter((s): s is string => !!s))]
    const cpcTitles = new Map<string, string>()
    if (subclasses.length) {
      for (const r of await rows(conn, `SELECT symbol, title FROM cpc_scheme WHERE symbol IN (${subclasses.map(sqlString).join(",")})`)) cpcTitles.set(r.symbol, r.title)
    }

    const voids = confirmed
      .map(({ candidate: c, check }) => {
        const art = c.bordering.flatMap((b) => {
          const a = artOf.get(keys[b.point])
          return a ? [{ ...a, distance: b.distance }] : []
        })
        const described = describeVoid(art, cpcTitles, latest, share)
        const components = opportunityComponents({
          expected: c.expected,
          borderDensity: c.borderDensity,
          typicalDensity: dense,
          recentShare: described.temporal.recentShare,
          corpusRecentShare: share,
          medianFilingYear: described.temporal.medianFilingYear,
          latestYear: latest
        })
        const round = (v: number) => Math.round(v * 10_000) / 10_000
        return {
          opportunity: opportunityScore(components),
          position: { x: c.position[0], y: c.position[1], z: c.position[2] },
          radius: round(c.radius),
          ...described,
          opportunityComponents: Object.fromEntries(Object.entries(components).map(([k, v]) => [k, round(v)])),
          geometry: { enclosure: round(c.enclosure), balance: round(c.balance), expectedArt: round(c.expected), strays: c.strays, centreDensity: round(c.centreDensity), borderDensity: round(c.borderDensity) },
          vectorCheck: { centreSimilarity: round(check.centreSimilarity), borderSimilarity: round(check.borderSimilarity) }
        }
      })
      .sort((a, b) => b.opportunity - a.opportunity || a.position.x - b.position.x)
      .map((v, i) => ({ id: `void-${String(i + 1).padStart(4, "0")}`, ...v }))

    return {
      formula: OPPORTUNITY_FORMULA,
      summarySource: SUMMARY_SOURCE,
      parameters: { method: VOID_METHOD, points: n, gridSize: grid.size, gridSizes, vectorCheckMargin: Math.round(margin * 10_000) / 10_000, typicalDensity: dense, latestFilingYear: latest, corpusRecentShare: share, candidates: candidates.length },
      count: voids.length,
      voids
    }
  } finally {
    conn.closeSync()
    await closeStageDatabase(db, spillDir)
  }
}

export const atlasStage: Stage = {
  name: "atlas",
  sources: ["pipeline/atlas"],
  dependsOn: ["ingest", "embed", "map"],
  readsCorpusFile: () => false,
  run: (ctx) =>
    stagePromise(async (): Promise<StageResult> => {
      const atlas = await buildAtlas(ctx.outputOf, {}, (line) => ctx.progress.info(line), spillDirOf(ctx.workDir, "atlas"))
      const file = path.join(ctx.workDir, ATLAS_FILE)
      await fs.mkdir(path.dirname(file), { recursive: true })
      await fs.writeFile(file, JSON.stringify(atlas))
      return { outputs: [ATLAS_FILE], rowCounts: { voids: atlas.count }, notes: [`${atlas.count} voids from ${atlas.parameters.candidates} candidates`] }
    })
}
