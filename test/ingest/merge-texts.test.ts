/**
 * The merge takes text columns (titles, abstracts, claims, paragraphs, event descriptions,
 * office-action bodies) by the position of the winning raw row rather than inside the aggregate
 * (pipeline/ingest/published-tables.ts, fetchTexts). These partitions carry the cases where the position
 * could pick another row than the value did: duplicate keys in one document, a NULL value in the
 * first row and a value in a later one, blank text in the best source, one key in two objects.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { mergePartitions, type MergeInput } from "../../pipeline/ingest/merge.ts"
import { PartitionWriter } from "../../pipeline/ingest/partition.ts"

let tmp: string

type Row = Record<string, unknown>
type ObjectRows = ReadonlyArray<readonly ["application_records" | "claims" | "description_paragraphs" | "prosecution_events" | "office_actions", Row]>

const app = (app_num: string, source: string, fields: Row) => ["application_records", { app_num, source, source_file: "x", ...fields }] as const
const claim = (app_num: string, source: string, claim_num: number, text: string) =>
  ["claims", { app_num, source, claim_num, text, depends_on: [], is_independent: true }] as const
const paragraph = (app_num: string, source: string, seq: number, heading: string | null, text: string) =>
  ["description_paragraphs", { app_num, source, seq, para_num: null, heading, text }] as const
const event = (app_num: string, source: string, seq: number, description: string) =>
  ["prosecution_events", { app_num, source, seq, event_date: "2020-01-02", code: "CTNF", description }] as const
const action = (app_num: string, document_id: string, text: string) =>
  ["office_actions", { app_num, document_id, document_code: "CTNF", mail_date: "2020-01-02", text, source: "office-action" }] as const

/** Objects in corpus order: the application XML first, the grant (the better source) after it. */
const objects: ReadonlyArray<readonly [string, ObjectRows]> = [
  [
    "uspto/applications/a.xml",
    [
      app("100", "uspto-app-xml", { title: "Title from the application", abstract: "Abstract from the application" }),
      app("200", "uspto-app-xml", { title: "   ", abstract: null }),
      claim("100", "uspto-app-xml", 1, "claim 1 as filed"),
      paragraph("100", "uspto-app-xml", 0, "FILED", "paragraph as filed"),
      event("100", "uspto-app-xml", 0, "event as filed"),
      action("100", "OA-1", "first body of OA-1"),
      action("200", "OA-2", "only body of OA-2")
    ]
  ],
  [
    "uspto/grants/b.xml",
    [
      // The grant outranks the application but has no title: the title comes from the application.
      app("100", "uspto-grant-xml", { title: null, abstract: "Abstract from the grant" }),
      app("200", "uspto-grant-xml", { title: "", abstract: "  " }),
      claim("100", "uspto-grant-xml", 1, "claim 1 as granted"),
      claim("100", "uspto-grant-xml", 1, "claim 1 listed again"),
      claim("100", "uspto-grant-xml", 2, "claim 2 as granted"),
      // The first row of paragraph 0 has no heading and a later one has: heading and text come from different rows.
      paragraph("100", "uspto-grant-xml", 0, null, "paragraph 0 first row"),
      paragraph("100", "uspto-grant-xml", 0, "BACKGROUND", "paragraph 0 second row"),
      paragraph("100", "uspto-grant-xml", 1, null, "paragraph 1 without heading"),
      event("100", "uspto-grant-xml", 0, "event 0 first row"),
      event("100", "uspto-grant-xml", 0, "event 0 second row"),
      action("100", "OA-1", "second body of OA-1")
    ]
  ]
]

let tables: DuckDBInstance

const read = async (sql: string) => {
  const conn = await tables.connect()
  try {
    return (await conn.runAndReadAll(sql)).getRowObjectsJson()
  } finally {
    conn.closeSync()
  }
}

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "merge-texts-"))
  const writer = await PartitionWriter.open({ memoryLimit: "256MB", tempDirectory: path.join(tmp, "spill") })
  const inputs: MergeInput[] = []
  try {
    for (const [doc, [file, rows]] of objects.entries()) {
      const dir = path.join(tmp, "partitions", String(doc))
      await fs.mkdir(dir, { recursive: true })
      writer.begin(dir)
      for (const [table, row] of rows) writer.append(table, row, file)
      inputs.push({ path: file, doc, dir, rows: await writer.finish() })
    }
  } finally {
    writer.close()
  }
  await mergePartitions(path.join(tmp, "version"), inputs)
  tables = await DuckDBInstance.create(":memory:")
  const conn = await tables.connect()
  for (const t of ["applications", "claims", "description_paragraphs", "prosecution_events", "office_actions"])
    await conn.run(`CREATE VIEW ${t} AS SELECT * FROM read_parquet('${path.join(tmp, "version", "tables", `${t}.parquet`)}')`)
  conn.closeSync()
}, 60_000)

afterAll(async () => {
  tables?.closeSync()
  await fs.rm(tmp, { recursive: true, force: true })
})

describe("merge: text columns taken by position", () => {
  it("takes each application text from the best source that has one, column by column", async () => {
    expect(await read(`SELECT app_num, title, abstract FROM applications ORDER BY app_num`)).toEqual([
      { app_num: "100", title: "Title from the application", abstract: "Abstract from the grant" },
      { app_num: "200", title: null, abstract: null }
    ])
  })

  it("takes a document's first row for a repeated key, and a later row's value where the first has none", async () => {
    expect(await read(`SELECT claim_num, text, source FROM claims ORDER BY claim_num`)).toEqual([
      { claim_num: 1, text: "claim 1 as granted", source: "uspto-grant-xml" },
      { claim_num: 2, text: "claim 2 as granted", source: "uspto-grant-xml" }
    ])
    expect(await read(`SELECT seq, heading, text, source FROM description_paragraphs ORDER BY seq`)).toEqual([
      { seq: 0, heading: "BACKGROUND", text: "paragraph 0 first row", source: "uspto-grant-xml" },
      { seq: 1, heading: null, text: "paragraph 1 without heading", source: "uspto-grant-xml" }
    ])
    expect(await read(`SELECT seq, description FROM prosecution_events`)).toEqual([{ seq: 0, description: "event 0 first row" }])
  })

  it("takes an office action seen in two objects from the first", async () => {
    expect(await read(`SELECT document_id, app_num, text FROM office_actions ORDER BY document_id`)).toEqual([
      { document_id: "OA-1", app_num: "100", text: "first body of OA-1" },
      { document_id: "OA-2", app_num: "200", text: "only body of OA-2" }
    ])
  })
})
