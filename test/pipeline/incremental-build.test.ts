/**
 * Nightly builds under a pinned encoder (issue 17): a build over a grown or changed corpus keeps
 * the earlier version's encoder and map frame, encodes only new and changed applications, takes
 * the other vectors and map places over, and gives the same vectors, coordinates and frame as a
 * from-scratch build of the same corpus with the same pinned encoder (ENCODER_PIN). RETRAIN=1 and
 * the drift rule train a new encoder.
 */
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api"
import { ConfigProvider, Effect } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { tableRelation } from "../../core/artifacts/table-delta.ts"
import { keyedVectorsSql } from "../../pipeline/embed/embeddings.ts"
import { lexicalAnswers, titleQueries } from "../support/lexical-answers.ts"
import { answersEqual, storedDocuments } from "../support/serving-answers.ts"
import { sha256OfFile } from "../../core/artifacts/files.ts"
import type { StageRecord } from "../../core/artifacts/manifest.ts"
import { CorpusStore } from "../../pipeline/corpus/CorpusStore.ts"
import { embedStage } from "../../pipeline/embed/stage.ts"
import { encoderStage } from "../../pipeline/encoder/stage.ts"
import { documentsStage } from "../../pipeline/documents/stage.ts"
import { guidanceStage } from "../../pipeline/guidance/stage.ts"
import { prosecutionStage } from "../../pipeline/prosecution/stage.ts"
import { servingStage } from "../../pipeline/serving/stage.ts"
import { ingestStage } from "../../pipeline/ingest/stage.ts"
import { lexicalStage } from "../../pipeline/lexical/stage.ts"
import { mapStage } from "../../pipeline/map/stage.ts"
import { silentProgress } from "../../pipeline/stages/progress.ts"
import { runPipeline } from "../../pipeline/stages/runner.ts"
import { type Matches, type Quantization, viewIndex } from "../../core/index/hnsw.ts"
import { VECTOR_FILE } from "../../core/index/vector-file.ts"

const sample = path.resolve("pipeline/sample-corpus")
const FIRST_NIGHT = [
  "cpc/cpc-section-D_20250501.txt.gz",
  "uspto/applications/go-uspto-v4-4-A1.xml.gz",
  "uspto/grants/patentsview-ipg050104.small.xml.gz",
  "uspto/grants/patentsview-ipg060103.small.xml.gz",
  "uspto/grants/patentsview-ipg080101.small.xml.gz",
  "uspto/grants/patentsview-ipg100105.small.xml.gz",
  "uspto/grants/patentsview-ipg110104.small.xml.gz",
  "uspto/grants/patentsview-ipg120103.xml.gz"
]
/** The next night's new file. */
const ADDED = "uspto/grants/patentsview-ipg070102.small.xml.gz"
/** Rewritten the next night (same path, another file's content). */
const CHANGED = "uspto/grants/patentsview-ipg080101.small.xml.gz"
const CHANGED_TO = "uspto/grants/patentsview-ipg090106.small.xml.gz"
/** PEDS histories: the first night's (art units 2855–2865), and the next night's across 237 art units. */
const FIRST_PEDS = "peds/uva-seed-set-examinations.json.gz"
const ADDED_PEDS = "peds/patent-client-peds-apps.json.gz"

let tmp: string

const copyInto = async (corpus: string, rel: string, from = rel) => {
  await fs.mkdir(path.dirname(path.join(corpus, rel)), { recursive: true })
  await fs.copyFile(path.join(sample, from), path.join(corpus, rel))
}

const stagesOf = { search: [ingestStage, encoderStage, embedStage, mapStage, lexicalStage, guidanceStage], served: [ingestStage, encoderStage, embedStage, mapStage, lexicalStage, documentsStage, prosecutionStage, servingStage, guidanceStage] }

const build = (corpus: string, root: string, settings: Record<string, string> = {}, stages: keyof typeof stagesOf = "search") =>
  Effect.runPromise(
    runPipeline({ corpus, artifactsRoot: path.join(tmp, root), stages: stagesOf[stages], progress: silentProgress }).pipe(
      Effect.provide(CorpusStore.Default),
      Effect.withConfigProvider(
        ConfigProvider.fromJson({ ENCODER: "lsa", INGEST_WORKERS: "1", MAP_SAMPLE: "60", ...settings }).pipe(ConfigProvider.orElse(() => ConfigProvider.fromEnv()))
      )
    )
  )

const stage = (m: { stages: ReadonlyArray<StageRecord> }, name: string) => m.stages.find((s) => s.name === name)!
const notes = (m: { stages: ReadonlyArray<StageRecord> }, name: string) => (stage(m, name).notes ?? []).join(" | ")

/** Rows of a query over one version's Parquet file (or a relation made with the connection), as JSON lines sorted by key. */
const rowsOf = async (file: string | ((conn: DuckDBConnection) => Promise<string>), select: string) => {
  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  try {
    const from = typeof file === "string" ? `read_parquet('${file}')` : await file(conn)
    const rows = (await conn.runAndReadAll(`SELECT ${select} FROM ${from} ORDER BY key`)).getRowsJS()
    return rows.map((r) => JSON.stringify(r, (_, v) => (typeof v === "bigint" ? String(v) : v)))
  } finally {
    conn.closeSync()
    db.closeSync()
  }
}

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "incremental-build-"))
})
afterAll(() => fs.rm(tmp, { recursive: true, force: true }))

describe("a nightly build under the pinned encoder", () => {
  let corpus: string
  let first: Awaited<ReturnType<typeof build>>
  let next: Awaited<ReturnType<typeof build>>

  beforeAll(async () => {
    corpus = path.join(tmp, "corpus")
    for (const rel of [...FIRST_NIGHT, FIRST_PEDS]) await copyInto(corpus, rel)
    first = await build(corpus, "nightly", {}, "served")
    await copyInto(corpus, ADDED)
    await copyInto(corpus, ADDED_PEDS)
    await copyInto(corpus, CHANGED, CHANGED_TO)
    // The drift limit is raised: this corpus grows by far more than a tenth in one night.
    // So is the index's extension limit, for the same reason: the graph of the first night is extended.
    // And the merge by entity's: its change lists are what the later stages of a real night read.
    // And the serving deltas': the night's record files and stored documents are deltas beside the first night's.
    // And the lexical delta's: the night's postings go beside the first night's. And the tables' (and
    // embeddings'): they are deltas beside the first night's files.
    next = await build(
      corpus,
      "nightly",
      { ENCODER_DRIFT: "5", INDEX_EXTEND_LIMIT: "5", ENTITY_MERGE_LIMIT: "5", SERVING_DELTA_LIMIT: "5", LEXICAL_DELTA_LIMIT: "5", TABLE_DELTA_LIMIT: "5" },
      "served"
    )
  }, 300_000)

  it("keeps the encoder and the map frame, and encodes only new and changed applications", async () => {
    expect(notes(first.manifest, "encoder")).toMatch(/trained: no earlier encoder/)
    expect(notes(next.manifest, "encoder")).toMatch(/encoder pinned/)
    // The same model files (hard-linked), the same frame.
    for (const f of ["encoder/model.onnx", "encoder/vocab.json"]) {
      expect((await fs.stat(path.join(next.versionDir, f))).ino, f).toBe((await fs.stat(path.join(first.versionDir, f))).ino)
    }
    for (const f of ["map/frame.json", "map/frame.f32"]) {
      expect(await sha256OfFile(path.join(next.versionDir, f)), f).toBe(await sha256OfFile(path.join(first.versionDir, f)))
    }
    const taken = /(\d+) vectors taken over from the earlier version \(same encoder, same text\); (\d+) encoded/.exec(notes(next.manifest, "embed"))
    expect(taken, notes(next.manifest, "embed")).not.toBeNull()
    const [reused, encoded] = [Number(taken![1]), Number(taken![2])]
    expect(reused).toBeGreaterThan(100)
    expect(encoded).toBeGreaterThan(10)
    expect(reused + encoded).toBe(stage(next.manifest, "embed").rowCounts.vectors)
    expect(notes(next.manifest, "embed")).toMatch(new RegExp(`graph of ${path.basename(first.versionDir)} extended: ${encoded} added`))
    // Ingest merged the night by entity, and its change lists spared embed the unchanged applications' texts.
    expect(notes(next.manifest, "ingest")).toMatch(/merged again for the changed entities only/)
    const read = /texts read for (\d+) of (\d+) applications/.exec(notes(next.manifest, "embed"))
    expect(read, notes(next.manifest, "embed")).not.toBeNull()
    expect(Number(read![1])).toBeLessThan(Number(read![2]))
    expect(Number(read![1])).toBeGreaterThanOrEqual(encoded)
    // The extended graph answers with this version's rows: a row's own vector finds that row (or a
    // row with the same vector: a duplicate text) first, as often as an approximate index does.
    const indexDir = path.join(next.versionDir, "index")
    const info = JSON.parse(await fs.readFile(path.join(indexDir, "index.json"), "utf8")) as { dims: number; count: number; quantization: Quantization }
    const index = viewIndex(path.join(indexDir, "hnsw.usearch"), info.dims, info.quantization)
    const unit = new Float32Array((await fs.readFile(path.join(indexDir, VECTOR_FILE))).buffer.slice(0))
    let found = 0
    for (let row = 0; row < info.count; row++) {
      const nearest = index.search(unit.slice(row * info.dims, (row + 1) * info.dims), 1) as Matches
      if (nearest.keys.length === 1 && nearest.distances[0]! < 1e-5) found++
    }
    expect(found / info.count).toBeGreaterThanOrEqual(0.95)
  })

  it("equals a from-scratch build of the same corpus with the same pinned encoder", async () => {
    const scratch = await build(corpus, "scratch", { ENCODER_PIN: first.versionDir }, "served")
    expect(notes(scratch.manifest, "embed")).toMatch(/^\d+ vectors encoded/)
    // The night's postings are a delta beside the first night's, and answer as tokenising every text does.
    expect(notes(next.manifest, "lexical")).toMatch(/^[1-9]\d* documents kept from the earlier version \(same tokeniser, same text\); [1-9]\d* tokenised, [1-9]\d* given up/)
    expect(notes(next.manifest, "lexical")).toMatch(/title and abstract read for [1-9]\d* applications: the others are unchanged/)
    expect(notes(next.manifest, "lexical")).toMatch(/[1-9]\d* of documents added since, in postings.delta.bin/)
    expect(notes(scratch.manifest, "lexical")).toMatch(/^\d+ documents tokenised/)
    expect((await fs.stat(path.join(next.versionDir, "lexical/postings.bin"))).ino).toBe((await fs.stat(path.join(first.versionDir, "lexical/postings.bin"))).ino)
    const queries = [...(await titleQueries(scratch.versionDir)), "a semiconductor device with a gate electrode", "method of wireless communication between a base station and a terminal"]
    const [nightLexical, scratchLexical] = await Promise.all([lexicalAnswers(next.versionDir, queries), lexicalAnswers(scratch.versionDir, queries)])
    expect(nightLexical.answers.filter((a) => a.hits.length > 0).length).toBeGreaterThan(30)
    expect(nightLexical).toEqual(scratchLexical)
    const lexicalDocs = (dir: string) => rowsOf(path.join(dir, "lexical", "lexical_docs.parquet"), "app_num AS key, len, text_hash")
    expect(await lexicalDocs(next.versionDir)).toEqual(await lexicalDocs(scratch.versionDir))
    for (const f of ["encoder/model.onnx", "index/vectors.f32", "map/frame.json", "map/frame.f32"]) {
      expect(await sha256OfFile(path.join(scratch.versionDir, f)), f).toBe(await sha256OfFile(path.join(next.versionDir, f)))
    }
    for (const t of ["applications", "claims"]) {
      const out = (m: typeof next.manifest) => stage(m, "ingest").outputs.find((o) => o.path === `tables/${t}.parquet`)!.contentHash
      expect(out(scratch.manifest), t).toBe(out(next.manifest))
    }
    // The night's embeddings are a delta beside the first night's.
    expect(notes(next.manifest, "embed")).toMatch(/embeddings: the earlier base linked and a delta of [1-9]\d* vectors written beside it/)
    const vectors = (dir: string) => rowsOf((conn) => keyedVectorsSql(conn, dir), "key, app_num, text_hash, vector")
    expect(await vectors(scratch.versionDir)).toEqual(await vectors(next.versionDir))
    const coords = (dir: string) => rowsOf(path.join(dir, "map", "coordinates.parquet"), "key, app_num, x, y, z, fitted")
    expect(await coords(scratch.versionDir)).toEqual(await coords(next.versionDir))
    // The night's record files and stored documents are deltas beside the first night's files, and answer as the full write does.
    expect(notes(next.manifest, "serving")).toMatch(/serving\/claims: \d+ records, the base file linked and a delta of [1-9]\d* keys written/)
    expect(notes(next.manifest, "serving")).toMatch(/serving\/applications: \d+ records, the base file linked/)
    expect(notes(next.manifest, "documents")).toMatch(/stored.bin linked from the earlier version/)
    // Prosecution facts of the listed applications only, beside the first night's; the statistics equal the full computation's.
    expect(notes(next.manifest, "prosecution")).toMatch(/facts of [1-9]\d* applications computed again \(ingest's change lists\), the others' taken over from .*: deltas beside the earlier files/)
    expect(notes(scratch.manifest, "prosecution")).toMatch(/facts of every application computed/)
    // Only the examiners whose applications changed (the next night's PEDS histories) get their application lists built again.
    const rebuilt = /application lists and document codes of (\d+) examiners built again/.exec(notes(next.manifest, "prosecution"))
    const examiners = /of (\d+) examiners have applications/.exec(notes(next.manifest, "prosecution"))
    expect(Number(rebuilt?.[1])).toBeGreaterThan(0)
    expect(Number(rebuilt?.[1])).toBeLessThan(Number(examiners?.[1]))
    const facts = (dir: string) => rowsOf((conn) => tableRelation(conn, path.join(dir, "prosecution", "application_facts.parquet")), "app_num AS key, *")
    expect(await facts(next.versionDir)).toEqual(await facts(scratch.versionDir))
    for (const f of ["cpc_routing", "art_unit_profiles", "examiner_statistics"]) {
      const key = { cpc_routing: "symbol", art_unit_profiles: "art_unit", examiner_statistics: "examiner_id" }[f]
      const rows = (dir: string) => rowsOf(path.join(dir, "prosecution", `${f}.parquet`), `${key} AS key, *`)
      expect(await rows(next.versionDir), f).toEqual(await rows(scratch.versionDir))
    }
    await answersEqual(next.versionDir, scratch.versionDir, [first.versionDir])
    expect(await storedDocuments(next.versionDir)).toEqual(await storedDocuments(scratch.versionDir))
  }, 300_000)

  it("trains a new encoder under RETRAIN=1, and when the corpus drifted past ENCODER_DRIFT", async () => {
    const retrained = await build(corpus, "nightly", { RETRAIN: "true" })
    expect(retrained.upToDate).toBe(false)
    expect(notes(retrained.manifest, "encoder")).toMatch(/trained: RETRAIN=1/)
    expect(notes(retrained.manifest, "embed")).toMatch(/^\d+ vectors encoded/)
    expect(notes(retrained.manifest, "map")).toMatch(/UMAP fitted/)
    // A build of the first night's corpus from scratch, then the grown corpus under the default rule.
    const drifted = path.join(tmp, "drift-corpus")
    for (const rel of FIRST_NIGHT) await copyInto(drifted, rel)
    await build(drifted, "drift")
    // 25 more utility grants on 135: more than a tenth.
    await copyInto(drifted, ADDED)
    const grown = await build(drifted, "drift")
    expect(notes(grown.manifest, "encoder")).toMatch(/trained: drift: \d+ applications against \d+ at training/)
  }, 300_000)
})
