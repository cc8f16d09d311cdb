/**
 * Vectors an earlier version computed with the same encoder, reused for applications whose indexed
 * text is unchanged: under a pinned encoder (pipeline/encoder/pin.ts) a nightly build encodes only
 * new and changed applications. A reused unit vector is the very row the earlier build wrote, so
 * the result equals encoding everything again (test/pipeline/incremental-build.test.ts).
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { filesUnder, sha256OfFile } from "../../core/artifacts/files.ts"
import { VectorFileReader, vectorFilePath } from "../../core/index/vector-file.ts"
import { encoderFolder } from "../encoder/save.ts"
import { sqlString } from "../stages/tables.ts"

export { textHash } from "../stages/text-hash.ts"

export interface EarlierVectors {
  /** Its vectors.parquet: each application's key and text hash there (applicationTexts joins it). */
  readonly parquet: string
  readonly rows: VectorFileReader
}

/** Whether a vectors.parquet says which text each vector encodes (versions before text_hash do not). */
export const hasTextHash = async (conn: DuckDBConnection, parquet: string) =>
  ((await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${sqlString(parquet)})`).catch(() => undefined))?.getRowsJS() as [string][] | undefined)?.some(
    ([name]) => name === "text_hash"
  ) ?? false

/** Same files, same bytes: the encoder that made `versionDir`'s vectors is the one in `workDir`. */
export const sameEncoder = async (versionDir: string, workDir: string) => {
  const mine = await filesUnder(path.join(workDir, encoderFolder)).catch(() => [])
  const theirs = await filesUnder(path.join(versionDir, encoderFolder)).catch(() => [])
  if (mine.length === 0 || mine.join("\n") !== theirs.join("\n")) return false
  for (const f of mine) {
    const [a, b] = [path.join(workDir, encoderFolder, f), path.join(versionDir, encoderFolder, f)]
    const [sa, sb] = await Promise.all([fs.stat(a), fs.stat(b)])
    if (sa.ino === sb.ino && sa.dev === sb.dev) continue // the pinned model, hard-linked
    if (sa.size !== sb.size || (await sha256OfFile(a)) !== (await sha256OfFile(b))) return false
  }
  return true
}

/** The earlier version's vectors when they were made by this build's encoder and say which text they encode; undefined otherwise. */
export const earlierVectors = async (conn: DuckDBConnection, versionDir: string | undefined, workDir: string, dims: number): Promise<EarlierVectors | undefined> => {
  if (!versionDir) return undefined
  const parquet = path.join(versionDir, "index", "vectors.parquet")
  const info = await fs
    .readFile(path.join(versionDir, "index", "index.json"), "utf8")
    .then((t) => JSON.parse(t) as { dims: number; count: number })
    .catch(() => undefined)
  if (!info || info.dims !== dims || !(await sameEncoder(versionDir, workDir))) return undefined
  if (!(await hasTextHash(conn, parquet))) return undefined
  const rows = await VectorFileReader.open(vectorFilePath(versionDir), dims, info.count)
  return rows ? { parquet, rows } : undefined
}
