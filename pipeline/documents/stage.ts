/**
 * The documents stage: every application's title, abstract and first claim stored for reads by
 * key (core/search/stored.ts), so a result page is hydrated without scanning Parquet.
 *
 * Outputs (documents/)
 *   stored.bin           UTF-8 JSON arrays [title, abstract, first_claim], concatenated
 *   stored_docs.parquet  app_num, offset, length
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { Effect } from "effect"
import { createWriteStream } from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { encodeStoredDocument, STORED_DIR, STORED_FILE, STORED_TABLE } from "../../core/search/stored.ts"
import { type Stage, type StageResult, stagePromise } from "../stages/Stage.ts"
import { sqlString, withTables } from "../stages/tables.ts"

const write = (out: NodeJS.WritableStream, buf: Buffer) =>
  new Promise<void>((resolve) => (out.write(buf) ? resolve() : out.once("drain", () => resolve())))

/** Writes documents/ under `workDir` from its tables/ (also used to add the folder to a version built before this stage). */
export const writeStoredDocuments = async (workDir: string, tick: (n: number) => void = () => {}): Promise<StageResult> => {
  const dir = path.join(workDir, STORED_DIR)
  await fs.rm(dir, { recursive: true, force: true })
  await fs.mkdir(dir, { recursive: true })
  const staging = await DuckDBInstance.create(":memory:")
  const conn = await staging.connect()
  const out = createWriteStream(path.join(dir, STORED_FILE))
  let stored = 0
  try {
    await conn.run(`CREATE TABLE d (app_num VARCHAR, "offset" BIGINT, length INTEGER)`)
    const index = await conn.createAppender("d")
    let offset = 0
    await withTables(workDir, async (src) => {
      const result = await src.stream(`
        SELECT a.app_num, a.title, a.abstract, c.text AS first_claim
        FROM applications a LEFT JOIN claims c ON c.app_num = a.app_num AND c.claim_num = 1
        ORDER BY a.app_num`)
      for await (const rows of result.yieldRowsJs()) {
        for (const [appNum, title, abstract, firstClaim] of rows as [string, string | null, string | null, string | null][]) {
          const bytes = encodeStoredDocument({ title, abstract, firstClaim })
          await write(out, bytes)
          index.appendVarchar(appNum)
          index.appendBigInt(BigInt(offset))
          index.appendInteger(bytes.length)
          index.endRow()
          offset += bytes.length
          stored++
        }
        tick(rows.length)
      }
    })
    await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())))
    index.flushSync()
    index.closeSync()
    await conn.run(`COPY (SELECT * FROM d ORDER BY app_num) TO ${sqlString(path.join(dir, `${STORED_TABLE}.parquet`))} (FORMAT parquet, COMPRESSION zstd)`)
  } finally {
    out.destroy()
    conn.closeSync()
    staging.closeSync()
  }
  return { outputs: [`${STORED_DIR}/${STORED_FILE}`, `${STORED_DIR}/${STORED_TABLE}.parquet`], rowCounts: { [STORED_TABLE]: stored } }
}

export const documentsStage: Stage = {
  name: "documents",
  sources: ["pipeline/documents", "core/search/stored.ts"],
  dependsOn: ["ingest"],
  readsCorpusFile: () => false,
  run: (ctx) => stagePromise(() => writeStoredDocuments(ctx.workDir, (n) => ctx.progress.tick(n, "documents stored")))
}
