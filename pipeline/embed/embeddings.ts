/**
 * index/embeddings.parquet: app_num, vector FLOAT[dims], the encoder's vector of each application
 * with one, for analysts (DuckDB) and for builds without vectors.f32. The search reads the unit
 * vectors of vectors.f32 by key; vectors.parquet says which application each key is.
 *
 * A night writes it as a table with a delta beside the earlier version's (core/artifacts/table-delta.ts,
 * entity app_num): the base is hard-linked, `embeddings.replaced.parquet` lists every application
 * whose earlier vector was given up since the base was written (its text changed, it went, it became
 * a design), and `embeddings.delta.parquet` holds every vector encoded since then. A vector's key
 * moves whenever an application before it gains or loses one, so a column of keys beside the
 * vectors would have meant writing a million vectors for a night's few thousand.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import * as fs from "node:fs"
import * as path from "node:path"
import { linkFile } from "../../core/artifacts/files.ts"
import { deltaPartsOf, tableRelation } from "../../core/artifacts/table-delta.ts"
import { sqlString } from "../stages/tables.ts"

export const EMBEDDINGS = "index/embeddings.parquet"

/**
 * How the earlier version holds its vectors: as embeddings.parquet (with its delta where it has one),
 * or, written before it, as vectors.parquet's vector column (by key).
 */
const earlierVectorsRelation = async (conn: DuckDBConnection, earlierDir: string) => {
  const file = path.join(earlierDir, EMBEDDINGS)
  if (fs.existsSync(file)) return { relation: await tableRelation(conn, file), file }
  return { relation: `(SELECT app_num, vector FROM read_parquet(${sqlString(path.join(earlierDir, "index", "vectors.parquet"))}))`, file: undefined }
}

export interface EmbeddingsWritten {
  readonly outputs: ReadonlyArray<string>
  /** Outputs hard-linked from the earlier version. */
  readonly linked: ReadonlyArray<string>
  readonly note: string
}

/**
 * Writes the embeddings of this build from `encoded` (app_num, vector: the vectors encoded now) and
 * `keptApps` (one column app_num: applications whose earlier vector was taken over), with the
 * earlier version's at hand; `limit` as TABLE_DELTA_LIMIT (0: whole).
 */
export const writeEmbeddings = async (
  conn: DuckDBConnection,
  workDir: string,
  encoded: string,
  keptApps: string,
  earlierDir: string | undefined,
  limit: number
): Promise<EmbeddingsWritten> => {
  const out = path.join(workDir, EMBEDDINGS)
  const whole = async (select: string, note: string): Promise<EmbeddingsWritten> => {
    await conn.run(`COPY (${select}) TO ${sqlString(out)} (FORMAT parquet, COMPRESSION zstd)`)
    return { outputs: [EMBEDDINGS], linked: [], note }
  }
  const now = `SELECT app_num, vector::FLOAT[] AS vector FROM ${encoded}`
  // Every vector encoded now, appended in key order (application order): no sort.
  if (!earlierDir) return whole(now, "embeddings written whole")
  const earlier = await earlierVectorsRelation(conn, earlierDir)
  const kept = `SELECT e.app_num, e.vector::FLOAT[] AS vector FROM ${earlier.relation} e SEMI JOIN ${keptApps} k ON k.app_num = e.app_num`
  const wholeAgain = (why: string) => whole(`SELECT * FROM (${now} UNION ALL ${kept}) ORDER BY app_num`, `embeddings written whole (${why})`)
  if (!earlier.file || limit <= 0) return wholeAgain(earlier.file ? "deltas off" : "the earlier version has none")

  // The earlier applications whose vector is not taken over: given up tonight.
  const earlierParts = deltaPartsOf(earlier.file)
  const earlierDelta = fs.existsSync(earlierParts.delta) && fs.existsSync(earlierParts.replaced)
  await conn.run(`CREATE OR REPLACE TEMP TABLE given_up AS
    SELECT e.app_num FROM read_parquet(${sqlString(path.join(earlierDir, "index", "vectors.parquet"))}) e ANTI JOIN ${keptApps} k ON k.app_num = e.app_num`)
  const carried = earlierDelta
    ? `SELECT d.app_num, d.vector FROM read_parquet(${sqlString(earlierParts.delta)}) d ANTI JOIN given_up g ON g.app_num = d.app_num`
    : `SELECT NULL::VARCHAR AS app_num, NULL::FLOAT[] AS vector WHERE false`
  await conn.run(`CREATE OR REPLACE TEMP TABLE delta_rows AS SELECT * FROM (${carried} UNION ALL ${now})`)
  const [[deltaRows, baseRows]] = (
    await conn.runAndReadAll(`SELECT (SELECT count(*) FROM delta_rows)::BIGINT, (SELECT count(*) FROM read_parquet(${sqlString(earlier.file)}))::BIGINT`)
  ).getRowsJS() as [bigint, bigint][]
  if (Number(deltaRows) > limit * Number(baseRows)) return wholeAgain(`a delta of ${deltaRows} vectors would pass ${limit} of the base's ${baseRows}`)

  await linkFile(earlier.file, out)
  const parts = deltaPartsOf(out)
  const earlierReplaced = earlierDelta ? `SELECT app_num FROM read_parquet(${sqlString(earlierParts.replaced)}) UNION ` : ""
  await conn.run(`COPY (SELECT app_num FROM (${earlierReplaced}SELECT app_num FROM given_up) ORDER BY app_num) TO ${sqlString(parts.replaced)} (FORMAT parquet)`)
  await conn.run(`COPY (SELECT * FROM delta_rows ORDER BY app_num) TO ${sqlString(parts.delta)} (FORMAT parquet, COMPRESSION zstd)`)
  const rel = (f: string) => path.relative(workDir, f)
  return {
    outputs: [EMBEDDINGS, rel(parts.replaced), rel(parts.delta)],
    linked: [EMBEDDINGS],
    note: `embeddings: the earlier base linked and a delta of ${deltaRows} vectors written beside it`
  }
}

/** A version's vectors with their keys (key, app_num, text_hash, vector), through the embeddings' delta where there is one. */
export const keyedVectorsSql = async (conn: DuckDBConnection, versionDir: string) =>
  `(SELECT v.key, v.app_num, v.text_hash, e.vector FROM read_parquet(${sqlString(path.join(versionDir, "index", "vectors.parquet"))}) v
    JOIN ${await tableRelation(conn, path.join(versionDir, EMBEDDINGS))} e USING (app_num))`
