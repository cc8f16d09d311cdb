/**
 * Night after night, the lexical index written as a delta beside the first night's postings
 * (pipeline/lexical/night.ts) answers exactly as the same corpus indexed whole: the same BM25 hits
 * and scores, the same df, the same term counts per application.
 *
 * From the sample build's applications, four nights: the first lacks a tenth of the applications
 * (by hash) and has other abstracts for another tenth; the second adds the missing tenth, restores
 * the abstracts and deletes a third tenth; the third rewords the tenth the second added (documents
 * of the delta given up again), brings the deleted tenth back and deletes a fourth; the fourth, with
 * a limit the delta has outgrown, writes the index whole again.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { ConfigProvider, Effect } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { sqlString } from "../../core/artifacts/files.ts"
import { tableRelation } from "../../core/artifacts/table-delta.ts"
import { CHANGES_DIR, writeChangedKeys, writeChangedRows, writeChangeListing } from "../../pipeline/ingest/changes.ts"
import { lexicalStage } from "../../pipeline/lexical/stage.ts"
import { silentProgress } from "../../pipeline/stages/progress.ts"
import type { StageResult } from "../../pipeline/stages/Stage.ts"
import { tempDir } from "../api/support.ts"
import { lexicalAnswers, titleQueries } from "../support/lexical-answers.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const sample = await sampleArtifacts()

interface Night {
  /** Tenth of the applications left out. */
  readonly absent: ReadonlyArray<number>
  /** Tenth whose abstracts are reworded, and how. */
  readonly reworded?: { readonly tenth: number; readonly suffix: string }
}

/** A night's tables: the sample's applications as `night` says, its CPC and vectors as they are (what the search corpus reads). */
const tablesOf = async (dir: string, night: Night) => {
  const db = await DuckDBInstance.create(":memory:")
  const c = await db.connect()
  try {
    for (const rel of ["tables/applications.parquet", "tables/cpc_assignments.parquet", "index/vectors.parquet"]) {
      await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true })
      const source = `read_parquet(${sqlString(path.join(sample, rel))})`
      const select = rel.endsWith("applications.parquet")
        ? `SELECT * ${night.reworded ? `REPLACE (CASE WHEN hash(app_num) % 10 = ${night.reworded.tenth} THEN coalesce(abstract, '') || ${sqlString(night.reworded.suffix)} ELSE abstract END AS abstract)` : ""}
           FROM ${source} WHERE hash(app_num) % 10 NOT IN (${[...night.absent, 99].join(", ")})`
        : `SELECT * FROM ${source}`
      await c.run(`COPY (${select}) TO ${sqlString(path.join(dir, rel))} (FORMAT parquet)`)
    }
  } finally {
    c.closeSync()
    db.closeSync()
  }
}

/** Ingest's change list of the applications against `since`: every key of `tenths`, with its rows as this night holds them. */
const listTenths = async (dir: string, since: string, tenths: ReadonlyArray<number>) => {
  const db = await DuckDBInstance.create(":memory:")
  const c = await db.connect()
  try {
    const all = `read_parquet(${sqlString(path.join(sample, "tables", "applications.parquet"))})`
    await writeChangedKeys(c, dir, "applications", `(SELECT DISTINCT app_num AS k FROM ${all} WHERE hash(app_num) % 10 IN (${tenths.join(", ")}))`)
    const now = `read_parquet(${sqlString(path.join(dir, "tables", "applications.parquet"))})`
    await writeChangedRows(c, dir, "applications", `(SELECT * FROM ${now} WHERE hash(app_num) % 10 IN (${tenths.join(", ")}))`)
    await writeChangeListing(dir, { since: path.basename(since), unchanged: [], byEntity: ["applications"] })
  } finally {
    c.closeSync()
    db.closeSync()
  }
}

/** The lexical stage over `dir`'s tables, with `earlier` as the version it grows from. */
const runLexical = (dir: string, earlier?: { readonly dir: string }, limit = "5") =>
  Effect.runPromise(
    lexicalStage
      .run({
        workDir: dir,
        corpusFiles: [],
        openCorpusFile: () => {
          throw new Error("the lexical stage reads no corpus file")
        },
        outputOf: (o) => path.join(dir, o.path),
        progress: silentProgress,
        codeVersion: "test",
        previous: earlier && { dir: earlier.dir, record: { codeVersion: "test" } as never }
      })
      .pipe(Effect.withConfigProvider(ConfigProvider.fromJson({ LEXICAL_DELTA_LIMIT: limit })))
  )

/** Every application's term counts, through the table's delta where it has one. */
const termCounts = async (dir: string) => {
  const db = await DuckDBInstance.create(":memory:")
  const c = await db.connect()
  try {
    const tf = await tableRelation(c, path.join(dir, "lexical", "lexical_tf.parquet"))
    const rows = (
      await c.runAndReadAll(`SELECT d.app_num, t.term, t.tf FROM ${tf} t JOIN read_parquet(${sqlString(path.join(dir, "lexical", "lexical_docs.parquet"))}) d USING (doc) ORDER BY ALL`)
    ).getRowsJS() as [string, string, number][]
    return rows.map((r) => r.join(" "))
  } finally {
    c.closeSync()
    db.closeSync()
  }
}

const nights: ReadonlyArray<{ readonly night: Night; readonly listed: ReadonlyArray<number>; readonly limit?: string }> = [
  { night: { absent: [0], reworded: { tenth: 1, suffix: " (as first filed)" } }, listed: [] },
  { night: { absent: [2] }, listed: [0, 1, 2] },
  { night: { absent: [3], reworded: { tenth: 0, suffix: " Amended overnight: a laser diode." } }, listed: [0, 2, 3] },
  { night: { absent: [4] }, listed: [0, 3, 4], limit: "0.01" }
]

const root = tempDir("lexical-nights")
const built: Array<{ dir: string; scratch: string; result: StageResult }> = []
let queries: string[] = []

beforeAll(async () => {
  for (const [i, n] of nights.entries()) {
    const dir = path.join(root, `night-${i}`)
    const scratch = path.join(root, `scratch-${i}`)
    await tablesOf(dir, n.night)
    await tablesOf(scratch, n.night)
    if (i > 0) await listTenths(dir, built[i - 1].dir, n.listed)
    const result = await runLexical(dir, i > 0 ? { dir: built[i - 1].dir } : undefined, n.limit)
    await runLexical(scratch)
    built.push({ dir, scratch, result })
  }
  queries = [
    ...(await titleQueries(sample, 60)),
    "a laser diode with a ceramic heat sink",
    "method of wireless communication between a base station and a terminal"
  ]
}, 240_000)

describe("the lexical index night after night", () => {
  it("keeps the first night's postings and writes the later nights' documents beside them", async () => {
    const notes = built.map((b) => (b.result.notes ?? []).join(" | "))
    expect(notes[0]).toMatch(/^\d+ documents tokenised/)
    expect(notes[1]).toMatch(/documents kept from the earlier version \(same tokeniser, same text\); [1-9]\d* tokenised, [1-9]\d* given up/)
    expect(notes[2]).toMatch(/[1-9]\d* of documents added since, in postings.delta.bin/)
    const inode = async (i: number) => (await fs.stat(path.join(built[i].dir, "lexical", "postings.bin"))).ino
    expect(await inode(1)).toBe(await inode(0))
    expect(await inode(2)).toBe(await inode(0))
    // Past its limit the fourth night writes the index whole: one postings file of its own.
    expect(notes[3]).toMatch(/term counts taken over from the earlier version/)
    expect(await inode(3)).not.toBe(await inode(0))
    await expect(fs.access(path.join(built[3].dir, "lexical", "postings.delta.bin"))).rejects.toThrow()
  })

  it("answers every night as the same corpus indexed whole: hits, scores, df", async () => {
    for (const [i, b] of built.entries()) {
      const [night, whole] = await Promise.all([lexicalAnswers(b.dir, queries), lexicalAnswers(b.scratch, queries)])
      expect(night.answers.filter((a) => a.hits.length > 0).length, `night ${i}`).toBeGreaterThan(50)
      expect(night, `night ${i}`).toEqual(whole)
    }
    // The reworded abstracts have their new words on the third night only.
    const amended = async (i: number) => (await termCounts(built[i].dir)).filter((line) => / overnight /.test(line)).length
    expect(await amended(2)).toBeGreaterThan(50)
    expect(await amended(3)).toBe(0)
  })

  it("holds every application's term counts as the whole write does", async () => {
    for (const [i, b] of built.entries()) expect(await termCounts(b.dir), `night ${i}`).toEqual(await termCounts(b.scratch))
  })
})
