/**
 * Parallel and incremental ingest on a small slice of the sample corpus: the tables (row counts,
 * content hashes) and the skip tally do not depend on the number of worker threads, and a build
 * that reuses the current version's partitions equals a from-scratch build of the same corpus
 * after an object is added, changed (same path, new bytes) or deleted.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { tableRelation } from "../../core/artifacts/table-delta.ts"
import { ConfigProvider, Effect } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { gzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { StageRecord } from "../../core/artifacts/manifest.ts"
import { CorpusStore, parseCorpusLocation } from "../../pipeline/corpus/CorpusStore.ts"
import { ingestStage, runIngest } from "../../pipeline/ingest/stage.ts"
import { silentProgress } from "../../pipeline/stages/progress.ts"
import { runPipeline } from "../../pipeline/stages/runner.ts"

const sample = path.resolve("pipeline/sample-corpus")
const SLICE = [
  "cpc/cpc-section-D_20250501.txt.gz",
  "design-codes/design-codes.tsv.gz",
  "form-paragraphs/form-paragraph-index.tsv",
  "peds/uva-seed-set-office-actions.json.gz",
  "uspto/applications/go-uspto-v4-4-A1.xml.gz",
  "uspto/applications/patentsview-ipa130117.one.xml.gz",
  "uspto/grants/go-uspto-v4-5-B2.xml.gz",
  "uspto/grants/patentsview-2011_6.xml.gz",
  "uspto/grants/patentsview-ipg080101.small.xml.gz",
  "uspto/grants/patentsview-ipg120327.196.xml.gz"
]
/** Added by the incremental build; sorts between objects already there, so later objects move place. */
const ADDED = "uspto/grants/patentsview-ipg070102.small.xml.gz"

let tmp: string

const copyInto = async (corpus: string, rel: string, from = rel) => {
  await fs.mkdir(path.dirname(path.join(corpus, rel)), { recursive: true })
  await fs.copyFile(path.join(sample, from), path.join(corpus, rel))
}

/** A corpus folder with the slice, a corrupt file and a file with a malformed document (skip tallies are compared too). */
const makeCorpus = async (name: string, files: ReadonlyArray<string>) => {
  const corpus = path.join(tmp, name)
  for (const rel of files) await copyInto(corpus, rel)
  await fs.writeFile(path.join(corpus, "uspto", "grants", "corrupt.xml.gz"), Buffer.from("this is not gzip at all"))
  const brokenDoc = `<?xml version="1.0" encoding="UTF-8"?>\n<us-patent-grant><us-bibliographic-data-grant><publication-reference><document-id><country>US</country><doc-number>0999</doc-number></document-id></publication-reference><unclosed></us-patent-grant>\n`
  await fs.writeFile(path.join(corpus, "uspto", "grants", "broken.xml.gz"), gzipSync(brokenDoc))
  return corpus
}

const build = (corpus: string, root: string, workers: number) =>
  Effect.runPromise(
    runPipeline({ corpus, artifactsRoot: path.join(tmp, root), stages: [ingestStage], progress: silentProgress }).pipe(
      Effect.provide(CorpusStore.Default),
      Effect.withConfigProvider(ConfigProvider.fromJson({ INGEST_WORKERS: String(workers) }).pipe(ConfigProvider.orElse(() => ConfigProvider.fromEnv())))
    )
  ).then((out) => ({ ...out, record: out.manifest.stages[0] }))

/** What must be equal between two builds of the same corpus. */
const tables = (r: StageRecord) => ({
  rowCounts: r.rowCounts,
  hashes: Object.fromEntries(r.outputs.filter((o) => o.path.startsWith("tables/")).map((o) => [o.path, o.contentHash])),
  skipped: r.skipped
})

const appNums = async (versionDir: string) => {
  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  // The table as it reads: a night may have written a delta beside the earlier base.
  const rows = (await conn.runAndReadAll(`SELECT app_num FROM ${await tableRelation(conn, path.join(versionDir, "tables", "applications.parquet"))}`)).getRows()
  conn.closeSync()
  db.closeSync()
  return new Set(rows.map((r) => String(r[0])))
}

const partitionInodes = async (versionDir: string) => {
  const out = new Map<string, number>()
  for (const key of await fs.readdir(path.join(versionDir, ".ingest"))) {
    for (const f of await fs.readdir(path.join(versionDir, ".ingest", key))) out.set(`${key}/${f}`, (await fs.stat(path.join(versionDir, ".ingest", key, f))).ino)
  }
  return out
}

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "ingest-partitions-"))
})
afterAll(() => fs.rm(tmp, { recursive: true, force: true }))

describe("ingest with worker threads", () => {
  it("builds the same tables, hashes and skip tally with 1 worker, 2 workers and in this thread", async () => {
    const corpus = await makeCorpus("full", [...SLICE, ADDED])
    const one = await build(corpus, "one", 1)
    const two = await build(corpus, "two", 2)
    const inline = await build(corpus, "inline", 0)
    expect(one.record.rowCounts.applications).toBeGreaterThan(100)
    expect(one.record.skipped.count).toBeGreaterThanOrEqual(2)
    expect(tables(two.record)).toEqual(tables(one.record))
    expect(tables(inline.record)).toEqual(tables(one.record))
    // Every object left a partition, listed among the outputs (the version is self-contained).
    const listed = one.record.outputs.filter((o) => o.path.startsWith(".ingest/") && o.path.endsWith("/object.json"))
    expect(listed).toHaveLength(one.manifest.corpus.files.length)
  }, 120_000)
})

describe("incremental ingest", () => {
  let corpus: string
  let root: string
  let previous: Awaited<ReturnType<typeof build>>

  beforeAll(async () => {
    corpus = await makeCorpus("growing", SLICE)
    root = "growing-artifacts"
    previous = await build(corpus, root, 2)
  }, 120_000)

  /** Builds the changed corpus incrementally and from scratch; both must agree. */
  const rebuild = async (label: string) => {
    const incremental = await build(corpus, root, 2)
    // The from-scratch reference reads in this thread: the worker count is the first test's concern.
    const scratch = await build(corpus, `scratch-${label}`, 0)
    expect(incremental.upToDate).toBe(false)
    expect(tables(incremental.record)).toEqual(tables(scratch.record))
    // The incremental build merged from the earlier tables, the reference from the partitions alone.
    expect(incremental.record.notes?.[1]).toMatch(/^merge: \d+ tables unchanged \(linked\), \d+ merged again for the changed entities only \(\d+ of them as a delta beside the earlier base\), 0 merged whole$/)
    expect(scratch.record.notes?.[1]).toBe("merge: every table merged whole")
    const before = previous
    previous = incremental
    return { incremental, before }
  }

  it("reads only an added object and equals a from-scratch build", async () => {
    await copyInto(corpus, ADDED)
    const { incremental, before } = await rebuild("added")
    expect(incremental.record.notes?.[0]).toMatch(/^1 corpus objects read, 12 reused/)
    expect(incremental.record.rowCounts.applications).toBeGreaterThan(before.record.rowCounts.applications)
    // Unchanged objects' partitions are the previous version's files, hard-linked.
    const was = await partitionInodes(before.versionDir)
    const now = await partitionInodes(incremental.versionDir)
    let shared = 0
    for (const [f, ino] of was) if (now.get(f) === ino) shared++
    expect(shared).toBe(was.size)
  }, 120_000)

  it("replaces the rows of a changed object (same path, new content)", async () => {
    const changed = "uspto/grants/patentsview-ipg080101.small.xml.gz"
    await copyInto(corpus, changed, "uspto/grants/patentsview-ipg090106.small.xml.gz")
    const { incremental, before } = await rebuild("changed")
    expect(incremental.record.notes?.[0]).toMatch(/^1 corpus objects read, 12 reused/)
    const was = await appNums(before.versionDir)
    const now = await appNums(incremental.versionDir)
    expect([...was].filter((a) => !now.has(a)).length).toBeGreaterThan(0)
    expect([...now].filter((a) => !was.has(a)).length).toBeGreaterThan(0)
  }, 120_000)

  it("removes the rows of a deleted object", async () => {
    await fs.rm(path.join(corpus, "uspto/applications/go-uspto-v4-4-A1.xml.gz"))
    const { incremental, before } = await rebuild("deleted")
    expect(incremental.record.notes?.[0]).toMatch(/^0 corpus objects read, 12 reused/)
    expect(incremental.record.rowCounts.applications).toBeLessThan(before.record.rowCounts.applications)
    const keys = new Set(incremental.record.outputs.filter((o) => o.path.startsWith(".ingest/")).map((o) => o.path.split("/")[1]))
    expect(keys.size).toBe(incremental.manifest.corpus.files.length)
  }, 120_000)

  /** Runs the stage itself (not through the runner) into `workDir`, reading in this thread. */
  const runStage = async (workDir: string, codeVersion: string, interrupted: ReadonlyArray<string> = []) => {
    const store = await Effect.runPromise(Effect.provide(CorpusStore, CorpusStore.Default))
    const location = parseCorpusLocation(corpus)
    const objects = await Effect.runPromise(store.list(location))
    await fs.mkdir(workDir, { recursive: true })
    const result = await Effect.runPromise(
      runIngest(
        {
          workDir,
          corpusFiles: objects,
          openCorpusFile: (p) => store.file(location, p),
          outputOf: (o) => path.join(workDir, o.path),
          progress: silentProgress,
          corpusLocation: location,
          previous: { dir: previous.versionDir, record: previous.record },
          interrupted
        },
        { readerVersion: codeVersion }
      ).pipe(Effect.withConfigProvider(ConfigProvider.fromJson({ INGEST_WORKERS: "0" })))
    )
    return { objects, result }
  }

  it("reads every object again under another ingest code version", async () => {
    const { objects, result } = await runStage(path.join(tmp, "other-code"), "another-code-version")
    expect(result.notes?.[0]).toBe(`${objects.length} corpus objects read, 0 reused from the previous version, 0 from an interrupted run`)
    expect(result.rowCounts).toEqual(previous.record.rowCounts)
  }, 120_000)

  it("resumes an interrupted run from the objects it finished (a folder without object.json is read again)", async () => {
    const workDir = path.join(tmp, "interrupted")
    const first = await runStage(workDir, "resumed-code-version")
    const unfinished = first.result.outputs.find((o) => o.startsWith(".ingest/") && o.endsWith("/object.json"))!
    await fs.rm(path.join(workDir, unfinished))
    const { objects, result } = await runStage(workDir, "resumed-code-version")
    expect(result.notes?.[0]).toBe(`1 corpus objects read, 0 reused from the previous version, ${objects.length - 1} from an interrupted run`)
    expect(result.rowCounts).toEqual(first.result.rowCounts)
    expect(result.contentHashes).toEqual(first.result.contentHashes)
    expect(result.skipped?.samples).toEqual(first.result.skipped?.samples)
  }, 120_000)

  it("takes over what an interrupted build of other code finished (a fix to a later stage after a crash)", async () => {
    const crashed = path.join(tmp, "crashed-other-build")
    const first = await runStage(crashed, "same-reader-code")
    const unfinished = first.result.outputs.find((o) => o.startsWith(".ingest/") && o.endsWith("/object.json"))!
    await fs.rm(path.join(crashed, unfinished))
    // Another build (its other stages' code changed, so another work folder), same reading code.
    const { objects, result } = await runStage(path.join(tmp, "fixed-build"), "same-reader-code", [crashed])
    expect(result.notes?.[0]).toBe(`1 corpus objects read, 0 reused from the previous version, ${objects.length - 1} from an interrupted run`)
    expect(result.contentHashes).toEqual(first.result.contentHashes)
    expect(result.rowCounts).toEqual(first.result.rowCounts)
    // Partitions written under other reading code are never taken.
    const other = await runStage(path.join(tmp, "other-reader"), "another-reader-code", [crashed])
    expect(other.result.notes?.[0]).toBe(`${objects.length} corpus objects read, 0 reused from the previous version, 0 from an interrupted run`)
  }, 180_000)
})
