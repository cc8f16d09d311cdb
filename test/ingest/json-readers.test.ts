/**
 * The JSON corpus readers (ppubs, PEDS ST96, PEDS search, office actions) against the sample
 * corpus, with field values checked against the source records, plus synthetic files for the
 * per-record error policy and for streaming.
 */
import { Either, Schema } from "effect"
import { createReadStream } from "node:fs"
import { fileURLToPath } from "node:url"
import { createGunzip } from "node:zlib"
import { describe, expect, it } from "vitest"
import { readerTables, rowSchema } from "../../core/artifacts/tables.ts"
import type { CorpusFile, CorpusReader, SkipEvent } from "../../core/corpus/reader.ts"
import { appNum, cpcSymbol, isoDate, pubNum, surnameFirst } from "../../pipeline/ingest/readers/json-fields.ts"
import { officeActionReader, detectRejections } from "../../pipeline/ingest/readers/office-actions.ts"
import { pedsSearchReader } from "../../pipeline/ingest/readers/peds-search.ts"
import { pedsSt96Reader } from "../../pipeline/ingest/readers/peds-st96.ts"
import { parsePpubsContinuity, parseUsRef, ppubsBiblioReader, ppubsFulltextReader } from "../../pipeline/ingest/readers/ppubs.ts"
import { splitClaims, splitDescription } from "../../pipeline/ingest/readers/ppubs-text.ts"

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

const CORPUS = new URL("../../pipeline/sample-corpus/", import.meta.url)

const corpusFile = (path: string): CorpusFile => ({
  path,
  open: () => createReadStream(fileURLToPath(new URL(path, CORPUS))).pipe(createGunzip())
})

/** An in-memory file delivered in small chunks, so JSON tokens straddle chunk boundaries. */
const memoryFile = (path: string, text: string, chunk = 7): CorpusFile => ({
  path,
  open: async function* () {
    const bytes = Buffer.from(text)
    for (let i = 0; i < bytes.length; i += chunk) yield bytes.subarray(i, i + chunk)
  }
})

type AnyRow = Record<string, any>

interface ReadResult {
  readonly rows: Record<string, AnyRow[]>
  readonly skips: SkipEvent[]
}

const read = async (reader: CorpusReader, file: CorpusFile): Promise<ReadResult> => {
  const rows: Record<string, AnyRow[]> = {}
  const skips: SkipEvent[] = []
  for await (const e of reader(file)) {
    if (e.kind === "skip") skips.push(e)
    else (rows[e.table] ??= []).push(e.row as AnyRow)
  }
  return { rows, skips }
}

const once = <A>(f: () => Promise<A>) => {
  let p: Promise<A> | undefined
  return () => (p ??= f())
}

const tableRows = (r: ReadResult, table: string) => r.rows[table] ?? []
const byApp = (r: ReadResult, table: string, app: string) => tableRows(r, table).filter((x) => (x.app_num ?? x.citing_app) === app)

/** Every emitted row decodes with its table's row schema (required columns present, right types). */
const expectValidRows = (r: ReadResult) => {
  for (const [table, rows] of Object.entries(r.rows)) {
    const decode = Schema.decodeUnknownEither(rowSchema(readerTables[table as keyof typeof readerTables]) as unknown as Schema.Schema<unknown>)
    const bad = rows.filter((x) => Either.isLeft(decode(x)))
    expect(bad.slice(0, 3), `${table} rows failing the schema`).toEqual([])
  }
}

const DATE = /^\d{4}-\d{2}-\d{2}$/
const expectIsoDates = (rows: AnyRow[], ...cols: string[]) => {
  for (const row of rows) for (const c of cols) if (row[c] != null) expect(row[c]).toMatch(DATE)
}

// ---------------------------------------------------------------------------
// Field normalisers
// ---------------------------------------------------------------------------

describe("JSON field normalisers", () => {
  it("normalises every date form the sources use", () => {
    expect(isoDate("2017-09-26T00:00:00Z")).toBe("2017-09-26")
    expect(isoDate("2014-07-23T04:00:00Z")).toBe("2014-07-23")
    expect(isoDate("11-22-2017")).toBe("2017-11-22")
    expect(isoDate("2017-09-05")).toBe("2017-09-05")
    expect(isoDate("2018-10-17T00:00:000Z")).toBe("2018-10-17")
    expect(isoDate("2018-11-06 00:00:00")).toBe("2018-11-06")
    expect(isoDate("20190726")).toBe("2019-07-26")
    expect(isoDate("0001-01-01T05:00:00Z")).toBeNull()
    expect(isoDate("0000-12-30T05:00:00Z")).toBeNull()
    expect(isoDate(null)).toBeNull()
    expect(() => isoDate("2019-13-45")).toThrow(/unparseable/)
    expect(() => isoDate("next Tuesday")).toThrow(/unparseable/)
  })

  it("writes application numbers as digits", () => {
    expect(appNum("15/722320")).toBe("15722320")
    expect(appNum("08/042,978")).toBe("08042978")
    expect(appNum("D/380046")).toBe("29380046")
    expect(appNum(["13387278"])).toBe("13387278")
    expect(appNum("PCT/US18/35667")).toBeNull()
  })

  it("writes publication numbers without leading zeros, keeping D/PP/RE prefixes and 11-digit pre-grant numbers", () => {
    expect(pubNum("RE028436")).toBe("RE28436")
    expect(pubNum("D0645062")).toBe("D645062")
    expect(pubNum("PP003823")).toBe("PP3823")
    expect(pubNum("06095661")).toBe("6095661")
    expect(pubNum("2010/0181061")).toBe("20100181061")
    expect(pubNum("US20190064347A1")).toBe("20190064347")
    expect(pubNum("US Re. 40731")).toBe("RE40731")
  })

  it("writes examiner names surname first in upper case, the way PEDS does", () => {
    expect(surnameFirst("PARK, HYUN D")).toBe("PARK, HYUN D")
    expect(surnameFirst("O'Shea; Sandra")).toBe("O'SHEA, SANDRA")
    expect(surnameFirst("Vaughn, Jr.; William C")).toBe("VAUGHN JR, WILLIAM C")
    expect(surnameFirst("TYNES JR., LAWRENCE C")).toBe("TYNES JR, LAWRENCE C")
    expect(surnameFirst("HAMMOND  III, THOMAS M")).toBe("HAMMOND III, THOMAS M")
    expect(surnameFirst("TERENCE E STIFTER JR")).toBe("STIFTER JR, TERENCE E")
    expect(surnameFirst("Anita Nassiri-Motlagh")).toBe("NASSIRI-MOTLAGH, ANITA")
  })

  it("normalises CPC symbols to the no-space form", () => {
    expect(cpcSymbol("B60N 2/5657")).toBe("B60N2/5657")
    expect(cpcSymbol("C08F210/16 20130101")).toBe("C08F210/16")
    expect(cpcSymbol("F24F008/167")).toBe("F24F8/167")
    expect(cpcSymbol("not a symbol")).toBeNull()
  })
})

// ---------------------------------------------------------------------------
// ppubs text splitting (units) and continuity / citation parsing
// ---------------------------------------------------------------------------

describe("ppubs claims and description HTML", () => {
  it("splits claims on their numbers, keeps multi-line claims whole and leaves canceled ranges out", () => {
    const claims = splitClaims(
      "<b>1</b>.-<b>6</b>. (canceled) <br /> <b>7</b>. A flashlight, comprising:<br />(a) a housing;<br />(b) 2. LEDs. <br /> <b>8</b>) The flashlight of claim 7, wherein the housing is metal. <br /> <b>9</b>. The flashlight of any of claims 7-8."
    )
    expect(claims.map((c) => c.num)).toEqual([7, 8, 9])
    expect(claims[0].text).toBe("A flashlight, comprising:\n(a) a housing;\n(b) 2. LEDs.")
    expect(claims[0].dependsOn).toEqual([])
    expect(claims[1].dependsOn).toEqual([7])
    expect(claims[2].dependsOn).toEqual([7, 8])
  })

  it("reads reissue markers and unnumbered design claims", () => {
    expect(splitClaims(".Iadd.17. A system..Iaddend.<br /> .Iadd.18. The system of claim 17..Iaddend.").map((c) => c.num)).toEqual([17, 18])
    expect(splitClaims("The ornamental design for a gripping arm, as shown and described.")).toEqual([
      { num: 1, text: "The ornamental design for a gripping arm, as shown and described.", dependsOn: [] }
    ])
    expect(splitClaims("<claim-text/>")).toEqual([])
  })

  it("numbers grant paragraphs across sections and takes headings from captions", () => {
    const paras = splitDescription([
      { html: "CROSS-REFERENCE TO RELATED APPLICATIONS\n(1) This application is a division.", newlineIsBreak: true },
      { html: "BACKGROUND<br />Technical Field<br />(1) The disclosure relates to seats.<br />(2) Seats exist." },
      { html: "BRIEF DESCRIPTION OF THE DRAWINGS<br />(1) FIG. 1 is a view.<br />x = y + 2<br />(2) FIG. 2 is another view." }
    ])
    expect(paras.map((p) => [p.paraNum, p.heading, p.text])).toEqual([
      ["0001", "CROSS-REFERENCE TO RELATED APPLICATIONS", "This application is a division."],
      ["0002", "Technical Field", "The disclosure relates to seats."],
      ["0003", "Technical Field", "Seats exist."],
      ["0004", "BRIEF DESCRIPTION OF THE DRAWINGS", "FIG. 1 is a view."],
      [null, "BRIEF DESCRIPTION OF THE DRAWINGS", "x = y + 2"],
      ["0005", "BRIEF DESCRIPTION OF THE DRAWINGS", "FIG. 2 is another view."]
    ])
  })

  it("keeps published [dddd] numbers and splits runs of them on one line", () => {
    const paras = splitDescription([{ html: "FIELD<br />[0006] Known from: [0007] Smith, 2001. [0008] Jones, 2002.<br />[0009] See [0012] below." }])
    expect(paras.map((p) => [p.paraNum, p.text])).toEqual([
      ["0006", "Known from:"],
      ["0007", "Smith, 2001."],
      ["0008", "Jones, 2002."],
      ["0009", "See [0012] below."]
    ])
  })

  it("parses structured and prose continuity, leaving PCT parents out", () => {
    const rel = (entries: string[], self: string) => parsePpubsContinuity(entries, self).map((r) => [r.child, r.parent, r.relation, r.parentFilingDate])
    expect(rel(["division parent-doc US 16523162 20190726 US 10967768 child-doc US 17143605\n<br />"], "17143605")).toEqual([
      ["17143605", "16523162", "DIV", "2019-07-26"]
    ])
    expect(rel(["parent US continuation-in-part 10597631 00 20060802 PENDING", "child US 12342091"], "12342091")).toEqual([
      ["12342091", "10597631", "CIP", "2006-08-02"]
    ])
    expect(rel(["continuation parent-doc US PCT/US2021/041988 20210716 PENDING child-doc US 17546565"], "17546565")).toEqual([])
    expect(rel(["This application is a continuation-in-part of previously filed application Ser. No. 08/042,978, filed Apr. 5, 1993."], "08207976")).toEqual([
      ["08207976", "08042978", "CIP", null]
    ])
    expect(rel(["This application claims the benfit of U.S. Provisional Application No. 60/053,770, filed Jul. 25, 1997."], "09089931")).toEqual([
      ["09089931", "60053770", "PRO", null]
    ])
  })

  it("parses cited US references with and without a citation category", () => {
    expect(parseUsRef("US 5385382 A Single, II 19950100 cited by examiner A47C 7/74 297/180.13")).toEqual({
      doc: "5385382", kind: "A", date: null, category: "cited by examiner"
    })
    expect(parseUsRef("US 20100181061 A1 Ozeki 20100700 cited by applicant")?.doc).toBe("20100181061")
    expect(parseUsRef("US PP003823 19751223 cited by other")).toEqual({ doc: "PP3823", kind: null, date: "1975-12-23", category: "cited by other" })
    expect(parseUsRef("4208579 19800600 Scrivo 250/227")).toEqual({ doc: "4208579", kind: null, date: null, category: null })
  })
})

// ---------------------------------------------------------------------------
// ppubs full text
// ---------------------------------------------------------------------------

describe("ppubs full-text reader on the sample file", () => {
  const result = once(() => read(ppubsFulltextReader, corpusFile("uspto/ppubs/ppubs-fulltext.json.gz")))

  it("reads all 47 documents: 37 with an application number, 10 OCR scans without one skipped", async () => {
    const r = await result()
    expect(tableRows(r, "application_records")).toHaveLength(37)
    expect(r.skips).toHaveLength(10)
    expect(r.skips.every((s) => /OCR-scanned/.test(s.reason))).toBe(true)
    expect(r.skips[0].file).toBe("uspto/ppubs/ppubs-fulltext.json.gz")
    expect(r.skips.map((s) => s.position)).toContain("record 37 (guid US-T949002-I4)")
    expectValidRows(r)
    expectIsoDates(tableRows(r, "application_records"), "filing_date", "pub_date", "grant_date", "status_date")
  })

  it("reads US 11,554,698 B2 (application 17/143605) as published", async () => {
    const r = await result()
    const [app] = byApp(r, "application_records", "17143605")
    expect(app).toMatchObject({
      pub_num: "11554698", kind: "B2", doc_type: "utility", title: "Vehicle seat", filing_date: "2021-01-07", pub_date: "2023-01-17",
      grant_date: "2023-01-17", country: "US", examiner: "GABLER, PHILIP F", art_unit: "3636", status: "granted",
      assignees: ["TOYOTA JIDOSHA KABUSHIKI KAISHA"], inventors: ["Shiga, Kazuyuki"], source: "ppubs-fulltext"
    })
    expect(app.abstract).toMatch(/^A vehicle seat includes a seat main body having a seat back/)
    expect(byApp(r, "examiner_records", "17143605")).toEqual([
      { full_name: "GABLER, PHILIP F", art_unit: "3636", app_num: "17143605", role: "primary", source: "ppubs-fulltext" }
    ])
  })

  it("splits its claims with dependencies", async () => {
    const claims = byApp(await result(), "claims", "17143605")
    expect(claims.map((c) => c.claim_num)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14])
    expect(claims.filter((c) => c.is_independent).map((c) => c.claim_num)).toEqual([1, 6])
    expect(claims[1]).toMatchObject({ claim_num: 2, depends_on: [1], is_independent: false })
    expect(claims[1].text).toMatch(/^The vehicle seat of claim 1, wherein the damper device includes one or more dampers/)
  })

  it("reads its description, CPC, citations and continuity", async () => {
    const r = await result()
    const paras = byApp(r, "description_paragraphs", "17143605")
    expect(paras[0]).toMatchObject({ seq: 0, para_num: "0001", heading: "CROSS-REFERENCE TO RELATED APPLICATIONS" })
    expect(paras[0].text).toMatch(/^This application is a Divisional Patent Application of U\.S\. patent application Ser\. No\. 16\/523,162/)
    expect(paras[1]).toMatchObject({ seq: 1, para_num: "0002", heading: "Technical Field" })
    expect(paras.map((p) => p.seq)).toEqual(paras.map((_, i) => i))

    expect(byApp(r, "cpc_assignments", "17143605").map((c) => [c.symbol, c.is_inventive, c.is_main])).toEqual([
      ["B60N2/01", true, true], ["B60N2/5628", true, false], ["B60N2/5657", true, false]
    ])

    const cites = byApp(r, "citations", "17143605")
    expect(cites).toHaveLength(13)
    expect(cites.find((c) => c.cited_doc === "5385382")).toMatchObject({ examiner_cited: true, category: "cited by examiner", cited_kind: "A", citing_filing_year: 2021 })
    expect(cites.find((c) => c.cited_doc === "4258555")).toMatchObject({ examiner_cited: false, category: "cited by applicant" })
    expect(cites.find((c) => c.cited_doc === "20100181061")).toMatchObject({ examiner_cited: true, cited_kind: "A1" })

    expect(tableRows(r, "continuity").filter((c) => c.child_app === "17143605")).toEqual([
      { child_app: "17143605", parent_app: "16523162", relation: "DIV", parent_filing_date: "2019-07-26", source: "ppubs-fulltext" }
    ])
  })

  it("reads pre-grant publication 2016/0009839 (application 14/775837)", async () => {
    const r = await result()
    expect(byApp(r, "application_records", "14775837")[0]).toMatchObject({ pub_num: "20160009839", kind: "A1", status: "published", grant_date: null })
    const para = byApp(r, "description_paragraphs", "14775837").find((p) => p.para_num === "0008")
    expect(para).toMatchObject({ heading: "BRIEF DESCRIPTION OF THE DRAWINGS", text: "These drawings illustrate certain aspects of the present invention and do not limit or define the invention." })
    const cpc = byApp(r, "cpc_assignments", "14775837")
    // "C08F210/16" is listed twice as inventive and once as additional: one row, inventive and main.
    expect(cpc.filter((c) => c.symbol === "C08F210/16")).toEqual([
      { app_num: "14775837", source: "ppubs-fulltext", symbol: "C08F210/16", subclass: "C08F", section: "C", is_inventive: true, is_main: true }
    ])
    expect(cpc.find((c) => c.symbol === "C08F2500/05")).toMatchObject({ is_inventive: false, is_main: false })
    const claims = byApp(r, "claims", "14775837")
    expect(claims.map((c) => c.claim_num)).toEqual([...Array(20).keys()].map((i) => i + 1)) // 21-25 canceled
    expect(claims[11]).toMatchObject({ claim_num: 12, depends_on: [11] })
    expect(tableRows(r, "continuity").filter((c) => c.child_app === "14775837")).toEqual([
      { child_app: "14775837", parent_app: "61790730", relation: "PRO", parent_filing_date: "2013-03-15", source: "ppubs-fulltext" }
    ])
  })

  it("reads a reissue's continuity chain and a design patent's single claim", async () => {
    const r = await result()
    expect(byApp(r, "application_records", "12480556")[0]).toMatchObject({ pub_num: "RE43633", kind: "E", doc_type: "reissue" })
    expect(tableRows(r, "continuity").filter((c) => ["12480556", "08676890", "11064519"].includes(c.child_app)).map((c) => [c.child_app, c.parent_app, c.relation])).toEqual([
      ["12480556", "08676890", "REI"], ["08676890", "11064519", "CON"], ["11064519", "08197157", "CON"]
    ])
    expect(byApp(r, "application_records", "29380046")[0]).toMatchObject({ pub_num: "D645062", kind: "S", doc_type: "design" })
    expect(byApp(r, "claims", "29380046")).toEqual([
      { app_num: "29380046", source: "ppubs-fulltext", claim_num: 1, text: "The ornamental design for a gripping arm, as shown and described.", depends_on: [], is_independent: true }
    ])
  })
})

// ---------------------------------------------------------------------------
// ppubs biblio
// ---------------------------------------------------------------------------

describe("ppubs biblio reader on the sample file", () => {
  const result = once(() => read(ppubsBiblioReader, corpusFile("uspto/ppubs/ppubs-biblio.json.gz")))

  it("reads every hit: the README's 5,628 camelCase hits plus 209 snake_case hits; the 40 OCR scans are skipped", async () => {
    const r = await result()
    const apps = tableRows(r, "application_records")
    // The file holds 5,877 hits: 5,628 in the classic shape and 249 in ppubs' newer snake_case shape.
    expect(apps.length + r.skips.length).toBe(5877)
    expect(r.skips).toHaveLength(40)
    expect(r.skips.every((s) => /OCR-scanned/.test(s.reason))).toBe(true)
    expect(apps).toHaveLength(5837)
    expect(tableRows(r, "claims")).toHaveLength(0)
    expectValidRows(r)
    expectIsoDates(apps, "filing_date", "pub_date", "grant_date")
  })

  it("reads US 11,558,672 B1 (application 13/681055) without its search highlighting", async () => {
    const r = await result()
    expect(byApp(r, "application_records", "13681055")[0]).toMatchObject({
      pub_num: "11558672", kind: "B1", title: "System for providing new content related to content currently being accessed",
      filing_date: "2012-11-19", pub_date: "2023-01-17", examiner: "HUYNH, AN SON P", assignees: ["Cox Communications, Inc."], source: "ppubs-biblio"
    })
    expect(byApp(r, "cpc_assignments", "13681055")[0]).toMatchObject({ symbol: "H04N21/61", is_inventive: true, is_main: true })
    const cites = byApp(r, "citations", "13681055")
    expect(cites).toHaveLength(110)
    expect(cites.every((c) => c.examiner_cited === false && c.category === "unknown")).toBe(true)
    expect(cites[0]).toMatchObject({ cited_doc: "6177931", cited_country: "US", citing_filing_year: 2012 })
  })

  it("reads the snake_case hit for US 11,803,561 B1 (application 14/231597)", async () => {
    const r = await result()
    expect(byApp(r, "application_records", "14231597")[0]).toMatchObject({
      pub_num: "11803561", kind: "B1", title: "Approximation query", filing_date: "2014-03-31", pub_date: "2023-10-31",
      examiner: "PILLIPS III, ALBERT M", assignees: ["Amazon Technologies, Inc."]
    })
    expect(byApp(r, "examiner_records", "14231597").map((e) => [e.full_name, e.role])).toEqual([
      ["PILLIPS III, ALBERT M", "primary"], ["MINCEY, JERAMINE A", "assistant"]
    ])
    expect(byApp(r, "cpc_assignments", "14231597").map((c) => c.symbol)).toEqual(["G06F16/313", "G06F16/2462"])
  })
})

// ---------------------------------------------------------------------------
// PEDS ST96
// ---------------------------------------------------------------------------

describe("PEDS ST96 reader on the sample file", () => {
  const result = once(() => read(pedsSt96Reader, corpusFile("peds/uva-seed-set-examinations.json.gz")))

  it("reads all 2,373 applications", async () => {
    const r = await result()
    expect(r.skips).toEqual([])
    expect(new Set(tableRows(r, "application_records").map((a) => a.app_num)).size).toBe(2373)
    expectValidRows(r)
    expectIsoDates(tableRows(r, "application_records"), "filing_date", "pub_date", "grant_date", "status_date")
    expectIsoDates(tableRows(r, "prosecution_events"), "event_date")
  })

  it("reads application 15/695467 with examiner, art unit, status and publication", async () => {
    const r = await result()
    expect(byApp(r, "application_records", "15695467")).toEqual([
      expect.objectContaining({
        title: "System and Method for Detecting Misidentified Hydrometeors in Weather Radar Data", filing_date: "2017-09-05",
        examiner: "PARK, HYUN D", art_unit: "2865", status: "On Appeal -- Awaiting Decision by the Board of Appeals",
        status_date: "2022-03-08", pub_num: "20190064347", kind: "A1", pub_date: "2019-02-28", grant_date: null,
        doc_type: "utility", assignees: ["Athenium LLC"], inventors: ["Jones, Justin", "Cecelski, Stefan Francis", "Munchak, Leigh Ann"]
      })
    ])
    expect(byApp(r, "examiner_records", "15695467")).toEqual([
      { full_name: "PARK, HYUN D", art_unit: "2865", app_num: "15695467", role: null, source: "peds-st96" }
    ])
  })

  it("orders its 74 transactions oldest first with their codes", async () => {
    const events = byApp(await result(), "prosecution_events", "15695467")
    expect(events).toHaveLength(74)
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i))
    expect(events[0].event_date).toBe("2017-09-05")
    expect(events[73]).toMatchObject({ event_date: "2022-07-07", code: "APNH.MI" })
    expect(events.filter((e) => e.code === "CTNF").map((e) => e.event_date)).toEqual(["2019-09-16", "2020-07-06"])
    expect(events.find((e) => e.code === "CTFR")).toMatchObject({ event_date: "2020-03-17", description: "Final Rejection" })
    expect(events.find((e) => e.code === "RCEX")).toMatchObject({ event_date: "2020-06-17" })
    const dates = events.map((e) => e.event_date)
    expect(dates).toEqual([...dates].sort())
  })

  it("reads its parent continuation and leaves its PCT child out", async () => {
    const r = await result()
    const rows = tableRows(r, "continuity").filter((c) => c.child_app === "15695467" && c.relation === "CON")
    expect(rows).toEqual([{ child_app: "15695467", parent_app: "15690746", relation: "CON", parent_filing_date: "2017-08-30", source: "peds-st96" }])
    expect(tableRows(r, "continuity").some((c) => /PCT/.test(c.child_app + c.parent_app))).toBe(false)
  })

  it("gives a patented case one row for its pre-grant publication and one for its patent", async () => {
    const rows = byApp(await result(), "application_records", "15718605")
    expect(rows.map((a) => [a.pub_num, a.kind, a.pub_date, a.grant_date])).toEqual([
      ["20190094415", "A1", "2019-03-28", "2020-04-14"],
      ["10620342", null, "2020-04-14", "2020-04-14"]
    ])
    expect(rows[0]).toMatchObject({ title: "MICROSCOPIC IMAGER FOR AIRCRAFT CLOUD CONDITION DETECTION", status: "Patented Case" })
  })
})

// ---------------------------------------------------------------------------
// PEDS search API
// ---------------------------------------------------------------------------

describe("PEDS search reader on the sample file", () => {
  const result = once(() => read(pedsSearchReader, corpusFile("peds/patent-client-peds-apps.json.gz")))

  it("reads all 754 records: 702 US applications, 52 PCT applications skipped", async () => {
    const r = await result()
    expect(new Set(tableRows(r, "application_records").map((a) => a.app_num)).size).toBe(702)
    expect(r.skips).toHaveLength(52)
    expect(r.skips.every((s) => /PCT international application/.test(s.reason))).toBe(true)
    expect(r.skips[0].position).toMatch(/^record \d+ \(applId PCT\//)
    expectValidRows(r)
    expectIsoDates(tableRows(r, "prosecution_events"), "event_date")
  })

  it("reads design application 29/619066", async () => {
    const r = await result()
    expect(byApp(r, "application_records", "29619066")).toEqual([
      expect.objectContaining({
        title: "SIDE CONSOLE", examiner: "BAHTA, ABRAHAM", art_unit: "2913", doc_type: "design", filing_date: "2017-09-26",
        status: "Patented Case", status_date: "2018-10-17", pub_num: "D832766", grant_date: "2018-11-06",
        assignees: ["Tesla, Inc."], inventors: ["Von Holzhausen, Franz", "Lampkin, Ivan", "Grappey, Pascal"]
      })
    ])
    const events = byApp(r, "prosecution_events", "29619066")
    expect(events).toHaveLength(27)
    expect(events[0]).toMatchObject({ seq: 0, event_date: "2017-09-26", code: "IEXX" })
    expect(events[26]).toMatchObject({ seq: 26, event_date: "2018-11-06", code: "PGM/", description: "Recordation of Patent Grant Mailed" })
  })

  it("emits parent relations and the child relations listed on a parent", async () => {
    const rows = tableRows(await result(), "continuity").filter((c) => c.child_app === "14410009" || c.parent_app === "14410009")
    expect(rows).toContainEqual({ child_app: "14410009", parent_app: "61850561", relation: "PRO", parent_filing_date: "2013-02-20", source: "peds-search" })
    expect(rows).toContainEqual({ child_app: "15605453", parent_app: "14410009", relation: "OTHER", parent_filing_date: "2014-12-19", source: "peds-search" })
    expect(rows).toContainEqual({ child_app: "15605453", parent_app: "14410009", relation: "DIV", parent_filing_date: "2014-12-19", source: "peds-search" })
  })
})

// ---------------------------------------------------------------------------
// Office actions
// ---------------------------------------------------------------------------

describe("office-action reader on the sample file", () => {
  const result = once(() => read(officeActionReader, corpusFile("peds/uva-seed-set-office-actions.json.gz")))

  it("reads all 14 office actions", async () => {
    const r = await result()
    expect(r.skips).toEqual([])
    expect(tableRows(r, "office_actions")).toHaveLength(14)
    expectValidRows(r)
  })

  it("reads the 2014 non-final rejection of application 13/387278", async () => {
    const r = await result()
    const oa = tableRows(r, "office_actions").find((o) => o.document_id === "1ce9eda142b88c876ebf8d870170da6ff607d8eaa51f13d242742d1c")
    expect(oa).toMatchObject({
      app_num: "13387278", document_code: "CTNF", mail_date: "2014-07-23", art_unit: "2864", examiner_employee_number: "79185",
      rejection_101: true, rejection_102: false, rejection_103: false, rejection_112: false, rejection_dp: false
    })
    expect(oa!.text).toMatch(/Claims 1-10 and 12-13 are rejected under 35 U\.S\.C\. 101/)
    expect(byApp(r, "examiner_records", "13387278")).toEqual([
      { full_name: "LE, TOAN", art_unit: "2864", employee_number: "79185", app_num: "13387278", role: "primary", source: "office-action" }
    ])
    expect(byApp(r, "application_records", "13387278")[0]).toMatchObject({ title: "METHOD AND SYSTEM FOR PRODUCING CLIMATE CRISIS INDEX", filing_date: "2012-01-26", grant_date: null })
  })

  it("flags 101, 103 and 112 rejections in application 16/602945's non-final action, none in allowances", async () => {
    const r = await result()
    expect(tableRows(r, "office_actions").find((o) => o.document_id.startsWith("cd3d868c"))).toMatchObject({
      document_code: "CTNF", rejection_101: true, rejection_102: false, rejection_103: true, rejection_112: true
    })
    for (const noa of tableRows(r, "office_actions").filter((o) => o.document_code === "NOA")) {
      expect([noa.rejection_101, noa.rejection_102, noa.rejection_103, noa.rejection_112, noa.rejection_dp]).toEqual([false, false, false, false, false])
    }
  })

  it("detects rejection bases from headings and statements, not from quoted statutes", () => {
    expect(
      detectRejections(
        "35 U.S.C. 102 reads as follows:\nClaims 1-3 are rejected under 35 U.S.C. 102(a)(1) as anticipated by Smith or, in the alternative, under 35 U.S.C. 103 as obvious.\nDouble Patenting\nClaims 1-3 are rejected on the ground of nonstatutory double patenting over US 9,000,000."
      )
    ).toEqual({ rejection_101: false, rejection_102: true, rejection_103: true, rejection_112: false, rejection_dp: true })
    expect(detectRejections("Applicant's arguments with respect to the rejection of claims 1-9 under 35 U.S.C. 101 are not persuasive.")).toEqual({
      rejection_101: false, rejection_102: false, rejection_103: false, rejection_112: false, rejection_dp: false
    })
  })
})

// ---------------------------------------------------------------------------
// Malformed records and streaming (synthetic files)
// ---------------------------------------------------------------------------

describe("malformed records are skipped, the rest of the file is read", () => {
  const reasons = (r: ReadResult) => r.skips.map((s) => [s.position, s.reason])

  it("ppubs full text", async () => {
    const good = { guid: "US-1-B1", type: "USPAT", applicationNumber: "16/000001", applicationFilingDate: ["2019-01-02T00:00:00Z"], datePublished: "2021-01-05T00:00:00Z", publicationReferenceDocumentNumber: "11000001", claimsHtml: "1. A widget." }
    const text = JSON.stringify([good, 42, { ...good, guid: "US-2-B1", datePublished: "sometime" }, { guid: "US-3-B1", type: "USPAT" }])
    const r = await read(ppubsFulltextReader, memoryFile("uspto/ppubs/x.json", text))
    expect(tableRows(r, "application_records").map((a) => a.app_num)).toEqual(["16000001"])
    expect(tableRows(r, "claims")).toHaveLength(1)
    expect(reasons(r)).toEqual([
      ["record 1", "record is not a JSON object"],
      ["record 2 (guid US-2-B1)", 'unparseable publication date "sometime"'],
      ["record 3 (guid US-3-B1)", "no US application number"]
    ])
  })

  it("ppubs biblio (both hit shapes)", async () => {
    const text = JSON.stringify([
      { guid: "US-4-B2", applicationNumber: "15/722320", applicationFilingDate: ["2017-10-02T00:00:00Z"], urpn: ["6177931"] },
      { guid: "US-5-B1", appl_id: "14/231597", app_filing_date: "2014-03-31", kind_code: "B1", cpc_inventive: ["G06F16/313"] },
      { guid: "US-6-B1", kind_code: "B1", app_filing_date: "31 March" },
      null
    ])
    const r = await read(ppubsBiblioReader, memoryFile("uspto/ppubs/y.json", text))
    expect(tableRows(r, "application_records").map((a) => a.app_num)).toEqual(["15722320", "14231597"])
    expect(tableRows(r, "citations")).toHaveLength(1)
    expect(reasons(r)).toEqual([
      ["record 2 (guid US-6-B1)", 'unparseable filing date "31 March"'],
      ["record 3", "record is not a JSON object"]
    ])
  })

  it("PEDS ST96", async () => {
    const meta = (app: string, extra: object = {}) => ({ patentCaseMetadata: { applicationNumberText: { value: app }, filingDate: "2019-01-02", ...extra } })
    const text = JSON.stringify([
      { ...meta("16000001"), prosecutionHistoryDataBag: { prosecutionHistoryData: [{ eventDate: "2019-02-01", eventCode: "CTNF", eventDescriptionText: "Non-Final Rejection" }] } },
      "not a record",
      meta(""),
      { ...meta("16000002"), prosecutionHistoryDataBag: { prosecutionHistoryData: [{ eventDate: "02/31/2019", eventCode: "CTNF" }] } },
      { other: 1 }
    ])
    const r = await read(pedsSt96Reader, memoryFile("peds/st96.json", text))
    expect(tableRows(r, "application_records").map((a) => a.app_num)).toEqual(["16000001"])
    expect(tableRows(r, "prosecution_events")).toEqual([
      { app_num: "16000001", seq: 0, event_date: "2019-02-01", code: "CTNF", description: "Non-Final Rejection", source: "peds-st96" }
    ])
    expect(reasons(r)).toEqual([
      ["record 1", "record is not a JSON object"],
      ["record 2", "no application number"],
      ["record 3 (applicationNumber 16000002)", 'unparseable transaction date "02/31/2019"'],
      ["record 4", "no patentCaseMetadata"]
    ])
  })

  it("PEDS search", async () => {
    const text = JSON.stringify([
      { applId: "16000001", appFilingDate: "2019-01-02T00:00:00Z", transactions: [{ recordDate: "2019-02-01 00:00:00", code: "NOA", description: "Notice of Allowance Mailed" }] },
      [1, 2],
      { applId: "PCT/US18/35667" },
      { applId: "16000002", appFilingDate: "yesterday" },
      { patentTitle: "no number" }
    ])
    const r = await read(pedsSearchReader, memoryFile("peds/search.json", text))
    expect(tableRows(r, "application_records").map((a) => a.app_num)).toEqual(["16000001"])
    expect(tableRows(r, "prosecution_events")[0]).toMatchObject({ code: "NOA", event_date: "2019-02-01" })
    expect(reasons(r)).toEqual([
      ["record 1", "record is not a JSON object"],
      ["record 2 (applId PCT/US18/35667)", "PCT international application PCT/US18/35667, not a US application number"],
      ["record 3 (applId 16000002)", 'unparseable filing date "yesterday"'],
      ["record 4", "no application number"]
    ])
  })

  it("office actions", async () => {
    const body = ["Claims 1-3 are rejected under 35 U.S.C. 112(b) as indefinite."]
    const text = JSON.stringify([
      { id: "a1", patentApplicationNumber: ["16000001"], legacyDocumentCodeIdentifier: ["CTNF"], submissionDate: "2020-01-02T05:00:00Z", bodyText: body },
      { id: "a2", bodyText: body },
      { id: "a3", patentApplicationNumber: ["16000003"], submissionDate: "31/31/2020", bodyText: body },
      { id: "a4", patentApplicationNumber: ["16000004"], bodyText: [] },
      true
    ])
    const r = await read(officeActionReader, memoryFile("peds/oa.json", text))
    expect(tableRows(r, "office_actions")).toEqual([
      expect.objectContaining({ app_num: "16000001", document_id: "a1", document_code: "CTNF", mail_date: "2020-01-02", rejection_112: true, rejection_103: false })
    ])
    expect(reasons(r)).toEqual([
      ["record 1 (id a2)", "no application number"],
      ["record 2 (id a3)", 'unparseable mail date "31/31/2020"'],
      ["record 3 (id a4)", "no body text"],
      ["record 4", "record is not a JSON object"]
    ])
  })

  it("a file that is not a JSON array is unreadable as a whole", async () => {
    await expect(read(pedsSearchReader, memoryFile("peds/obj.json", '{"applId": "16000001"}'))).rejects.toThrow()
  })
})

describe("streaming", () => {
  it("yields the first record's rows long before the rest of the file has been read", async () => {
    const total = 5000
    let produced = 0
    const file: CorpusFile = {
      path: "peds/big.json",
      open: async function* () {
        yield Buffer.from("[")
        for (let i = 0; i < total; i++) {
          produced++
          const rec = { applId: String(16000000 + i), appFilingDate: "2019-01-02T00:00:00Z", patentTitle: "x".repeat(2000) }
          yield Buffer.from((i ? "," : "") + JSON.stringify(rec))
        }
        yield Buffer.from("]")
      }
    }
    let producedAtFirstRow = -1
    for await (const e of pedsSearchReader(file)) {
      if (e.kind === "row") {
        producedAtFirstRow = produced
        break
      }
    }
    expect(producedAtFirstRow).toBeGreaterThan(0)
    expect(producedAtFirstRow).toBeLessThan(total / 2)
  })
})
