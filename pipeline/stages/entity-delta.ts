/**
 * Writing a stage's table keyed by an entity (an application …) as a night does: the entities
 * computed again tonight as a delta beside the earlier version's file (core/artifacts/table-delta.ts),
 * or the whole table when the delta would pass its share of the base.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import * as fs from "node:fs"
import * as path from "node:path"
import { linkFile } from "../../core/artifacts/files.ts"
import { deltaPartsOf, tableRelation } from "../../core/artifacts/table-delta.ts"
import { sqlString } from "./tables.ts"

export interface EntityTableWrite {
  /** Absolute path of this version's table. */
  readonly file: string
  /** The earlier version's table (absolute), read through its delta where it has one. */
  readonly earlierFile: string
  /** The entity column. */
  readonly entity: string
  /** Every row tonight of the entities in `affected` (a relation). */
  readonly fresh: string
  /** The entities computed again tonight (a relation with one column `k`): new, changed and gone ones alike. */
  readonly affected: string
  /** TABLE_DELTA_LIMIT: the delta's rows at most this share of the base's, else whole (0: always whole). */
  readonly limit: number
  readonly orderBy: string
}

/** Returns the version-relative paths of the delta's files it wrote beside `file` (none when it wrote the table whole) and the delta's rows. */
export const writeEntityTable = async (conn: DuckDBConnection, workDir: string, w: EntityTableWrite) => {
  const e = `"${w.entity.replace(/"/g, '""')}"`
  const earlierParts = deltaPartsOf(w.earlierFile)
  const earlierDelta = fs.existsSync(earlierParts.delta) && fs.existsSync(earlierParts.replaced)
  const carried = earlierDelta
    ? `SELECT d.* FROM read_parquet(${sqlString(earlierParts.delta)}) d ANTI JOIN ${w.affected} a ON a.k = d.${e} UNION ALL BY NAME `
    : ""
  const [[deltaRows, baseRows]] = (
    await conn.runAndReadAll(`SELECT (SELECT count(*) FROM (${carried}SELECT * FROM ${w.fresh}))::BIGINT, (SELECT count(*) FROM read_parquet(${sqlString(w.earlierFile)}))::BIGINT`)
  ).getRowsJS() as [bigint, bigint][]
  if (w.limit > 0 && Number(deltaRows) <= w.limit * Number(baseRows)) {
    const parts = deltaPartsOf(w.file)
    await linkFile(w.earlierFile, w.file)
    await conn.run(`COPY (${carried}SELECT * FROM ${w.fresh} ORDER BY ${w.orderBy}) TO ${sqlString(parts.delta)} (FORMAT parquet, COMPRESSION zstd)`)
    const replaced = earlierDelta ? `SELECT ${e} AS k FROM read_parquet(${sqlString(earlierParts.replaced)}) UNION ` : ""
    await conn.run(`COPY (SELECT k AS ${e} FROM (${replaced}SELECT k FROM ${w.affected}) WHERE k IS NOT NULL ORDER BY k) TO ${sqlString(parts.replaced)} (FORMAT parquet, COMPRESSION zstd)`)
    return { deltaFiles: [parts.delta, parts.replaced].map((f) => path.relative(workDir, f)), deltaRows: Number(deltaRows) }
  }
  const before = await tableRelation(conn, w.earlierFile)
  await conn.run(
    `COPY (SELECT b.* FROM ${before} b ANTI JOIN ${w.affected} a ON a.k = b.${e} UNION ALL BY NAME SELECT * FROM ${w.fresh} ORDER BY ${w.orderBy}) TO ${sqlString(w.file)} (FORMAT parquet, COMPRESSION zstd)`
  )
  return { deltaFiles: [], deltaRows: 0 }
}
