/** GuidanceService against the sample corpus (MPEP 700/201/2100, EPO 2024, form paragraphs, design codes). */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { guidanceRuntime, guidanceVersion } from "./support.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const sampleDir = await sampleArtifacts()

type Body = Record<string, any>

let version: Awaited<ReturnType<typeof guidanceVersion>>
let g: ReturnType<typeof guidanceRuntime>
beforeAll(async () => {
  version = await guidanceVersion(sampleDir)
  g = guidanceRuntime(version.dir)
})
afterAll(async () => {
  await g?.dispose()
  version?.remove()
})

describe("getMpepSection", () => {
  it("serves 2173.05(e) with the antecedent-basis rules, its subsections and parsed references", async () => {
    const s: Body = await g.run((x) => x.getMpepSection("2173.05(e)"))
    expect(s.sectionId).toBe("2173.05(e)")
    expect(s.title).toBe("Lack of Antecedent Basis")
    expect(s.chapter).toBe("2100")
    expect(s.topicCategory).toMatch(/112\(b\)/)
    expect(s.content.text).toMatch(/failure to provide explicit antecedent basis for terms does not always render a claim indefinite/)
    expect(s.content.text).toMatch(/Inherent components of elements recited have antecedent basis/)
    expect(s.content.subsections.map((x: Body) => x.heading)).toEqual([
      null,
      "I. EXAMINER SHOULD SUGGEST CORRECTIONS TO ANTECEDENT PROBLEMS",
      "II. A CLAIM TERM WHICH HAS NO ANTECEDENT BASIS IN THE DISCLOSURE IS NOT NECESSARILY INDEFINITE",
      "III. A CLAIM IS NOT PER SE INDEFINITE IF THE BODY OF THE CLAIM RECITES ADDITIONAL ELEMENTS WHICH DO NOT APPEAR IN THE PREAMBLE"
    ])
    expect(s.keyRules.some((r: string) => /should be carried out in a positive and constructive way/.test(r))).toBe(true)
    expect(s.legalReferences).toContainEqual(expect.objectContaining({ type: "case", name: "In re Packard", reporter: "751 F.3d 1307", court: "Fed. Cir.", year: 2014 }))
    expect(s.legalReferences).toContainEqual(expect.objectContaining({ type: "case", name: "Bose Corp. v. JBL, Inc.", year: 2001 }))
    expect(s.legalReferences).toContainEqual(expect.objectContaining({ type: "statute", citation: "35 U.S.C. 112(b)", section: "112", subsection: "(b)" }))
    expect(s.legalReferences).toContainEqual(expect.objectContaining({ type: "statute", section: "112", paragraph: "second", preAIA: true }))
    expect(s.enrichedSummary.method).toBe("extractive")
    for (const sentence of s.enrichedSummary.sentences) expect(s.content.text).toContain(sentence)
    expect(Array.isArray(s.technologyDomains)).toBe(true)
  })

  it("serves 706.02(j), reserved in this revision, with its editor note and the cross-reference to 2142", async () => {
    const s: Body = await g.run((x) => x.getMpepSection("706.02(j)"))
    expect(s.title).toBe("[Reserved]")
    expect(s.content.text).toBe("[Editor Note: Information pertaining to the contents of a 35 U.S.C. 103 rejection has been moved to MPEP § 2142.]")
    expect(s.crossReferences).toEqual(["2142"])
    expect(s.legalReferences).toEqual([expect.objectContaining({ type: "statute", citation: "35 U.S.C. 103" })])
    const graph: Body = await g.run((x) => x.getGuidanceGraph("mpep-706.02(j)", 50))
    expect(graph.outgoing).toEqual([{ source: "mpep-706.02(j)", target: "mpep-2142", weight: 1, type: "redirect", bidirectional: false }])
  })

  it("takes every chapter the corpus holds, the HTML section 201 included", async () => {
    const s: Body = await g.run((x) => x.getMpepSection("201"))
    expect(s).toMatchObject({ sectionId: "201", title: "Types of Applications", chapter: "200" })
  })

  it("passes the id through exactly, tolerating letter case inside the parentheses", async () => {
    const s: Body = await g.run((x) => x.getMpepSection("2173.05(E)"))
    expect(s.sectionId).toBe("2173.05(e)")
  })

  it("answers NotFound for a section the corpus does not hold", async () => {
    for (const id of ["2173.05(zz)", "9999", "2173-05e", "abc"]) expect((await g.fail((x) => x.getMpepSection(id)))._tag).toBe("NotFound")
  })
})

describe("getEpoGuideline", () => {
  it("serves G-VII, 5 with its parent chapter and its children in natural order", async () => {
    const s: Body = await g.run((x) => x.getEpoGuideline("G-VII-5"))
    expect(s).toMatchObject({ sectionId: "G-VII-5", reference: "G-VII, 5", title: "Problem-solution approach", part: "G", chapter: "VII" })
    expect(s.parentSection).toBe("G-VII")
    expect(s.childSections).toEqual(["G-VII-5.1", "G-VII-5.2", "G-VII-5.3", "G-VII-5.4"])
    expect(s.sourceUrl).toBe("https://www.epo.org/en/legal/guidelines-epc/2024/g_vii_5.html")
  })

  it("accepts the natural spellings of an id and lists what the section cites", async () => {
    for (const id of ["G-VII-5.1", "g-vii-5.1", "GVII5.1", "G-VII5.1"]) {
      const s: Body = await g.run((x) => x.getEpoGuideline(id))
      expect(s.sectionId).toBe("G-VII-5.1")
    }
    const s: Body = await g.run((x) => x.getEpoGuideline("G-VII-5.1"))
    expect(s.parentSection).toBe("G-VII-5")
    expect(s.childSections).toEqual([])
    expect(s.citations).toContainEqual({ type: "section", ref: "G-VII-8", mentions: 1 })
    expect(s.citations).toContainEqual(expect.objectContaining({ type: "decision", ref: "T 1742/12" }))
    expect(s.examinerActions).toContain("The examiner must not make an artificial interpretation of the closest prior art based on prior knowledge of the application (see alsoG‑VII, 8).")
  })

  it("answers NotFound for unknown or malformed ids", async () => {
    for (const id of ["G-VII-99", "Z-I-1", "G-IIII-1", "7"]) expect((await g.fail((x) => x.getEpoGuideline(id)))._tag).toBe("NotFound")
  })
})

describe("getFormParagraph", () => {
  it("serves ¶ 7.34.05 with its brackets as the examiner notes describe them", async () => {
    const fp: Body = await g.run((x) => x.getFormParagraph("¶ 7.34.05"))
    expect(fp.code).toBe("7.34.05")
    expect(fp.title).toBe("Lack of Antecedent Basis in The Claims")
    expect(fp.template).toBe("Claim [1] recites the limitation [2] in [3]. There is insufficient antecedent basis for this limitation in the claim.")
    expect(fp.brackets.count).toBe(3)
    expect(fp.brackets.items[1]).toEqual({ number: 2, holds: "Insert the limitation which lacks antecedent basis, for example --said lever-- or --the lever--" })
    expect(fp.brackets.items[2].holds).toMatch(/^Identify where in the claim\(s\) the limitation appears/)
    expect(fp.examinerNotes).toHaveLength(3)
    expect(fp.mustFollow).toEqual(["7.34.01"])
    expect(fp.rejectionType).toBe("indefiniteness")
    expect(fp.mpepSection).toBe("2175")
    expect(fp.truncated_at_source).toBe(false)
  })

  it("serves 7.34.01 with its statute, the paragraphs that must precede it and those it leads to", async () => {
    const fp: Body = await g.run((x) => x.getFormParagraph("7.34.01"))
    expect(fp).toMatchObject({ statute: "35 U.S.C. 112(b)", statuteShort: "112(b)", rejectionType: "indefiniteness", category: "rejection", isAIA: true })
    expect(fp.mustFollow).toEqual(["7.30.02", "7.103"])
    const followers = fp.relatedParagraphs.filter((r: Body) => r.relation === "followed-by").map((r: Body) => r.code)
    expect(followers).toEqual(expect.arrayContaining(["7.34.02", "7.34.05", "7.34.10", "7.34.23", "7.34.24"]))
  })

  it("links AIA paragraphs to their pre-AIA counterparts", async () => {
    const aia: Body = await g.run((x) => x.getFormParagraph("7.20.AIA"))
    expect(aia).toMatchObject({ code: "7.20.aia", isAIA: true, preAIAEquivalent: "7.20.fti", statuteShort: "103", rejectionType: "obviousness" })
    const fti: Body = await g.run((x) => x.getFormParagraph("7.20.fti"))
    expect(fti).toMatchObject({ isAIA: false, preAIAEquivalent: null })
  })

  it("marks index-only entries as truncated at source, with no template", async () => {
    const fp: Body = await g.run((x) => x.getFormParagraph("15.11.fti"))
    expect(fp).toMatchObject({ title: "Pre-AIA 35 USC 102(a) Rejection", template: null, truncated_at_source: true, isAIA: false })
    expect(fp.brackets).toEqual({ count: 0, items: [] })
  })

  it("answers NotFound for a code no source holds", async () => {
    for (const code of ["7.999", "¶ 99.99", "abc"]) expect((await g.fail((x) => x.getFormParagraph(code)))._tag).toBe("NotFound")
  })
})

describe("findFormParagraphs", () => {
  it("expands a statute to its label and back, reporting the expansion", async () => {
    const byStatute: Body = await g.run((x) => x.findFormParagraphs({ rejectionType: "112(b)", limit: 100 }))
    expect(byStatute.filter.matched).toEqual({ rejectionTypes: ["indefiniteness"], statutes: ["112(b)"] })
    const byLabel: Body = await g.run((x) => x.findFormParagraphs({ rejectionType: "indefiniteness", limit: 100 }))
    expect(byLabel.filter.matched).toEqual({ rejectionTypes: ["indefiniteness"], statutes: ["112(b)"] })
    expect(byLabel.results.map((r: Body) => r.code)).toEqual(byStatute.results.map((r: Body) => r.code))
    const codes = byLabel.results.map((r: Body) => r.code)
    expect(codes).toEqual(expect.arrayContaining(["7.34.01", "7.34.05"]))
    for (const r of byLabel.results) expect(r.rejectionType === "indefiniteness" || r.statuteShort === "112(b)").toBe(true)
    expect(byLabel.count).toBe(byLabel.results.length)
  })

  it("filters by MPEP section, subsections included, and honours the limit in natural code order", async () => {
    const all: Body = await g.run((x) => x.findFormParagraphs({ mpepSection: "2175", limit: 100 }))
    expect(all.results.length).toBeGreaterThan(5)
    for (const r of all.results) expect(r.mpepSection).toBe("2175")
    const two: Body = await g.run((x) => x.findFormParagraphs({ mpepSection: "2175", limit: 2 }))
    expect(two.results.map((r: Body) => r.code)).toEqual(all.results.slice(0, 2).map((r: Body) => r.code))
    expect(two.count).toBe(2)
    const both: Body = await g.run((x) => x.findFormParagraphs({ rejectionType: "103", mpepSection: "2175", limit: 25 }))
    expect(both.count).toBe(0)
  })

  it("answers zero results with the vocabulary for an unrecognised rejection type", async () => {
    const r: Body = await g.run((x) => x.findFormParagraphs({ rejectionType: "frivolous", limit: 25 }))
    expect(r).toMatchObject({ results: [], count: 0 })
    expect(r.filter.note).toMatch(/obviousness/)
    expect(r.filter.note).toMatch(/112\(b\)/)
  })
})

describe("getGuidanceGraph", () => {
  it("serves a node's edges by weight with truncation per direction", async () => {
    const full: Body = await g.run((x) => x.getGuidanceGraph("mpep-2159", 200))
    expect(full.corpus).toBe("mpep")
    expect(full.node.nodeId).toBe("mpep-2159")
    expect(full.incoming.length).toBe(full.node.inDegree)
    expect(full.truncated).toEqual({ outgoing: false, incoming: false })
    expect(full.node.isHub).toBe(true)
    const cut: Body = await g.run((x) => x.getGuidanceGraph("mpep-2159", 5))
    expect(cut.incoming).toHaveLength(5)
    expect(cut.truncated.incoming).toBe(true)
    expect(cut.limit).toBe(5)
    const weights = full.incoming.map((e: Body) => e.weight)
    expect(weights).toEqual([...weights].sort((a, b) => b - a))
    for (const e of full.incoming) expect(e.target).toBe("mpep-2159")
  })

  it("selects the EPO corpus by prefix and accepts the id's natural spellings", async () => {
    const a: Body = await g.run((x) => x.getGuidanceGraph("epo-G-VII-5.1", 50))
    const b: Body = await g.run((x) => x.getGuidanceGraph("epo-g-vii-5.1", 50))
    expect(a.corpus).toBe("epo")
    expect(b).toEqual(a)
    expect(a.outgoing.map((e: Body) => e.target)).toEqual(expect.arrayContaining(["epo-G-VII-8", "epo-C-IV-7.3"]))
  })

  it("answers NotFound for ids with no prefix and for sections the corpus lacks", async () => {
    for (const id of ["2173.05(e)", "G-VII-5.1", "mpep-9999", "epo-Z-I", "mpep-G-VII-5.1"]) {
      expect((await g.fail((x) => x.getGuidanceGraph(id, 50)))._tag).toBe("NotFound")
    }
  })
})

describe("getDesignCode", () => {
  it("serves a section with its category and division names and the manual's guidance", async () => {
    const d: Body = await g.run((x) => x.getDesignCode("01.01.02"))
    expect(d).toMatchObject({
      code: "01.01.02",
      descriptions: ["A single star with four points"],
      major: "Celestial bodies, natural phenomena, geographical maps",
      sub: "Stars, comets",
      level: "section"
    })
    expect(d.guidelines).toEqual(["Code more than one star with four points in 01.01.12."])
  })

  it("serves categories and divisions, splitting guideline lists", async () => {
    const cat: Body = await g.run((x) => x.getDesignCode("01"))
    expect(cat).toMatchObject({ code: "01", major: "Celestial bodies, natural phenomena, geographical maps", sub: null, level: "category" })
    const div: Body = await g.run((x) => x.getDesignCode("01.01"))
    expect(div.sub).toBe("Stars, comets")
    expect(div.guidelines).toHaveLength(5)
    const ex: Body = await g.run((x) => x.getDesignCode("06.03.03"))
    expect(ex.excludes[0]).toMatch(/^Single wave of water are coded in 01.15.13/)
  })

  it("keeps sections whose division the manual omits, and answers NotFound for unknown codes", async () => {
    const orphan: Body = await g.run((x) => x.getDesignCode("03.25.01"))
    expect(orphan).toMatchObject({ major: expect.any(String), sub: null })
    for (const code of ["03.25", "99", "01.01.99", "01.01.01.01"]) expect((await g.fail((x) => x.getDesignCode(code)))._tag).toBe("NotFound")
  })
})
