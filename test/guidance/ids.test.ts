import { describe, expect, it } from "vitest"
import {
  canonicalEpoId,
  epoIdsCitedIn,
  mpepChapterOf,
  mpepIdsCitedIn,
  normalizeCpcSymbol,
  normalizeFormParagraphCode,
  normalizeMpepId
} from "../../core/guidance/ids.ts"

describe("normalizeMpepId", () => {
  it("keeps the published id and tidies how people write it", () => {
    expect(normalizeMpepId("2173.05(e)")).toBe("2173.05(e)")
    expect(normalizeMpepId("MPEP § 2173.05 (E)")).toBe("2173.05(e)")
    expect(normalizeMpepId(" 706.02(j) ")).toBe("706.02(j)")
    expect(normalizeMpepId("2106.04(a)(2)")).toBe("2106.04(a)(2)")
    expect(normalizeMpepId("706.03(f) - 706.03(j)")).toBe("706.03(f)-706.03(j)")
  })

  it("rejects what is not a section id", () => {
    expect(normalizeMpepId("seven")).toBeUndefined()
    expect(normalizeMpepId("35 U.S.C. 103")).toBeUndefined()
    expect(normalizeMpepId("")).toBeUndefined()
  })

  it("derives the chapter from the section number", () => {
    expect(mpepChapterOf("201")).toBe("200")
    expect(mpepChapterOf("706.02(j)")).toBe("700")
    expect(mpepChapterOf("2173.05(e)")).toBe("2100")
  })
})

describe("mpepIdsCitedIn", () => {
  it("finds MPEP citations in order, with lists, ranges and repeats", () => {
    const text =
      "See MPEP § 2173.05(e). See MPEP 706.02 and MPEP §§ 2104 – 2109 and 2157. " +
      "See MPEP §§ 2132.01, 2133.02(a), and 2136.05 et seq. Again MPEP § 2173.05(e), subsection II."
    expect(mpepIdsCitedIn(text)).toEqual([
      "2173.05(e)", "706.02", "2104", "2109", "2157", "2132.01", "2133.02(a)", "2136.05", "2173.05(e)"
    ])
  })

  it("ignores statutes, rules and chapters", () => {
    expect(mpepIdsCitedIn("under 35 U.S.C. 103 and 37 CFR 1.136(a); see MPEP Chapter 2400")).toEqual([])
  })
})

describe("canonicalEpoId", () => {
  it("turns the published reference and typed variants into one id", () => {
    for (const v of ["G-VII, 5.1", "g-vii-5.1", "G-VII 5.1", "G\u2011VII,\u00a05.1", "GVII5.1", "G-VII-5.1", "G VII, 5.1."]) {
      expect(canonicalEpoId(v), v).toBe("G-VII-5.1")
    }
  })

  it("handles chapter-only, part-only and General Part references", () => {
    expect(canonicalEpoId("A-I")).toBe("A-I")
    expect(canonicalEpoId("h-iv")).toBe("H-IV")
    expect(canonicalEpoId("G")).toBe("G")
    expect(canonicalEpoId("GeneralPart, 2.1")).toBe("General-2.1")
    expect(canonicalEpoId("GeneralPart")).toBe("General")
  })

  it("rejects what is not a Guidelines reference", () => {
    expect(canonicalEpoId("Z-I, 1")).toBeUndefined()
    expect(canonicalEpoId("G-IIII, 1")).toBeUndefined()
    expect(canonicalEpoId("T 3/90")).toBeUndefined()
  })
})

describe("epoIdsCitedIn", () => {
  it("reads references glued to words by the flattened text, with lists in the same chapter", () => {
    const text =
      "(see alsoG\u2011VII, 8). see H-IV, 2.3 and C-V, 4.6; deals with (seeA\u2011IX,\u00a01.2and7.1and the notice) " +
      "in chaptersA\u2011IItoA-VI, again G-VII, 8"
    expect(epoIdsCitedIn(text)).toEqual(["G-VII-8", "H-IV-2.3", "C-V-4.6", "A-IX-1.2", "A-IX-7.1", "A-II", "A-VI", "G-VII-8"])
  })

  it("does not read board decisions or other capitals as references", () => {
    expect(epoIdsCitedIn("see T 3/90, G 1/98 and OJ EPO 2020, A124; D-VISA")).toEqual([])
  })
})

describe("normalizeFormParagraphCode", () => {
  it("drops the paragraph sign and keeps the suffixes as the sources print them", () => {
    expect(normalizeFormParagraphCode("¶ 7.34.01")).toBe("7.34.01")
    expect(normalizeFormParagraphCode("¶¶ 7.34.01")).toBe("7.34.01")
    expect(normalizeFormParagraphCode("form paragraph 7.40.02.AIA")).toBe("7.40.02.aia")
    expect(normalizeFormParagraphCode("7.42.031.fti")).toBe("7.42.031.fti")
    expect(normalizeFormParagraphCode("7.84.ae")).toBe("7.84.AE")
    expect(normalizeFormParagraphCode("18.07.03a")).toBe("18.07.03a")
  })

  it("rejects what is not a code", () => {
    expect(normalizeFormParagraphCode("¶")).toBeUndefined()
    expect(normalizeFormParagraphCode("Examiner Note")).toBeUndefined()
  })
})

describe("normalizeCpcSymbol", () => {
  it("removes spaces and padding", () => {
    expect(normalizeCpcSymbol("H04L 9/0643")).toBe("H04L9/0643")
    expect(normalizeCpcSymbol("h04l   9/0643")).toBe("H04L9/0643")
    expect(normalizeCpcSymbol("H04L0009/0643")).toBe("H04L9/0643")
    expect(normalizeCpcSymbol("A01C2001/048")).toBe("A01C2001/048")
    expect(normalizeCpcSymbol("H04L")).toBe("H04L")
    expect(normalizeCpcSymbol("H04")).toBe("H04")
    expect(normalizeCpcSymbol("Y")).toBe("Y")
  })

  it("rejects what is not a symbol", () => {
    expect(normalizeCpcSymbol("H04L9")).toBeUndefined()
    expect(normalizeCpcSymbol("Z99Z1/00")).toBeUndefined()
    expect(normalizeCpcSymbol("")).toBeUndefined()
  })
})
