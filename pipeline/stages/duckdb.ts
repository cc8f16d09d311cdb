/**
 * How a stage opens DuckDB: bounded. DuckDB's default buffer pool is 80% of RAM, so a stage that
 * opened it plainly could take most of the machine at a million applications (the 1M build
 * peaked at 10.4 GB after ingest against a target of 8 GB). Past its limit DuckDB spills to the
 * stage's own folder under the build's `.staging/`, which is removed when the database closes.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"

/** Where stages spill, inside the version being built; nothing in it is an output. */
export const STAGING_DIR = ".staging"

/**
 * A stage's DuckDB memory: a quarter of RAM, at most 4 GB (the limit ingest's merge runs under,
 * which held that stage to 6.3 GB at a million applications). Databases a stage holds open at
 * once share it (stageMemoryLimit(1 / 2)): their limits add up.
 */
export const STAGE_MEMORY_BYTES = Math.min(4 * 2 ** 30, os.totalmem() / 4)

/** `share` of the stage's DuckDB memory as a memory_limit setting (MiB; at least 128 MiB). */
export const stageMemoryLimit = (share = 1) => `${Math.max(128, Math.floor((STAGE_MEMORY_BYTES * share) / 2 ** 20))}MiB`

/** A spill folder of the stage's own under the version's staging folder (`name` unique among the databases open at once). */
export const spillDirOf = (workDir: string, name: string) => path.join(workDir, STAGING_DIR, `${name}.spill`)

/** An in-memory (or file) DuckDB for a stage: all cores, a bounded memory limit, a spill folder of the stage's own. */
export const openStageDatabase = async (options: {
  readonly file?: string
  readonly spillDir: string
  readonly memoryLimit?: string
  readonly threads?: number
  /** Leave unset where a result's order is read without ORDER BY; false saves memory where none is. */
  readonly preserveInsertionOrder?: boolean
}) => {
  // Made here, not by DuckDB: it creates only the last folder of the path, and a folder that exists
  // for the database's whole life keeps `.staging` from being removed under it (closeStageDatabase).
  await fs.mkdir(options.spillDir, { recursive: true })
  return DuckDBInstance.create(options.file ?? ":memory:", {
    threads: String(options.threads ?? os.availableParallelism()),
    memory_limit: options.memoryLimit ?? stageMemoryLimit(),
    temp_directory: options.spillDir,
    ...(options.preserveInsertionOrder === undefined ? {} : { preserve_insertion_order: String(options.preserveInsertionOrder) })
  })
}

/**
 * Closes a stage's database and removes its spill folder, then the staging folder when no other
 * database spills there: the work folder is published as the version, so nothing may be left.
 */
export const closeStageDatabase = async (db: DuckDBInstance, spillDir: string) => {
  db.closeSync()
  await fs.rm(spillDir, { recursive: true, force: true })
  if (path.basename(path.dirname(spillDir)) === STAGING_DIR) await fs.rmdir(path.dirname(spillDir)).catch(() => {})
}
