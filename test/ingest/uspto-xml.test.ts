import { createReadStream, mkdtempSync, readdirSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createGunzip, gzipSync } from "node:zlib"
import { describe, expect, it } from "vitest"
import type { CorpusFile, ReaderEvent, RowEvent, SkipEvent } from "../../core/corpus/reader.ts"
import { usptoXmlReader } from "../../pipeline/ingest/readers/uspto-xml/index.ts"
import { cpcFromText, examinerName, isoDate, patentNumber } from "../../pipeline/ingest/readers/uspto-xml/normalize.ts"
import { splitDocuments } from "../../pipeline/ingest/readers/uspto-xml/split.ts"

const CORPUS = join(import.meta.dirname, "../../pipeline/sample-corpus")

/** A CorpusFile over a local path, gunzipped like the corpus store does for .gz names. */
const localFile = (path: string, root = CORPUS): CorpusFile => ({
  path,
  open: () => {
    const raw = createReadStream(join(root, path))
    return path.endsWith(".gz") ? raw.pipe(createGunzip()) : raw
  }
})

/** A CorpusFile whose bytes arrive in chunks of the given size (to exercise split boundaries). */
const chunkedFile = (path: string, bytes: Buffer, size: number): CorpusFile => ({
  path,
  open: async function* () {
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size)
  }
})

interface Read {
  readonly rows: Record<string, Array<Record<string, unknown>>>
  readonly skips: SkipEvent[]
}

const read = async (file: CorpusFile): Promise<Read> => {
  const rows: Record<string, Array<Record<string, unknown>>> = {}
  const skips: SkipEvent[] = []
  for await (const e of usptoXmlReader(file) as AsyncIterable<ReaderEvent>) {
    if (e.kind === "skip") skips.push(e)
    else (rows[(e as RowEvent).table] ??= []).push((e as RowEvent).row as Record<string, unknown>)
  }
  return { rows, skips }
}

const readSample = (path: string) => read(localFile(path))
const claim = (r: Read, n: number) => r.rows.claims.find((c) => c.claim_num === n)!
const gunzipped = async (path: string) => {
  const parts: Buffer[] = []
  for await (const c of localFile(path).open()) parts.push(Buffer.from(c))
  return Buffer.concat(parts)
}

describe("us-patent-grant v4.5 (US 9,358,892 B1)", async () => {
  const r = await readSample("uspto/grants/go-uspto-v4-5-B1.xml.gz")
  const rec = r.rows.application_records[0]

  it("reads the bibliographic record", () => {
    expect(r.rows.application_records).toHaveLength(1)
    expect(rec).toMatchObject({
      app_num: "14558596",
      source: "uspto-grant-xml",
      source_file: "uspto/grants/go-uspto-v4-5-B1.xml.gz",
      pub_num: "9358892",
      kind: "B1",
      doc_type: "utility",
      title: "System and method for pre-charging a hybrid vehicle for improving reverse driving performance",
      filing_date: "2014-12-02",
      pub_date: "2016-06-07",
      grant_date: "2016-06-07",
      country: "US",
      examiner: "NGUYEN, CUONG H",
      art_unit: "3663",
      status: "granted"
    })
    expect(rec.assignees).toEqual(["Toyota Motor Engineering & Manufacturing North America, Inc."])
    expect(rec.inventors).toEqual(["Geoffrey D. Gaither"])
    expect(rec.abstract).toMatch(/^A method\/system is provided for improving reverse hill climb performance of a hybrid vehicle\./)
  })

  it("reads all 20 claims with their claim-ref dependencies", () => {
    expect(r.rows.claims).toHaveLength(20)
    expect(claim(r, 1).text).toMatch(/^A pre-charging system for improving reverse direction hill climb performance of a hybrid vehicle, comprising: a battery/)
    expect(claim(r, 1)).toMatchObject({ depends_on: [], is_independent: true })
    expect(claim(r, 2)).toMatchObject({ depends_on: [1], is_independent: false })
    expect(claim(r, 2).text).toMatch(/^The pre-charging system of claim 1, wherein/)
  })

  it("reads main and further CPC with the inventive / additional flag", () => {
    const cpc = Object.fromEntries(r.rows.cpc_assignments.map((c) => [c.symbol, c]))
    expect(cpc["B60L11/1809"]).toMatchObject({ subclass: "B60L", section: "B", is_main: true, is_inventive: true })
    expect(cpc["G01C21/26"]).toMatchObject({ is_main: false, is_inventive: true })
    expect(cpc["B60K2350/1076"]).toMatchObject({ is_main: false, is_inventive: false })
    // The CPC printed next to a citation (B60K 6/40) belongs to the cited patent, not this one.
    expect(cpc["B60K6/40"]).toBeUndefined()
  })

  it("reads patent citations with the examiner flag", () => {
    const byDoc = Object.fromEntries(r.rows.citations.map((c) => [c.cited_doc, c]))
    expect(byDoc["7653474"]).toMatchObject({ examiner_cited: true, category: "cited by examiner", cited_kind: "B2", cited_date: "2010-01-01", cited_country: "US", citing_filing_year: 2014 })
    expect(byDoc["5856709"]).toMatchObject({ examiner_cited: false, category: "cited by applicant" })
  })

  it("reads description paragraphs with printed numbers and headings", () => {
    const paras = r.rows.description_paragraphs
    expect(paras[0]).toMatchObject({ seq: 0, para_num: "0001", heading: "BACKGROUND", text: "1. Field" })
    expect(paras[1].text).toBe("The present invention relates to methods and systems for managing a charging operation of a hybrid vehicle.")
    expect(paras.every((p, i) => p.seq === i && String(p.text).length > 0)).toBe(true)
  })

  it("records the primary examiner", () => {
    expect(r.rows.examiner_records).toEqual([
      { full_name: "NGUYEN, CUONG H", art_unit: "3663", app_num: "14558596", role: "primary", source: "uspto-grant-xml" }
    ])
  })
})

describe("PATDOC v2.5 grant (US 6,530,116 B2)", async () => {
  const r = await readSample("uspto/grants/go-uspto-v2-5-B2.xml.gz")

  it("reads the SDOBI record and examiner", () => {
    expect(r.rows.application_records[0]).toMatchObject({
      app_num: "09782496",
      pub_num: "6530116",
      kind: "B2",
      doc_type: "utility",
      title: "Vacuum cleaner with muffled detachable blower exhaust",
      filing_date: "2001-02-13",
      grant_date: "2003-03-11",
      assignees: ["Shop Vac Corporation"],
      inventors: ["Robert C. Berfield", "Ronald Griffin", "Craig Seasholtz"],
      examiner: "SNIDER, THERESA T",
      art_unit: "1744"
    })
  })

  it("reads CLM claims with CLREF dependencies and claim steps joined", () => {
    expect(r.rows.claims).toHaveLength(20)
    expect(claim(r, 1).text).toMatch(/^A vacuum cleaner comprising: a housing having a housing passage with a passage inlet, air entering/)
    expect(claim(r, 4)).toMatchObject({ depends_on: [3], is_independent: false })
    expect(claim(r, 3).text).toBe(
      "The vacuum cleaner according to claim 1, wherein: the housing comprises a cover and a base, the cover secured to the base to define the housing passage therebetween."
    )
  })

  it("reads B561 citations (not the B562 literature) with CITED-BY-EXAMINER", () => {
    expect(r.rows.citations).toHaveLength(33)
    const byDoc = Object.fromEntries(r.rows.citations.map((c) => [c.cited_doc, c]))
    expect(byDoc["2884185"]).toMatchObject({ examiner_cited: true, category: "cited by examiner", cited_date: "1959-04-01" })
    expect(byDoc["2276844"]).toMatchObject({ examiner_cited: false, category: "cited by other" })
    expect(byDoc["461861"]).toMatchObject({ cited_country: "CA" })
  })

  it("reads description paragraphs under their H headings, entities decoded", () => {
    const paras = r.rows.description_paragraphs
    expect(paras[0]).toMatchObject({ heading: "FIELD OF THE INVENTION", para_num: null })
    expect(paras.find((p) => String(p.text).startsWith("FIG. 2 is a sectional view"))!.text).toContain("taken along line 2—2")
  })

  it("keeps the D prefix of a v2.5 design patent", async () => {
    const d = await readSample("uspto/grants/go-uspto-v2-5-S1.xml.gz")
    expect(d.rows.application_records[0]).toMatchObject({ app_num: "29129833", pub_num: "D452599", doc_type: "design", examiner: "DOUGLAS, ALAN P" })
  })
})

describe("us-patent-application v4.6 (US 2023/0080311 A1)", async () => {
  const r = await readSample("uspto/applications/go-uspto-US20230080311A1-20230316.XML.gz")

  it("reads the publication record", () => {
    expect(r.rows.application_records[0]).toMatchObject({
      app_num: "17931943",
      source: "uspto-app-xml",
      pub_num: "20230080311",
      kind: "A1",
      title: "Method of improving methyltransferase activity",
      filing_date: "2022-09-14",
      pub_date: "2023-03-16",
      grant_date: null,
      examiner: null,
      status: "published",
      assignees: ["Danmarks Tekniske Universitet"]
    })
  })

  it("reads claims, CPC and the divisional parent", () => {
    expect(r.rows.claims).toHaveLength(39)
    const cpc = Object.fromEntries(r.rows.cpc_assignments.map((c) => [c.symbol, c]))
    expect(cpc["C12N9/1007"]).toMatchObject({ is_main: true, is_inventive: true })
    expect(cpc["C12Y201/01004"]).toMatchObject({ is_main: false, is_inventive: true })
    expect(cpc["C12Y205/01048"]).toMatchObject({ is_inventive: false })
    expect(r.rows.continuity).toEqual([
      { child_app: "17931943", parent_app: "16326974", relation: "DIV", parent_filing_date: "2019-02-21", source: "uspto-app-xml" }
    ])
  })
})

describe("patent-application-publication (pre-2005 pa files)", () => {
  it("reads the pa040101 publication with printed paragraph numbers", async () => {
    const r = await readSample("uspto/applications/patentsview-pa040101.two.xml.gz")
    expect(r.rows.application_records[0]).toMatchObject({
      app_num: "10189364",
      pub_num: "20040000002",
      kind: "A1",
      title: "Garment for preventing muscle strain",
      filing_date: "2002-06-27",
      pub_date: "2004-01-01",
      inventors: ["Scott Hollander"],
      assignees: ["Hill-Rom Services, Inc."]
    })
    expect(r.rows.claims).toHaveLength(1)
    expect(claim(r, 1).text).toMatch(/^A garment for releasably securing a user's hands at a fixed location along the user's body, comprising: an upper portion/)
    const p = r.rows.description_paragraphs[1]
    expect(p).toMatchObject({ para_num: "0002", heading: "BACKGROUND OF THE INVENTION" })
    expect(p.text).toMatch(/^The present invention relates to a garment/)
  })

  it("reads dependent-claim-reference dependencies (v1.5)", async () => {
    const r = await readSample("uspto/applications/go-uspto-v1-5-A1_2.xml.gz")
    expect(r.rows.application_records[0]).toMatchObject({ app_num: "09726341", pub_num: "20010000002" })
    expect(r.rows.claims).toHaveLength(33)
    expect(claim(r, 2)).toMatchObject({ depends_on: [], is_independent: true })
    expect(claim(r, 5)).toMatchObject({ depends_on: [4], is_independent: false })
    expect(claim(r, 5).text).toMatch(/^The process of claim 4, further comprising: determining that a change/)
  })
})

describe("design grants and continuity chains", () => {
  it("keeps design prefixes on the patent and on cited design patents; publication numbers as digits", async () => {
    const r = await readSample("uspto/grants/patentsview-2009_1.xml.gz")
    expect(r.rows.application_records[0]).toMatchObject({ pub_num: "D586076", doc_type: "design", app_num: "29297569" })
    const cited = r.rows.citations.map((c) => c.cited_doc)
    expect(cited).toContain("D59760")
    expect(cited).toContain("20040137123")
  })

  it("takes each link of a continuity chain from its own child-doc", async () => {
    const r = await readSample("uspto/grants/patentsview-ipg130416.xml.gz")
    const chain = r.rows.continuity.filter((c) => ["13302302", "12946926", "11472019", "10027295"].includes(String(c.child_app)))
    expect(chain).toContainEqual({ child_app: "13302302", parent_app: "12946926", relation: "CON", parent_filing_date: "2010-11-16", source: "uspto-grant-xml" })
    expect(chain).toContainEqual(expect.objectContaining({ child_app: "10027295", parent_app: "08926532", relation: "DIV" }))
  })
})

describe("weekly files", () => {
  it("splits concatenated documents and skips sequence listings", async () => {
    const r = await readSample("uspto/grants/patentsview-ipg060103.small.xml.gz")
    expect(r.rows.application_records).toHaveLength(25)
    expect(r.skips.map((s) => s.reason)).toEqual(["not a patent document (<sequence-cwu>)", "not a patent document (<sequence-cwu>)"])
    expect(r.skips[0].position).toMatch(/^document 13 \(byte \d+\)$/)
  })

  it("finds the same documents whatever the chunk boundaries", async () => {
    const path = "uspto/grants/patentsview-ipg120327.18.xml.gz"
    const bytes = await gunzipped(path)
    const offsets = async (size: number) => {
      const docs = []
      for await (const d of splitDocuments(chunkedFile(path, bytes, size).open())) docs.push([d.index, d.byteOffset, d.bytes?.length])
      return docs
    }
    const whole = await offsets(bytes.length)
    expect(whole).toHaveLength(18)
    for (const size of [1, 3, 5, 6, 7, 4096]) expect(await offsets(size)).toEqual(whole)
  })

  it("reports a malformed document and goes on with the next", async () => {
    const good = (app: string, pub: string) => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE us-patent-grant SYSTEM "us-patent-grant-v42-2006-08-23.dtd" [ ]>
<us-patent-grant lang="EN" country="US"><us-bibliographic-data-grant>
<publication-reference><document-id><country>US</country><doc-number>${pub}</doc-number><kind>B2</kind><date>20120103</date></document-id></publication-reference>
<application-reference appl-type="utility"><document-id><country>US</country><doc-number>${app}</doc-number><date>20100101</date></document-id></application-reference>
<invention-title id="t">Widget &mgr;-sensor with &unknownentity; &#x2014; &lt;improved&gt;</invention-title>
</us-bibliographic-data-grant>
<claims id="claims"><claim id="CLM-00001" num="00001"><claim-text>1. A widget comprising H<sub>2</sub>O and <i>x</i>.</claim-text></claim></claims>
</us-patent-grant>
`
    const broken = `<?xml version="1.0" encoding="UTF-8"?>
<us-patent-grant><us-bibliographic-data-grant><invention-title>Broken</title></us-bibliographic-data-grant></us-patent-grant>
`
    const dir = mkdtempSync(join(tmpdir(), "uspto-xml-"))
    const body = good("12345678", "08000001") + broken + good("12345679", "08000002")
    writeFileSync(join(dir, "three.xml.gz"), gzipSync(body))
    const r = await read(localFile("three.xml.gz", dir))
    expect(r.rows.application_records.map((a) => a.app_num)).toEqual(["12345678", "12345679"])
    expect(r.rows.application_records[0]).toMatchObject({ pub_num: "8000001", title: "Widget μ-sensor with — <improved>" })
    expect(r.rows.claims[0]).toMatchObject({ claim_num: 1, text: "A widget comprising H2O and x." })
    expect(r.skips).toHaveLength(1)
    expect(r.skips[0]).toMatchObject({ file: "three.xml.gz", position: `document 2 (byte ${Buffer.byteLength(good("12345678", "08000001"))})` })
    expect(r.skips[0].reason).toMatch(/^malformed XML/)
  })

  it("skips a document without an application number", async () => {
    const doc = `<?xml version="1.0"?><us-patent-grant><us-bibliographic-data-grant><invention-title>x</invention-title></us-bibliographic-data-grant></us-patent-grant>`
    const r = await read(chunkedFile("one.xml", Buffer.from(doc), 64))
    expect(r.rows).toEqual({})
    expect(r.skips.map((s) => s.reason)).toEqual(["missing application number"])
  })
})

describe("number, date and name normalisation", () => {
  it("prints patent numbers as the USPTO does", () => {
    expect(patentNumber("07062920")).toBe("7062920")
    expect(patentNumber("D0512345")).toBe("D512345")
    expect(patentNumber("PP017012")).toBe("PP17012")
    expect(patentNumber("RE042345")).toBe("RE42345")
    expect(patentNumber("2004/0137123")).toBe("20040137123")
  })

  it("keeps month-only citation dates valid and rejects junk", () => {
    expect(isoDate("19990100")).toBe("1999-01-01")
    expect(isoDate("20160607")).toBe("2016-06-07")
    expect(isoDate("2016")).toBeUndefined()
  })

  it("formats examiners surname-first and CPC without spaces", () => {
    expect(examinerName("Huson", "Gregory L.")).toBe("HUSON, GREGORY L")
    expect(cpcFromText("H04L 9/0643")).toEqual({ symbol: "H04L9/0643", subclass: "H04L", section: "H" })
  })
})

describe("every sample file", () => {
  it("reads without throwing, with a plausible document count", async () => {
    const perFolder: Record<string, number> = { grants: 0, applications: 0 }
    const skipReasons: string[] = []
    for (const folder of ["grants", "applications"]) {
      for (const name of readdirSync(join(CORPUS, "uspto", folder))) {
        const r = await readSample(`uspto/${folder}/${name}`)
        perFolder[folder] += r.rows.application_records?.length ?? 0
        skipReasons.push(...r.skips.map((s) => s.reason.replace(/:.*/, "")))
        for (const a of r.rows.application_records ?? []) {
          expect(a.app_num).toMatch(/^\d{8}$/)
          expect(a.source).toBe(folder === "grants" ? "uspto-grant-xml" : "uspto-app-xml")
        }
      }
    }
    // ≈230 utility grants plus design grants (196 in one weekly slice) and 15 publications.
    expect(perFolder.grants).toBe(504)
    expect(perFolder.applications).toBe(15)
    // 12 sequence listings, one non-patent test file, one grant with a stray </maths> (go-uspto US07057742).
    expect(skipReasons.filter((s) => s === "not a patent document (<sequence-cwu>)")).toHaveLength(12)
    expect(skipReasons.filter((s) => s === "malformed XML")).toHaveLength(1)
    expect(skipReasons).toHaveLength(14)
  })
})
