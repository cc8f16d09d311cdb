/**
 * The nightly merge by entity (pipeline/ingest/merge.ts): starting from the tables an earlier
 * merge wrote, with one object added and one gone, it must write exactly what a whole merge of the
 * same partitions writes: every row of every table, the row counts and the content hashes. These
 * partitions carry the cases where an entity's rows depend on more than its own raw rows changing:
 * a publication that appears gives an older citation its cited application, an examiner's name
 * spelled another way is still one examiner, an application that loses its only source goes, and
 * a better source (a grant) replaces an application's claims.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { StageOutput } from "../../core/artifacts/manifest.ts"
import type { ReaderTableName } from "../../core/artifacts/tables.ts"
import { type MergedTables, mergePartitions, type MergeInput } from "../../pipeline/ingest/merge.ts"
import { PartitionWriter } from "../../pipeline/ingest/partition.ts"
import { publishedTables } from "../../pipeline/ingest/published-tables.ts"
import { tableRelation } from "../../core/artifacts/table-delta.ts"

type Row = Record<string, unknown>
type ObjectRows = ReadonlyArray<readonly [ReaderTableName, Row]>

const app = (app_num: string, source: string, fields: Row) => ["application_records", { app_num, source, source_file: "x", ...fields }] as const
const claim = (app_num: string, source: string, claim_num: number, text: string) =>
  ["claims", { app_num, source, claim_num, text, depends_on: [], is_independent: true }] as const
const cites = (citing_app: string, cited_doc: string, source: string) =>
  ["citations", { citing_app, cited_doc, source, examiner_cited: true, category: "cited by examiner" }] as const
const examiner = (full_name: string, app_num: string) => ["examiner_records", { full_name, app_num, art_unit: "2863", role: "primary", source: "uspto-grant-xml" }] as const
const parent = (child_app: string, parent_app: string) => ["continuity", { child_app, parent_app, relation: "CON", source: "uspto-app-xml" }] as const
const scheme = (symbol: string, title: string) => ["cpc_scheme", { symbol, level: 3, title, section: symbol[0] }] as const

/** Corpus order: the application file, tonight's grant file, and a grant file that is gone tonight. */
const A: readonly [string, ObjectRows] = [
  "uspto/applications/a.xml",
  [
    app("100", "uspto-app-xml", { pub_num: "20200000001", title: "Battery as filed" }),
    app("300", "uspto-app-xml", { pub_num: "20200000003", title: "Cell tab" }),
    claim("100", "uspto-app-xml", 1, "claim 1 as filed"),
    cites("300", "9000001", "uspto-app-xml"),
    cites("300", "20200000001", "uspto-app-xml"),
    parent("300", "100"),
    examiner("SMITH,  JOHN", "100"),
    scheme("H01M", "Batteries")
  ]
]
const TONIGHT: readonly [string, ObjectRows] = [
  "uspto/grants/b.xml",
  [
    app("100", "uspto-grant-xml", { pub_num: "9000002", kind: "B2", grant_date: "2021-03-02" }),
    app("200", "uspto-grant-xml", { pub_num: "9000001", kind: "B1", title: "Separator" }),
    claim("100", "uspto-grant-xml", 1, "claim 1 as granted"),
    claim("200", "uspto-grant-xml", 1, "a separator"),
    examiner("Smith, John", "200")
  ]
]
const GONE: readonly [string, ObjectRows] = [
  "uspto/grants/c.xml",
  [app("400", "uspto-grant-xml", { pub_num: "9000004", kind: "B1", title: "Anode" }), claim("400", "uspto-grant-xml", 1, "an anode"), cites("400", "20200000003", "uspto-grant-xml")]
]

let tmp: string

const writePartitions = async (objects: ReadonlyArray<readonly [string, ObjectRows]>) => {
  const writer = await PartitionWriter.open({ memoryLimit: "256MB", tempDirectory: path.join(tmp, "spill") })
  const out = new Map<string, MergeInput>()
  try {
    for (const [doc, [file, rows]] of objects.entries()) {
      const dir = path.join(tmp, "partitions", path.basename(file))
      await fs.mkdir(dir, { recursive: true })
      writer.begin(dir)
      for (const [table, row] of rows) writer.append(table, row, file)
      out.set(file, { path: file, doc, dir, rows: await writer.finish() })
    }
  } finally {
    writer.close()
  }
  return out
}

/** The merge's result as a manifest would record its tables. */
const records = async (version: string, merged: MergedTables) => {
  const out = new Map<string, StageOutput>()
  for (const rel of merged.outputs) {
    const name = path.basename(rel, ".parquet")
    const bytes = (await fs.stat(path.join(version, rel))).size
    out.set(rel, { path: rel, sha256: "", bytes, rows: merged.rowCounts[name], contentHash: merged.contentHashes[rel] })
  }
  return out
}

const tableRows = async (version: string) => {
  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  const out: Record<string, unknown> = {}
  for (const t of publishedTables) {
    out[t.name] = (await conn.runAndReadAll(`SELECT * FROM read_parquet('${path.join(version, "tables", `${t.name}.parquet`)}')`)).getRowObjectsJson()
  }
  conn.closeSync()
  db.closeSync()
  return out
}

/** Every table's rows as it reads (base and delta together), sorted: a table with a delta is in another order. */
const sortedTableRows = async (version: string) => {
  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  const out: Record<string, unknown> = {}
  for (const t of publishedTables) {
    out[t.name] = (await conn.runAndReadAll(`SELECT * FROM ${await tableRelation(conn, path.join(version, "tables", `${t.name}.parquet`))} ORDER BY ALL`)).getRowObjectsJson()
  }
  conn.closeSync()
  db.closeSync()
  return out
}

let whole: MergedTables
let byEntity: MergedTables
/** Tonight as deltas beside last night's tables, then a night that goes back to last night's corpus on top of them. */
let byDelta: MergedTables
let back: MergedTables
let earlier: MergedTables

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "merge-by-entity-"))
  const parts = await writePartitions([A, TONIGHT, GONE])
  const at = (file: string, doc: number) => ({ ...parts.get(file)!, doc })
  // Last night: the application file and the grant file that is gone tonight.
  const lastNight = path.join(tmp, "last-night")
  earlier = await mergePartitions(lastNight, [at(A[0], 0), at(GONE[0], 1)])
  // Tonight, both ways: tonight's grant file sorts between the two, so the gone file's place moves.
  const tonight = [at(A[0], 0), at(TONIGHT[0], 1)]
  // Delta files an interrupted run left behind must not be read with the tables this run writes.
  await fs.mkdir(path.join(tmp, "whole", "tables"), { recursive: true })
  for (const f of ["claims.delta.parquet", "claims.replaced.parquet"]) await fs.writeFile(path.join(tmp, "whole", "tables", f), "left by an interrupted run")
  whole = await mergePartitions(path.join(tmp, "whole"), tonight)
  byEntity = await mergePartitions(path.join(tmp, "by-entity"), tonight, {
    earlier: { dir: lastNight, tables: await records(lastNight, earlier), added: [parts.get(TONIGHT[0])!], gone: [parts.get(GONE[0])!] },
    entityMergeLimit: 1,
    tableDeltaLimit: 0
  })
  const deltas = path.join(tmp, "by-delta")
  byDelta = await mergePartitions(deltas, tonight, {
    earlier: { dir: lastNight, tables: await records(lastNight, earlier), added: [parts.get(TONIGHT[0])!], gone: [parts.get(GONE[0])!] },
    entityMergeLimit: 1,
    tableDeltaLimit: 100
  })
  back = await mergePartitions(path.join(tmp, "back"), [at(A[0], 0), at(GONE[0], 1)], {
    earlier: { dir: deltas, tables: await records(deltas, byDelta), added: [parts.get(GONE[0])!], gone: [parts.get(TONIGHT[0])!] },
    entityMergeLimit: 1,
    tableDeltaLimit: 100
  })
}, 60_000)

afterAll(() => fs.rm(tmp, { recursive: true, force: true }))

describe("merge by entity", () => {
  it("merges only the changed entities and links the tables nothing touched", () => {
    expect(byEntity.note).toMatch(/^merge: \d+ tables unchanged \(linked\), \d+ merged again for the changed entities only \(0 of them as a delta beside the earlier base\), 0 merged whole$/)
    expect(Object.keys(byEntity.linked)).toContain("tables/cpc_scheme.parquet")
    expect(Object.keys(byEntity.linked)).not.toContain("tables/claims.parquet")
  })

  it("writes the same rows, counts and content hashes as a whole merge", async () => {
    await expect(fs.access(path.join(tmp, "whole", "tables", "claims.delta.parquet"))).rejects.toThrow()
    expect(byEntity.rowCounts).toEqual(whole.rowCounts)
    expect(byEntity.contentHashes).toEqual(whole.contentHashes)
    expect(await tableRows(path.join(tmp, "by-entity"))).toEqual(await tableRows(path.join(tmp, "whole")))
  })

  it("as deltas beside the earlier tables, reads as the same rows, counts and hashes, night after night", async () => {
    expect(byDelta.note).toMatch(/merged again for the changed entities only \([1-9]\d* of them as a delta beside the earlier base\)/)
    expect(byDelta.outputs).toContain("tables/claims.delta.parquet")
    expect(byDelta.outputs).toContain("tables/claims.replaced.parquet")
    // The base is last night's file, linked.
    const ino = async (dir: string) => (await fs.stat(path.join(tmp, dir, "tables", "claims.parquet"))).ino
    expect(await ino("by-delta")).toBe(await ino("last-night"))
    expect(byDelta.rowCounts).toEqual(whole.rowCounts)
    expect(byDelta.contentHashes).toEqual(whole.contentHashes)
    expect(await sortedTableRows(path.join(tmp, "by-delta"))).toEqual(await sortedTableRows(path.join(tmp, "whole")))
    // The night after, from tables with deltas: still last night's base, and last night's tables again.
    expect(await ino("back")).toBe(await ino("last-night"))
    expect(back.rowCounts).toEqual(earlier.rowCounts)
    expect(back.contentHashes).toEqual(earlier.contentHashes)
    expect(await sortedTableRows(path.join(tmp, "back"))).toEqual(await sortedTableRows(path.join(tmp, "last-night")))
  })

  it("follows changes across entities: a new publication, a respelled examiner, a gone application, a better source", async () => {
    const t = (await tableRows(path.join(tmp, "by-entity"))) as Record<string, Array<Record<string, unknown>>>
    // 300 cited 9000001 before any application had it; tonight 200 does.
    expect(t.citations!.map((c) => [c.citing_app, c.cited_doc, c.cited_app])).toEqual([
      ["300", "20200000001", "100"],
      ["300", "9000001", "200"]
    ])
    expect(t.examiners!.map((e) => [e.full_name, e.application_count])).toEqual([["SMITH, JOHN", "2"]])
    expect(t.applications!.map((a) => a.app_num)).toEqual(["100", "200", "300"])
    expect(t.claims!.filter((c) => c.app_num === "100").map((c) => c.text)).toEqual(["claim 1 as granted"])
  })
})
