/**
 * The lexical stage: a BM25 inverted index over titles and abstracts (no network, no DuckDB
 * extension), built with the same patent tokeniser as the encoder. Its files are described in
 * core/search/lexical-files.ts; the postings hold term counts, and the search computes BM25
 * (k1 = 1.2, b = 0.75) from them with the version's document count and average length.
 *
 * A build under the same tokeniser as the version it grows from, with ingest's change lists,
 * writes a night's delta beside that version's postings (night.ts); anything else, or a delta
 * past LEXICAL_DELTA_LIMIT of the base, writes the index whole (whole.ts), taking over the counts
 * of unchanged texts where it can.
 */
import { Config, Effect } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { type Stage, stagePromise } from "../stages/Stage.ts"
import { changedSince, ingestChanges } from "../ingest/changes.ts"
import { withLinkedOutputs } from "../stages/take-over.ts"
import { closeStageDatabase, openStageDatabase, spillDirOf, stageMemoryLimit } from "../stages/duckdb.ts"
import { stopwatch } from "../stages/stopwatch.ts"
import { writeNight } from "./night.ts"
import { earlierTermCounts } from "./reuse.ts"
import { writeWhole } from "./whole.ts"

export { BM25_B, BM25_K1 } from "../../core/search/lexical-files.ts"

/**
 * Past this share of the base (postings in the delta, or base document ids given up by documents
 * gone or reworded) a night writes the index whole again: a longer delta costs every query a
 * second read per term, and ids given up still cost their postings' bytes.
 */
export const LEXICAL_DELTA_LIMIT = 0.25

export const lexicalDeltaLimit = Config.number("LEXICAL_DELTA_LIMIT").pipe(
  Config.validate({ message: "LEXICAL_DELTA_LIMIT must be a share of the base postings, 0 or more", validation: (x) => Number.isFinite(x) && x >= 0 }),
  Config.withDefault(LEXICAL_DELTA_LIMIT)
)

export const lexicalStage: Stage = {
  name: "lexical",
  sources: ["pipeline/lexical", "core/text/tokenize.ts"],
  dependsOn: ["ingest"],
  readsCorpusFile: () => false,
  run: (ctx) =>
    Effect.flatMap(lexicalDeltaLimit, (limit) =>
      stagePromise(async () => {
        const seconds = stopwatch()
        const dir = path.join(ctx.workDir, "lexical")
        await fs.rm(dir, { recursive: true, force: true })
        await fs.mkdir(dir, { recursive: true })
        const stagingFile = path.join(dir, ".postings.duckdb")
        // Half the stage's memory while the tables' database is open beside it; all of it after.
        const spillDir = spillDirOf(ctx.workDir, "lexical")
        const db = await openStageDatabase({ file: stagingFile, spillDir, memoryLimit: stageMemoryLimit(1 / 2) })
        const conn = await db.connect()
        try {
          // Under the same tokeniser the earlier version's counts of unchanged texts are taken over.
          const earlier = await earlierTermCounts(conn, ctx.previous && { dir: ctx.previous.dir, sameCode: ctx.previous.record.codeVersion === ctx.codeVersion })
          // A night's change lists name the applications whose title or abstract may differ.
          const changed = earlier ? await changedSince(ctx.outputOf(ingestChanges), ctx.previous?.dir, ["applications"]) : undefined
          const night = earlier && changed && limit > 0 ? await writeNight(ctx, conn, earlier, changed, limit, seconds) : undefined
          if (night) return withLinkedOutputs(night, ctx.previous?.record)
          return await writeWhole(ctx, conn, earlier, changed, seconds)
        } finally {
          conn.closeSync()
          await closeStageDatabase(db, spillDir)
          await fs.rm(stagingFile, { force: true })
          await fs.rm(`${stagingFile}.wal`, { force: true })
        }
      })
    )
}
