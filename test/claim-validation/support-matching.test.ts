/** Phrase-level matching and the grade cues, on small passages where the right answer is plain. */
import { describe, expect, it } from "vitest"
import { gradeLocation } from "../../core/claims/support/cues.ts"
import { mapClaimSupport } from "../../core/claims/support/map.ts"
import { findTerm } from "../../core/claims/support/match.ts"
import { paragraphsOfSection } from "../../core/claims/support/specification.ts"
import { buildTextIndex, sentenceSpans } from "../../core/claims/support/text-index.ts"
import type { SpecParagraph } from "../../core/claims/support/types.ts"

const para = (text: string, paragraph = "1"): SpecParagraph => ({ section: "DETAILED DESCRIPTION", sectionKind: "detailed-description", paragraph, text, sectionOffset: 0 })
const find = (text: string, words: string[]) => findTerm(buildTextIndex([para(text)]), words)
const gradeIn = (text: string, term: string) => {
  const start = text.indexOf(term)
  const s = sentenceSpans(text).find((x) => x.start <= start && start < x.end)!
  return gradeLocation(text, s, start, start + term.length)
}

describe("finding a claim term in the specification", () => {
  it("matches plural and hyphenated forms as lemmas", () => {
    const [m] = find("Two light-emitting diodes are mounted on the board.", ["light", "emitting", "diode"])
    expect(m).toMatchObject({ kind: "lemma", start: 4, end: 25 })
  })
  it("matches derived forms by stem", () => {
    expect(find("A rotatable member 12 is provided.", ["rotating", "member"])[0].kind).toBe("stem")
  })
  it("matches a shape adjective to the noun it comes from ('triangular shape' ← 'triangle shape')", () => {
    expect(find("The second aperture has a triangle shape.", ["triangular", "shape"])[0]).toMatchObject({ kind: "stem", start: 26, end: 40 })
    expect(find("The body 12 is a cylinder.", ["cylindrical", "body"])[0].kind).toBe("scattered")
  })
  it("finds a coordinated or interrupted phrase with a few words between", () => {
    expect(find("The first and second gears mesh.", ["second", "gear"])[0].kind).toBe("lemma")
    expect(find("The upper and lower guide rails are parallel.", ["upper", "guide", "rail"])[0].kind).toBe("gapped")
  })
  it("drops claim ordinals when the specification uses none", () => {
    expect(find("The lever 12 pivots.", ["first", "lever"])[0].kind).toBe("gapped")
  })
  it("finds inverted phrasing within a sentence, but not across sentences", () => {
    expect(find("The housing of the gear is sealed.", ["gear", "housing"])[0].kind).toBe("scattered")
    expect(find("The gear turns. The housing is sealed.", ["gear", "housing"])).toEqual([])
  })
  it("splits claim words joined by a slash", () => {
    expect(find("The air/fuel ratio is lean.", ["air/fuel", "ratio"])[0].kind).toBe("exact")
  })
})

describe("grade cues", () => {
  it("reads formal definitions, but not means-plus-function language or a definition of something else", () => {
    expect(gradeIn('As used herein, the term "fastener" means any device that joins parts.', "fastener")).toEqual({ grade: "FORMALLY_DEFINED", cue: "means" })
    expect(gradeIn("The drive means which includes a motor rotates the shaft.", "drive").grade).not.toBe("FORMALLY_DEFINED")
    expect(gradeIn("The periphery of the surface refers to the oxide layer.", "surface").grade).not.toBe("FORMALLY_DEFINED")
    expect(gradeIn('The term "high temperature" refers to temperatures above 1000° C.', "temperature").grade).not.toBe("FORMALLY_DEFINED")
  })
  it("reads enumerations", () => {
    expect(gradeIn("The oxide may be selected from alumina, silica and titania.", "oxide").grade).toBe("ENUMERATED")
    expect(gradeIn("A fastener, such as a screw or a rivet, joins the plates.", "fastener")).toEqual({ grade: "ENUMERATED", cue: "such as" })
    expect(gradeIn("Examples of the solvent include water and ethanol.", "solvent").grade).toBe("ENUMERATED")
    expect(gradeIn("The settings of the device include a ring setting, a battery setting and a pad setting.", "device").grade).not.toBe("ENUMERATED")
  })
  it("reads reference numerals, figures and embodiments, not quantities", () => {
    expect(gradeIn("The lever 12 pivots about the pin 14.", "lever")).toEqual({ grade: "EMBODIMENT", cue: "12" })
    expect(gradeIn("FIG. 3 shows the hinge in section.", "hinge")).toEqual({ grade: "EMBODIMENT", cue: "FIG. 3" })
    expect(gradeIn("The film thickness 20 nm is typical.", "film thickness").grade).toBe("DESCRIBED")
  })
  it("reads functional language", () => {
    expect(gradeIn("The controller is configured to close the valve.", "controller")).toEqual({ grade: "FUNCTIONAL", cue: "is configured to" })
    expect(gradeIn("A pump for circulating the coolant is provided.", "pump").grade).toBe("FUNCTIONAL")
  })
  it("keeps abbreviations inside one sentence", () => {
    expect(sentenceSpans("As shown in FIG. 2, the arm moves. It stops.")).toEqual([{ start: 0, end: 34 }, { start: 35, end: 44 }])
  })
})

describe("supplied sections and the chart", () => {
  it("cuts sections at printed paragraph numbers or blank lines, keeping offsets into the section", () => {
    const text = "[0001] First paragraph.\n[0002] Second one."
    const ps = paragraphsOfSection({ name: "DESCRIPTION", text }, 0)
    expect(ps.map((p) => [p.paragraph, p.text, text.slice(p.sectionOffset, p.sectionOffset + p.text.length)])).toEqual([
      ["0001", "First paragraph.", "First paragraph."],
      ["0002", "Second one.", "Second one."]
    ])
    expect(paragraphsOfSection({ text: "One.\n\n  Two." }, 3).map((p) => [p.section, p.paragraph, p.sectionOffset])).toEqual([
      ["section 4", "1", 0],
      ["section 4", "2", 8]
    ])
  })
  it("charts each term once: a dependent claim lists only what it adds; generic words are left out", () => {
    const r = mapClaimSupport(
      [{ text: "A method comprising rotating a lever about a pin." }, { text: "The method of claim 1, wherein the lever carries a spring." }],
      [para("The lever 12 rotates about the pin 14 against a spring 16.")]
    )
    expect(r.claims.map((c) => c.terms.map((t) => t.term))).toEqual([["lever", "pin"], ["spring"]])
    expect(r.grades.EMBODIMENT).toBe(3)
    expect(r.stats).toMatchObject({ claimCount: 2, termCount: 3, undescribedCount: 0, supportedShare: 1 })
  })
  it("ignores cross-reference paragraphs as support", () => {
    const r = mapClaimSupport(
      [{ text: "A toaster comprising a heating coil." }],
      [{ ...para("This application claims priority to Ser. No. 1, titled Toaster with heating coil."), sectionKind: "cross-reference" }]
    )
    expect(r.claims[0].terms.find((t) => t.term === "heating coil")!.grade).toBe("UNDESCRIBED")
  })
})
