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
import { tableRelation } from "../../core/artifacts/table-delta.ts"
import { writeEntityTable } from "../stages/entity-delta.ts"
import { sqlString } from "../stages/tables.ts"

export const EMBEDDINGS = "index/embeddings.parquet"

export interface EmbeddingsWritten {
  readonly outputs: ReadonlyArray<string>
  /** Outputs hard-linked from the earlier version. */
  readonly linked: ReadonlyArray<string>
  readonly note: string
}

/**
 * Writes the embeddings of this build from `encoded` (app_num, vector: the vectors encoded now) and
 * `keptApps` (a relation with a column app_num: applications whose earlier vector was taken over),
 * with the earlier version's at hand; `limit` as TABLE_DELTA_LIMIT (0: whole).
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
  const now = `SELECT app_num, vector::FLOAT[] AS vector FROM ${encoded}`
  if (!earlierDir || !fs.existsSync(path.join(earlierDir, EMBEDDINGS))) {
    // Every vector encoded now, appended in key order (application order): no sort. Or the earlier
    // version's vectors from vectors.parquet's own column, written before embeddings.parquet.
    const kept = `SELECT e.app_num, e.vector::FLOAT[] AS vector FROM read_parquet(${sqlString(path.join(earlierDir ?? "", "index", "vectors.parquet"))}) e SEMI JOIN ${keptApps} k ON k.app_num = e.app_num`
    await conn.run(`COPY (${earlierDir ? `SELECT * FROM (${now} UNION ALL ${kept}) ORDER BY app_num` : now}) TO ${sqlString(out)} (FORMAT parquet, COMPRESSION zstd)`)
    return { outputs: [EMBEDDINGS], linked: [], note: `embeddings written whole (${earlierDir ? "the earlier version has none" : "no earlier version"})` }
  }
  // The earlier applications whose vector is not taken over (text changed, gone, a design now) are
  // the entities replaced; the vectors encoded now are their rows and the new applications'.
  await conn.run(`CREATE OR REPLACE TEMP TABLE given_up AS
    SELECT e.app_num AS k FROM read_parquet(${sqlString(path.join(earlierDir, "index", "vectors.parquet"))}) e ANTI JOIN ${keptApps} k ON k.app_num = e.app_num`)
  await conn.run(`CREATE OR REPLACE TEMP VIEW encoded_now AS ${now}`)
  const w = await writeEntityTable(conn, workDir, {
    file: out,
    earlierFile: path.join(earlierDir, EMBEDDINGS),
    entity: "app_num",
    fresh: "encoded_now",
    affected: "given_up",
    limit,
    orderBy: "app_num"
  })
  return w.deltaFiles.length
    ? { outputs: [EMBEDDINGS, ...w.deltaFiles], linked: [EMBEDDINGS], note: `embeddings: the earlier base linked and a delta of ${w.deltaRows} vectors written beside it` }
    : { outputs: [EMBEDDINGS], linked: [], note: `embeddings written whole (${limit > 0 ? `the delta would pass ${limit} of the base` : "deltas off"})` }
}

/** A version's vectors with their keys (key, app_num, text_hash, vector), through the embeddings' delta where there is one. */
export const keyedVectorsSql = async (conn: DuckDBConnection, versionDir: string) =>
  `(SELECT v.key, v.app_num, v.text_hash, e.vector FROM read_parquet(${sqlString(path.join(versionDir, "index", "vectors.parquet"))}) v
    JOIN ${await tableRelation(conn, path.join(versionDir, EMBEDDINGS))} e USING (app_num))`
