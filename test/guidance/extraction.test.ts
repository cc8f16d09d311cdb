/** The pure extraction pieces: sentences, legal references, normative sentences, notes, vocabulary, graph, order. */
import { describe, expect, it } from "vitest"
import { bracketsOf, examinerNotesOf, paragraphMentionsOf } from "../../core/guidance/form-paragraph-notes.ts"
import { buildGuidanceGraph } from "../../core/guidance/graph.ts"
import { legalReferencesOf } from "../../core/guidance/legal-references.ts"
import { compareIds } from "../../core/guidance/natural-order.ts"
import { expandRejectionType, rejectionTypeOf, statuteOf } from "../../core/guidance/rejection-types.ts"
import { examinerActionsOf, keyRulesOf } from "../../core/guidance/rules.ts"
import { sentencesOf } from "../../core/guidance/sentences.ts"
import { epoCitationsOf } from "../../core/guidance/epo-citations.ts"

describe("sentencesOf", () => {
  it("does not split at reporter, court or party abbreviations", () => {
    expect(
      sentencesOf("A claim is indefinite. In re Packard, 751 F.3d 1307 (Fed. Cir. 2014). See Bose Corp. v. JBL, Inc., 274 F.3d 1354. Under 35 U.S.C. 112(b) it fails.\nIII. HEADING")
    ).toEqual([
      "A claim is indefinite.",
      "In re Packard, 751 F.3d 1307 (Fed. Cir. 2014).",
      "See Bose Corp. v. JBL, Inc., 274 F.3d 1354.",
      "Under 35 U.S.C. 112(b) it fails.",
      "III. HEADING"
    ])
  })
})

describe("legalReferencesOf", () => {
  it("parses statutes (lists, pre-AIA paragraphs), rules and cases with court and year, once each", () => {
    const refs = legalReferencesOf(
      "35 U.S.C. 102 and 103 and 37 CFR 1.136(a). pre-AIA 35 U.S.C. 112, sixth paragraph. Ex parte Porter, 25 USPQ2d 1144, 1145 (Bd. Pat. App. & Inter. 1992). Again 35 U.S.C. 103."
    )
    expect(refs.map((r) => r.citation)).toEqual([
      "35 U.S.C. 102",
      "35 U.S.C. 103",
      "37 CFR 1.136(a)",
      "pre-AIA 35 U.S.C. 112, sixth paragraph",
      "Ex parte Porter, 25 USPQ2d 1144"
    ])
    expect(refs[1].mentions).toBe(2)
    expect(refs[4]).toMatchObject({ type: "case", court: "Bd. Pat. App. & Inter.", year: 1992 })
  })
})

describe("key rules and examiner actions", () => {
  it("keeps normative sentences and directions to the examiner, not headings", () => {
    const text = "I. THE EXAMINER MUST ACT\n\nThe examiner should suggest corrections. Claims must be definite. The court agreed. In bracket 2, insert the limitation."
    expect(keyRulesOf(text)).toEqual(["The examiner should suggest corrections.", "Claims must be definite."])
    expect(examinerActionsOf(text)).toEqual(["The examiner should suggest corrections.", "In bracket 2, insert the limitation."])
  })
})

describe("form-paragraph notes", () => {
  it("reads what each bracket holds, what must precede and what follows, ranges kept", () => {
    const notes = examinerNotesOf(
      "1. This rejection must be preceded by form paragraph 7.30.02 or 7.103.\n2. In bracket 2, insert the term; in bracket 3, its meaning.\n3. Follow with\nform paragraphs 7.34.02 - 7.34.10."
    )
    expect(notes).toHaveLength(3)
    expect(bracketsOf("[1] [2] [3]", notes).items).toEqual([
      { number: 1, holds: null },
      { number: 2, holds: "Insert the term" },
      { number: 3, holds: "Its meaning" }
    ])
    expect(paragraphMentionsOf(notes)).toEqual([
      { code: "7.30.02", relation: "must-precede" },
      { code: "7.103", relation: "must-precede" },
      { code: "7.34.02", through: "7.34.10", relation: "see-also" }
    ])
  })
})

describe("rejection-type vocabulary", () => {
  it("expands labels and statutes into both vocabularies and refuses the rest", () => {
    expect(expandRejectionType("obviousness")).toEqual({ labels: ["obviousness"], statutes: ["103"] })
    expect(expandRejectionType("Written description")).toEqual({ labels: ["written_description"], statutes: ["112(a)"] })
    expect(expandRejectionType("35 USC 103")).toEqual({ labels: ["obviousness"], statutes: ["103"] })
    expect(expandRejectionType("112b")).toEqual({ labels: ["indefiniteness"], statutes: ["112(b)"] })
    expect(expandRejectionType("112")?.labels).toEqual(["indefiniteness", "enablement", "written_description", "means_plus_function"])
    expect(expandRejectionType("37 CFR 1.84")).toEqual({ labels: ["drawing_objection"], statutes: ["1.84"] })
    expect(expandRejectionType("frivolous")).toBeUndefined()
    expect(expandRejectionType("999")).toBeUndefined()
  })
  it("reads a paragraph's statute and label from its title", () => {
    expect(statuteOf("Rejection, 35 USC 112(b) or 35 USC 112 (Pre-AIA), 2nd Paragraph")).toEqual({ statute: "35 U.S.C. 112(b)", statuteShort: "112(b)" })
    expect(statuteOf("Rejection, pre-AIA 35 U.S.C. 112, sixth paragraph")?.statuteShort).toBe("112(f)")
    expect(rejectionTypeOf("Nonstatutory Double Patenting Rejection", null)).toBe("double_patenting")
    expect(rejectionTypeOf("Statement of Statutory Basis", "103")).toBe("obviousness")
  })
})

describe("epoCitationsOf", () => {
  it("lists Articles, Rules, decisions and sections", () => {
    expect(epoCitationsOf("under Art. 56 and Rule 43(1) EPC (see T 641/00)", ["G-VII-5"]).map((c) => c.ref)).toEqual([
      "Art. 56 EPC",
      "Rule 43(1) EPC",
      "T 641/00",
      "G-VII-5"
    ])
  })
})

describe("buildGuidanceGraph", () => {
  it("weights repeated references, resolves to held ancestors, flags bidirectional edges and hubs", () => {
    const g = buildGuidanceGraph("mpep", [
      { sectionId: "2142", crossRefs: ["2143", "2143", "2143.01(z)"], redirect: false },
      { sectionId: "2143", crossRefs: ["2142"], redirect: false },
      { sectionId: "706.02(j)", crossRefs: ["2142", "9999"], redirect: true },
      { sectionId: "2150", crossRefs: [], redirect: false }
    ])
    expect(g.edges).toContainEqual({ source: "mpep-2142", target: "mpep-2143", weight: 3, type: "same-chapter", bidirectional: true })
    expect(g.edges).toContainEqual({ source: "mpep-706.02(j)", target: "mpep-2142", weight: 1, type: "redirect", bidirectional: false })
    expect(g.unresolved).toBe(1)
    const n = new Map(g.nodes.map((x) => [x.sectionId, x]))
    expect(n.get("2142")).toMatchObject({ inDegree: 2, outDegree: 1, isHub: true })
    expect(n.get("2150")).toMatchObject({ inDegree: 0, outDegree: 0, isHub: false })
  })
})

describe("compareIds", () => {
  it("orders guidance ids naturally", () => {
    expect(["7.34.10", "7.34.9", "7.34.02"].sort(compareIds)).toEqual(["7.34.02", "7.34.9", "7.34.10"])
    expect(["G-VII-10", "G-VII-9", "G-IX-1", "G-V-1"].sort(compareIds)).toEqual(["G-V-1", "G-VII-9", "G-VII-10", "G-IX-1"])
  })
})
