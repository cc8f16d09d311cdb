/**
 * Readers for the reference corpora (CPC titles, MPEP, EPO Guidelines, form-paragraph index,
 * design codes), checked against the sample corpus and, for the error policy, against small
 * malformed inputs built here.
 */
import { createReadStream, readdirSync } from "node:fs"
import * as path from "node:path"
import { createGunzip } from "node:zlib"
import { beforeAll, describe, expect, it } from "vitest"
import type { CorpusFile, CorpusReader, ReaderEvent, SkipEvent } from "../../core/corpus/reader.ts"
import { cpcTitleReader } from "../../pipeline/ingest/readers/cpc-titles.ts"
import { designCodeReader } from "../../pipeline/ingest/readers/design-codes.ts"
import { epoGuidelinesReader } from "../../pipeline/ingest/readers/epo-csv.ts"
import { formParagraphIndexReader } from "../../pipeline/ingest/readers/form-paragraph-index.ts"
import { mpepHtmlReader } from "../../pipeline/ingest/readers/mpep-html.ts"
import { mpepMarkdownReader } from "../../pipeline/ingest/readers/mpep-markdown.ts"

// The table row types in tables.ts widen every column to the union of all column types, so
// rows are read here as plain records of the fields the tests look at.
type Row = Record<string, any>
type CpcSchemeRow = Row
type MpepSectionRow = Row
type EpoSectionRow = Row
type FormParagraphRow = Row
type DesignCodeRow = Row

const CORPUS = path.resolve(import.meta.dirname, "../../pipeline/sample-corpus")

const sampleFile = (rel: string): CorpusFile => ({
  path: rel,
  open: () => {
    const raw = createReadStream(path.join(CORPUS, rel))
    return rel.endsWith(".gz") ? raw.pipe(createGunzip()) : raw
  }
})

/** A synthetic corpus file, delivered in small chunks so records straddle chunk boundaries. */
const textFile = (rel: string, text: string): CorpusFile => ({
  path: rel,
  open: async function* () {
    const bytes = Buffer.from(text, "utf8")
    for (let i = 0; i < bytes.length; i += 7) yield bytes.subarray(i, i + 7)
  }
})

interface Read {
  rows: Record<string, Row[]>
  skips: SkipEvent[]
}

const readAll = async (reader: CorpusReader, file: CorpusFile): Promise<Read> => {
  const out: Read = { rows: {}, skips: [] }
  for await (const ev of reader(file) as AsyncIterable<ReaderEvent>) {
    if (ev.kind === "skip") out.skips.push(ev)
    else (out.rows[ev.table] ??= []).push(ev.row as Row)
  }
  return out
}

const byKey = <T = Row>(rows: Row[] | undefined, key: string) => new Map<string, T>((rows ?? []).map((r) => [r[key], r as T]))

describe("CPC title lists", () => {
  let scheme: Map<string, CpcSchemeRow>
  let total = 0
  let skips: SkipEvent[] = []

  beforeAll(async () => {
    scheme = new Map()
    for (const name of readdirSync(path.join(CORPUS, "cpc")).sort()) {
      const r = await readAll(cpcTitleReader, sampleFile(`cpc/${name}`))
      skips = skips.concat(r.skips)
      for (const row of (r.rows.cpc_scheme ?? []) as CpcSchemeRow[]) {
        total++
        scheme.set(row.symbol, row)
      }
    }
  })

  it("reads every one of the 260,993 symbols of the nine section files", () => {
    expect(skips).toEqual([])
    expect(total).toBe(260_993)
    expect(scheme.size).toBe(260_993)
  })

  it("gives H04L9/0643 its title, level and parent chain up to section H", () => {
    const row = scheme.get("H04L9/0643")!
    expect(row).toMatchObject({ level: 6, title: "{Hash functions, e.g. MD5, SHA, HMAC or f9 MAC}", section: "H" })
    const chain: Array<[string, number]> = []
    for (let s: string | null | undefined = "H04L9/0643"; s; s = scheme.get(s)?.parent) chain.push([s, scheme.get(s)!.level])
    expect(chain).toEqual([["H04L9/0643", 6], ["H04L9/06", 5], ["H04L9/00", 4], ["H04L", 3], ["H04", 2], ["H", 1]])
    expect(scheme.get("H")).toMatchObject({ title: "ELECTRICITY", parent: null })
  })

  it("hangs every symbol under one that exists, 2000-series indexing codes under the group printed above them", () => {
    const dangling = [...scheme.values()].filter((r) => r.parent !== null && r.parent !== undefined && !scheme.has(r.parent))
    expect(dangling).toEqual([])
    // Printed at dot depth 2 right after A01C1/046, inside the tree of A01C1/04.
    expect(scheme.get("A01C2001/048")).toMatchObject({ level: 6, parent: "A01C1/04", title: "{Machines}" })
  })

  it("skips a malformed line with its line number and keeps going", async () => {
    const list = [
      "H\t\tELECTRICITY",
      "H04\t\tELECTRIC COMMUNICATION TECHNIQUE",
      "H04L\t\tTRANSMISSION OF DIGITAL INFORMATION",
      "H04L9/00\t0\tCryptographic mechanisms",
      "H04L9/06\tone\tbad level",
      "H04L9/06\t1\tusing shift registers",
      "only two\tfields",
      "H04L 9/0643\t2\t{Hash functions}",
      ""
    ].join("\r\n")
    const r = await readAll(cpcTitleReader, textFile("cpc/test.txt", list))
    expect(r.skips.map((s) => s.position)).toEqual(["line 5", "line 7"])
    expect(r.skips[0]).toMatchObject({ file: "cpc/test.txt" })
    const rows = r.rows.cpc_scheme as CpcSchemeRow[]
    expect(rows.map((x) => x.symbol)).toEqual(["H", "H04", "H04L", "H04L9/00", "H04L9/06", "H04L9/0643"])
    expect(rows.at(-1)).toMatchObject({ parent: "H04L9/06", level: 6 })
  })
})

describe("MPEP chapter 700 and section 201 (HTML)", () => {
  let sections: Map<string, MpepSectionRow>
  let paragraphs: FormParagraphRow[]
  let s201: Map<string, MpepSectionRow>

  beforeAll(async () => {
    const r700 = await readAll(mpepHtmlReader, sampleFile("mpep/mpep-0700.html.gz"))
    expect(r700.skips).toEqual([])
    sections = byKey(r700.rows.mpep_sections, "section_id")
    paragraphs = (r700.rows.form_paragraphs ?? []) as FormParagraphRow[]
    const r201 = await readAll(mpepHtmlReader, sampleFile("mpep/mpep-0201.html.gz"))
    expect(r201.skips).toEqual([])
    s201 = byKey(r201.rows.mpep_sections, "section_id")
  })

  it("emits the 283 sections of chapter 700 and its 165 printed form paragraphs", () => {
    expect(sections.size).toBe(283)
    expect(paragraphs.length).toBe(165)
    for (const s of sections.values()) expect(s).toMatchObject({ chapter: "700", source_file: "mpep/mpep-0700.html.gz" })
  })

  it("keeps 706.02(j), the former obviousness section, with its pointer to MPEP § 2142", () => {
    const s = sections.get("706.02(j)")!
    expect(s).toMatchObject({ title: "[Reserved]", revision: "R-10.2019", chapter: "700" })
    expect(s.content).toContain("35 U.S.C. 103 rejection has been moved to MPEP § 2142")
    expect(s.cross_refs).toEqual(["2142"])
  })

  it("keeps published ids, titles, revisions and subsection headings on their own lines", () => {
    expect(sections.get("701")).toMatchObject({ title: "Statutory Authority for Examination", revision: "R-10.2019" })
    expect(sections.get("704.02-704.09")).toMatchObject({ title: "[Reserved]" })
    expect(sections.get("706.03(f)-706.03(j)")).toBeDefined()
    const s706 = sections.get("706")!
    expect(s706.content).toMatch(/\n\nI\. UNIFORM APPLICATION OF THE PATENTABILITY STANDARD\n\n/)
    expect(s706.content).not.toMatch(/<|&nbsp;|Add a Note/)
    expect(s706.cross_refs?.[0]).toBe("704.10")
  })

  it("reads form paragraph ¶ 7.40.01 with its [1] placeholder and Examiner Notes", () => {
    const fp = paragraphs.find((p) => p.code === "7.40.01")!
    expect(fp).toMatchObject({
      title: "Action Is Final, Necessitated by IDS With Fee",
      mpep_section: "706.07(a)",
      chapter: "7",
      variant: null,
      source: "mpep"
    })
    expect(fp.template).toContain("with the fee set forth in 37 CFR 1.17(p) on [1] prompted the new ground(s) of rejection")
    expect(fp.template).not.toContain("Examiner Note")
    expect(fp.examiner_notes).toContain("2. In bracket 1, insert the filing date of the information disclosure statement")
    // The section prints the paragraph too, and cites itself from it.
    const s = sections.get("706.07(a)")!
    expect(s.content).toContain("¶ 7.40.01 Action Is Final, Necessitated by IDS With Fee")
    expect(s.cross_refs).toContain("609.04(b)")
  })

  it("reads section 201 and the subsections printed on its page, each once", () => {
    expect([...s201.keys()]).toEqual([
      "201", "201.01", "201.02", "201.03", "201.04", "201.05", "201.06", "201.06(a)", "201.06(b)", "201.06(c)",
      "201.06(d)", "201.07", "201.08"
    ])
    const s = s201.get("201")!
    expect(s).toMatchObject({ title: "Types of Applications", chapter: "200", revision: "R-07.2015" })
    expect(s.content).toContain("Patent applications can be directed to three broad types of subject matter")
    // A nested subsection's text belongs to it, not to its parent.
    expect(s.content).not.toContain("WRITTEN APPLICATION")
    expect(s201.get("201.01")!.content).toContain("WRITTEN APPLICATION")
    expect(s.content).not.toContain("[top]")
  })

  it("skips a section without a readable heading and keeps going", async () => {
    const html = `<html><body>
      <div class="Section"><div><h1>Not a section heading</h1><p>lost</p></div></div>
      <div class="Section"><div><h1>707.07(j) &nbsp;&nbsp; State When Claims Are Allowable [R-11.2013]</h1>
        <h2>I. &nbsp; <b>ALLOWABLE</b></h2><p>See <b><a href="#x">MPEP § 714.04</a></b>.</p>
        <div class="formPara"><div><h1>¶ 7.43 &nbsp; Objection to Claims, Allowable Subject Matter</h1>
          <p>Claim <b>[1]</b> objected to.</p><h3>Examiner Note:</h3><p>1. In bracket 1, insert claim numbers.</p></div></div>
      </div></div></body></html>`
    const r = await readAll(mpepHtmlReader, textFile("mpep/test.html", html))
    expect(r.skips).toEqual([expect.objectContaining({ file: "mpep/test.html", position: "section 1" })])
    expect(r.rows.mpep_sections).toEqual([
      expect.objectContaining({
        section_id: "707.07(j)",
        revision: "R-11.2013",
        content: expect.stringMatching(/^I\. ALLOWABLE\n\nSee MPEP § 714\.04\.\n\n¶ 7\.43/),
        cross_refs: ["714.04"]
      })
    ])
    expect(r.rows.form_paragraphs).toEqual([
      expect.objectContaining({ code: "7.43", template: "Claim [1] objected to.", examiner_notes: "1. In bracket 1, insert claim numbers." })
    ])
  })
})

describe("MPEP chapter 2100 (markdown)", () => {
  let sections: Map<string, MpepSectionRow>
  let paragraphs: FormParagraphRow[]
  let skips: SkipEvent[]

  beforeAll(async () => {
    const r = await readAll(mpepMarkdownReader, sampleFile("mpep/mpep-2100.md.gz"))
    skips = r.skips
    sections = byKey(r.rows.mpep_sections, "section_id")
    paragraphs = (r.rows.form_paragraphs ?? []) as FormParagraphRow[]
  })

  it("emits all 294 sections 2101-2190 and the 103 form paragraphs printed in them", () => {
    expect(skips).toEqual([])
    expect(sections.size).toBe(294)
    expect(paragraphs.length).toBe(103)
    expect(sections.has("2101-2102")).toBe(true)
    expect(sections.has("2190")).toBe(true)
    for (const s of sections.values()) expect(s.chapter).toBe("2100")
  })

  it("reads 2173.05(e) Lack of Antecedent Basis", () => {
    const s = sections.get("2173.05(e)")!
    expect(s).toMatchObject({ title: "Lack of Antecedent Basis", revision: "R-08.2017", source_file: "mpep/mpep-2100.md.gz" })
    expect(s.content).toContain("antecedent basis")
    expect(s.content).toContain("\n\nI. EXAMINER SHOULD SUGGEST CORRECTIONS TO ANTECEDENT PROBLEMS\n\n")
    expect(s.content).not.toMatch(/\*\*|^#/m)
  })

  it("collects cross references in order of appearance", () => {
    expect(sections.get("2103")!.cross_refs!.slice(0, 6)).toEqual(["2106", "2107", "2111.01", "2111.02", "2111.05", "2111"])
    expect(sections.get("2106.04(a)(3)")).toMatchObject({ title: "Tentative Abstract Ideas", revision: null })
  })

  it("reads ¶ 7.34.01 with placeholders and Examiner Notes", () => {
    const fp = paragraphs.find((p) => p.code === "7.34.01")!
    expect(fp).toMatchObject({ mpep_section: "2175", chapter: "7", source: "mpep" })
    expect(fp.title).toBe(
      "Rejection, 35 U.S.C. 112(b) or pre-AIA 35 U.S.C. 112, 2nd Paragraph, Failure To Particularly Point out and Distinctly Claim (Indefinite)"
    )
    expect(fp.template).toMatch(/^Claim \[1\] rejected under 35 U\.S\.C\. 112\(b\) or pre-AIA 35 U\.S\.C\. 112, second paragraph, as being indefinite/)
    expect(fp.examiner_notes!.split("\n")).toHaveLength(3)
    expect(fp.examiner_notes).toContain("1. This rejection must be preceded by form paragraph 7.30.02 or 7.103.")
  })

  it("gives section text that follows a form paragraph back to the section", () => {
    const fp = paragraphs.find((p) => p.code === "8.40")!
    expect(fp.examiner_notes!.split("\n")).toHaveLength(4)
    expect(fp.examiner_notes).not.toContain("compact prosecution")
    expect(sections.get(fp.mpep_section!)!.content).toContain("In accordance with the principles of compact prosecution")
  })

  it("skips a heading that is not a section and keeps going", async () => {
    const md = [
      "# Not a section",
      "",
      "stray text",
      "",
      "# 2173.05(e) Lack of Antecedent Basis [R-08.2017]",
      "",
      "See MPEP § 2173.05(a).",
      "",
      "# ¶ 7.34.05 Lack of Antecedent Basis in the Claims",
      "",
      "Claim **[1]** recites the limitation **[2]** in **[3]**.",
      "",
      "### Examiner Note:",
      "",
      "* 1. In bracket 2, insert the limitation.",
      "",
      "Section text again.",
      ""
    ].join("\n")
    const r = await readAll(mpepMarkdownReader, textFile("mpep/test.md", md))
    expect(r.skips).toEqual([expect.objectContaining({ position: "line 1", file: "mpep/test.md" })])
    expect(r.rows.mpep_sections).toEqual([
      expect.objectContaining({ section_id: "2173.05(e)", cross_refs: ["2173.05(a)"], content: expect.stringMatching(/Section text again\.$/) })
    ])
    expect(r.rows.form_paragraphs).toEqual([
      expect.objectContaining({
        code: "7.34.05",
        template: "Claim [1] recites the limitation [2] in [3].",
        examiner_notes: "1. In bracket 2, insert the limitation.",
        mpep_section: "2173.05(e)"
      })
    ])
  })
})

describe("EPO Guidelines CSV", () => {
  let sections: Map<string, EpoSectionRow>
  let count = 0

  beforeAll(async () => {
    const r = await readAll(epoGuidelinesReader, sampleFile("epo/epo-guidelines-2024.csv.gz"))
    expect(r.skips).toEqual([])
    count = r.rows.epo_sections?.length ?? 0
    sections = byKey(r.rows.epo_sections, "section_id")
  })

  it("emits the 1,774 sections under distinct canonical ids", () => {
    expect(count).toBe(1774)
    expect(sections.size).toBe(1774)
  })

  it("reads G-VII, 5.1 with its title, text, url and inline cross references", () => {
    const s = sections.get("G-VII-5.1")!
    expect(s).toMatchObject({
      ref: "G-VII, 5.1",
      part: "G",
      chapter: "VII",
      title: "Determination of the closest prior art",
      url: "https://www.epo.org/en/legal/guidelines-epc/2024/g_vii_5_1.html"
    })
    expect(s.content).toMatch(/^The closest prior art is that which in one single reference discloses/)
    // Source: "(see alsoG‑VII, 8)" and "(seeC‑IV, 7.3(vii))".
    expect(s.cross_refs).toEqual(["G-VII-8", "C-IV-7.3"])
  })

  it("expands reference lists and keeps references into the same part", () => {
    // Source: "(B‑VIII, 1,B-VIII,2and3)" … "(seeB‑VII, 1.1andB-VII,1.2)" … "seeF‑V, 3.4" … "inB‑VIII, 3.2" … "(seeC‑III, 3.1)".
    expect(sections.get("B-VIII-3.4")!.cross_refs).toEqual([
      "B-VIII-1", "B-VIII-2", "B-VIII-3", "B-VII-1.1", "B-VII-1.2", "F-V-3.4", "B-VIII-3.2", "C-III-3.1"
    ])
  })

  it("handles chapter-level and General Part entries", () => {
    expect(sections.get("A-I")).toMatchObject({ ref: "A-I", part: "A", chapter: "I", title: "Introduction" })
    expect(sections.get("General-2.1")).toMatchObject({ ref: "GeneralPart, 2.1", part: "General", chapter: null, title: "Overview" })
    expect(sections.get("E-VIII-3.1")).toMatchObject({ title: "Admissibility of the request" })
  })

  it("skips a malformed record with its line and keeps going", async () => {
    const csv = [
      "ref,url,content",
      '"Guidelines for Examination in the EPO, G-VII, 5",https://x/g_vii_5.html,"Title: Guidelines for Examination in the EPO, G-VII, 5. Content: 5. Problem-solution approach Apply it. Apply it. More (seeG‑VII, 5.1)."',
      '"Guidelines for Examination in the EPO, G-VII, 6",only two fields',
      '"Not a reference",https://x,"Title: x. Content: y"',
      '"Guidelines for Examination in the EPO, G-VII, 7",https://x/g_vii_7.html,"Title: Guidelines for Examination in the EPO, G-VII, 7. Content: 7. Ex post facto analysis"',
      ""
    ].join("\n")
    const r = await readAll(epoGuidelinesReader, textFile("epo/test.csv", csv))
    expect(r.skips.map((s) => s.position)).toEqual(["line 3", "line 4"])
    expect(r.rows.epo_sections).toEqual([
      expect.objectContaining({ section_id: "G-VII-5", title: "Problem-solution approach", content: "Apply it. More (seeG‑VII, 5.1).", cross_refs: ["G-VII-5.1"] }),
      expect.objectContaining({ section_id: "G-VII-7", title: "Ex post facto analysis" })
    ])
  })
  it("reports a broken quote instead of throwing", async () => {
    const csv = [
      "ref,url,content",
      '"Guidelines for Examination in the EPO, G-VII, 6",https://x,"a "quoted" word"',
      '"Guidelines for Examination in the EPO, G-VII, 7",https://x/g_vii_7.html,"Title: Guidelines for Examination in the EPO, G-VII, 7. Content: 7. Ex post facto analysis"',
      '"Guidelines for Examination in the EPO, G-VII, 8",https://x,"never closed',
      ""
    ].join("\n")
    const r = await readAll(epoGuidelinesReader, textFile("epo/test.csv", csv))
    expect(r.skips.length).toBeGreaterThanOrEqual(2)
    expect(r.skips.map((s) => s.position)).toContain("line 2")
    expect(r.skips.some((s) => /Quote Not Closed/.test(s.reason))).toBe(true)
    expect((r.rows.epo_sections as EpoSectionRow[]).map((x) => x.section_id)).toEqual(["G-VII-7"])
  })
})

describe("form-paragraph index", () => {
  it("emits its 891 titles as index rows without templates", async () => {
    const r = await readAll(formParagraphIndexReader, sampleFile("form-paragraphs/form-paragraph-index.tsv"))
    expect(r.skips).toEqual([])
    const rows = r.rows.form_paragraphs as FormParagraphRow[]
    expect(rows).toHaveLength(891)
    expect(rows.every((x) => x.source === "index" && x.template === null)).toBe(true)
    const codes = byKey<FormParagraphRow>(rows, "code")
    expect(codes.get("7.90")).toMatchObject({ title: "Abandonment, Failure to Respond", chapter: "7", variant: null })
    expect(codes.get("7.84.AE")).toMatchObject({ chapter: "7", variant: "accelerated exam" })
    expect(codes.get("7.42.031.fti")).toMatchObject({ variant: "pre-AIA (fti)" })
  })

  it("skips a malformed row and keeps going", async () => {
    const tsv = "fp_id\tfp_chapter\tvariant\ttitle\n7.90\t7\t\tAbandonment\nnot-a-code\t7\t\tX\n7.91\t7\tshort\n8.01\t9\t\tWrong chapter\n6.12\t6\t\tAbstract Missing\n"
    const r = await readAll(formParagraphIndexReader, textFile("form-paragraphs/test.tsv", tsv))
    expect(r.skips.map((s) => s.position)).toEqual(["line 3", "line 4", "line 5"])
    expect((r.rows.form_paragraphs as FormParagraphRow[]).map((x) => x.code)).toEqual(["7.90", "6.12"])
  })
})

describe("design codes", () => {
  it("emits 1,092 codes: 29 categories, 156 divisions, 907 sections", async () => {
    const r = await readAll(designCodeReader, sampleFile("design-codes/design-codes.tsv.gz"))
    expect(r.skips).toEqual([])
    const rows = r.rows.design_codes as DesignCodeRow[]
    expect(rows).toHaveLength(1092)
    const levels: Record<string, number> = {}
    for (const x of rows) levels[x.level] = (levels[x.level] ?? 0) + 1
    expect(levels).toEqual({ category: 29, division: 156, section: 907 })
    const codes = byKey<DesignCodeRow>(rows, "code")
    expect(codes.get("01")).toMatchObject({ level: "category", parent: null, description: "Celestial bodies, natural phenomena, geographical maps" })
    expect(codes.get("01.01.02")).toMatchObject({ parent: "01.01", description: "A single star with four points", guidelines: "Code more than one star with four points in 01.01.12.", excludes: null })
    // Division 03.25 is missing from the manual though its sections exist.
    expect(codes.has("03.25")).toBe(false)
  })

  it("skips a malformed row and keeps going", async () => {
    const tsv = [
      "code\tlevel\tparent\tdescription\tguidelines\texcludes",
      "01\tcategory\t\tCelestial bodies\t\t",
      "01.01\tsection\t01\tStars\t\t",
      "01.02\tdivision\t01",
      "01.03\tdivision\t01\tMoon\t\t",
      ""
    ].join("\n")
    const r = await readAll(designCodeReader, textFile("design-codes/test.tsv", tsv))
    expect(r.skips.map((s) => s.position)).toEqual(["line 3", "line 4"])
    expect((r.rows.design_codes as DesignCodeRow[]).map((x) => x.code)).toEqual(["01", "01.03"])
  })
})
