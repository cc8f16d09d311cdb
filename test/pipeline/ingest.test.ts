/**
 * The ingest stage end to end on the bundled sample corpus: every published table exists, the
 * merge keeps one row per application, a build from S3 equals the build from the folder, and
 * bad files are skipped and counted without stopping the build.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { gzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Manifest } from "../../core/artifacts/manifest.ts"
import { CorpusStore } from "../../pipeline/corpus/CorpusStore.ts"
import { publishedTables } from "../../pipeline/ingest/published-tables.ts"
import { ingestStage } from "../../pipeline/ingest/stage.ts"
import { silentProgress } from "../../pipeline/stages/progress.ts"
import { runPipeline } from "../../pipeline/stages/runner.ts"
import { startLocalS3, uploadFolder } from "../support/s3.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const versionDir = await sampleArtifacts()
const sample = path.resolve("pipeline/sample-corpus")
let conn: Awaited<ReturnType<DuckDBInstance["connect"]>>
let manifest: Manifest

const query = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[]
const table = (name: string) => `read_parquet('${path.join(versionDir, "tables", `${name}.parquet`)}')`

beforeAll(async () => {
  const db = await DuckDBInstance.create(":memory:")
  conn = await db.connect()
  manifest = JSON.parse(await fs.readFile(path.join(versionDir, "manifest.json"), "utf8"))
})

const ingestRecord = () => manifest.stages.find((s) => s.name === "ingest")!

describe("ingest on the sample corpus", () => {
  it("publishes every table with rows", async () => {
    const rec = ingestRecord()
    for (const t of publishedTables) {
      expect(rec.outputs.map((o) => o.path)).toContain(`tables/${t.name}.parquet`)
      expect(rec.rowCounts[t.name], t.name).toBeGreaterThan(0)
    }
    expect(rec.inputs.length).toBeGreaterThan(100)
  })

  it("keeps one row per application, with digits-only numbers and the sources that contributed", async () => {
    const [{ n, distinct_n, bad }] = await query(
      `SELECT count(*) n, count(DISTINCT app_num) distinct_n, count(*) FILTER (WHERE NOT regexp_matches(app_num, '^\\d+$')) bad FROM ${table("applications")}`
    )
    expect(Number(n)).toBe(Number(distinct_n))
    expect(Number(bad)).toBe(0)
    expect(Number(n)).toBeGreaterThan(8000)
    const merged = await query(`SELECT count(*) n FROM ${table("applications")} WHERE len(sources) > 1`)
    expect(Number(merged[0].n)).toBeGreaterThan(0)
  })

  it("records the claims of applications with their dependencies", async () => {
    const rows = await query(
      `SELECT count(*) n, count(*) FILTER (WHERE is_independent) ind, count(*) FILTER (WHERE NOT is_independent AND len(depends_on) = 0) broken FROM ${table("claims")}`
    )
    expect(Number(rows[0].n)).toBeGreaterThan(2000)
    expect(Number(rows[0].ind)).toBeGreaterThan(200)
    expect(Number(rows[0].broken)).toBe(0)
  })

  it("writes a catalog that opens with any DuckDB client and names every table", async () => {
    const db = await DuckDBInstance.create(path.join(versionDir, "catalog.duckdb"), { access_mode: "READ_ONLY" })
    const c = await db.connect()
    const views = (await c.runAndReadAll("SELECT view_name FROM duckdb_views() WHERE NOT internal")).getRows().map((r) => r[0])
    for (const t of publishedTables) expect(views).toContain(t.name)
    const n = (await c.runAndReadAll("SELECT count(*) FROM applications")).getRows()[0][0]
    expect(Number(n)).toBe(ingestRecord().rowCounts.applications)
    c.closeSync()
    db.closeSync()
  })
})

describe("ingest from S3", () => {
  let s3: Awaited<ReturnType<typeof startLocalS3>>
  let tmp: string
  beforeAll(async () => {
    s3 = await startLocalS3("bulk")
    process.env.S3_ENDPOINT = s3.endpoint
    await uploadFolder(s3, "bulk", "corpus", sample)
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), "s3-build-"))
  })
  afterAll(async () => {
    await s3?.close()
    await fs.rm(tmp, { recursive: true, force: true })
  })

  it("builds the same tables (row counts and content hashes) as the folder build", async () => {
    const out = await Effect.runPromise(
      runPipeline({ corpus: "s3://bulk/corpus", artifactsRoot: tmp, stages: [ingestStage], progress: silentProgress }).pipe(
        Effect.provide(CorpusStore.Default)
      )
    )
    const remote = out.manifest.stages[0]
    const local = ingestRecord()
    expect(remote.rowCounts).toEqual(local.rowCounts)
    const hashes = (r: typeof local) => Object.fromEntries(r.outputs.map((o) => [o.path, o.contentHash]))
    expect(hashes(remote)).toEqual(hashes(local))
    expect(out.manifest.corpus.location).toBe("s3://bulk/corpus")
  }, 600_000)
})

describe("bad input", () => {
  let tmp: string
  beforeAll(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), "bad-corpus-"))
  })
  afterAll(() => fs.rm(tmp, { recursive: true, force: true }))

  it("skips a corrupt file and a malformed document, counts them with file and reason, and builds the rest", async () => {
    const corpus = path.join(tmp, "corpus")
    await fs.mkdir(path.join(corpus, "uspto", "grants"), { recursive: true })
    await fs.mkdir(path.join(corpus, "design-codes"), { recursive: true })
    await fs.copyFile(path.join(sample, "design-codes", "design-codes.tsv.gz"), path.join(corpus, "design-codes", "design-codes.tsv.gz"))
    await fs.copyFile(
      path.join(sample, "uspto", "grants", "go-uspto-v4-5-B2.xml.gz"),
      path.join(corpus, "uspto", "grants", "go-uspto-v4-5-B2.xml.gz")
    )
    await fs.writeFile(path.join(corpus, "uspto", "grants", "corrupt.xml.gz"), Buffer.from("this is not gzip at all"))
    const brokenDoc = `<?xml version="1.0" encoding="UTF-8"?>\n<us-patent-grant><us-bibliographic-data-grant><publication-reference><document-id><country>US</country><doc-number>0999</doc-number></document-id></publication-reference><unclosed></us-patent-grant>\n`
    await fs.writeFile(path.join(corpus, "uspto", "grants", "broken.xml.gz"), gzipSync(brokenDoc))
    const out = await Effect.runPromise(
      runPipeline({ corpus, artifactsRoot: path.join(tmp, "artifacts"), stages: [ingestStage], progress: silentProgress }).pipe(
        Effect.provide(CorpusStore.Default)
      )
    )
    const rec = out.manifest.stages[0]
    expect(rec.rowCounts.design_codes).toBeGreaterThan(1000)
    expect(rec.rowCounts.applications).toBeGreaterThanOrEqual(1)
    const files = rec.skipped.samples.map((s) => s.file)
    expect(files).toContain("uspto/grants/corrupt.xml.gz")
    expect(files).toContain("uspto/grants/broken.xml.gz")
    expect(rec.skipped.count).toBeGreaterThanOrEqual(2)
    for (const s of rec.skipped.samples) expect(s.reason.length).toBeGreaterThan(3)
  }, 120_000)
})
