/**
 * Issue 21: the false-alarm families on granted claims of the bundled sample, one describe each.
 * Every case uses the claim text as granted (test/claims/antecedent-precision-claims.json, copied
 * verbatim from pipeline/sample-corpus) and asserts the false alarm is gone; a true defect is then
 * planted in the same text, the way the quality bench plants them, and must still be found.
 */
import { describe, expect, it } from "vitest"
import { checkAntecedentBasis } from "../../core/claims/antecedent/index.ts"
import type { AntecedentIssue } from "../../core/claims/antecedent/types.ts"
import fixture from "./antecedent-precision-claims.json" with { type: "json" }

interface Claim {
  readonly number: number
  readonly text: string
}

const sets = fixture.sets as Record<string, Claim[]>

const claimSet = (app: string): Claim[] => sets[app].map((c) => ({ ...c }))

/** The set with one claim's text changed: `from` must occur in it exactly once. */
const plant = (app: string, claim: number, from: string, to: string): Claim[] =>
  claimSet(app).map((c) => {
    if (c.number !== claim) return c
    expect(c.text.split(from).length, `"${from}" once in claim ${claim}`).toBe(2)
    return { ...c, text: c.text.replace(from, to) }
  })

const findings = (claims: Claim[], claim: number, minSeverity: "high" | "medium" | "low" = "low"): AntecedentIssue[] =>
  checkAntecedentBasis(claims, { minSeverity }).issues.filter((i) => i.claimNumber === claim)

const termsOf = (issues: ReadonlyArray<AntecedentIssue>) => issues.map((i) => `${i.type}:${i.term}`)

describe("phrase boundaries: a verb after the noun ends the phrase", () => {
  it("'the outer sections of the wing create aerodynamic forces' refers to the claimed wing (10203303, claim 1)", () => {
    // Nothing runs on into "create"; "the wing" rests on the preamble (informational).
    expect(findings(claimSet("10203303"), 1).filter((i) => i.term.includes("create"))).toEqual([])
    expect(findings(claimSet("10203303"), 1, "medium")).toEqual([])
    // Planted: the flying lines are no longer introduced.
    const planted = findings(plant("10203303", 1, "at least two flying lines for restraining", "the flying lines for restraining"), 1)
    expect(termsOf(planted)).toContain("no-antecedent-basis:flying lines")
  })

  it("'said lid fitting onto said walls' is the lid recited just before (11506270, claim 17)", () => {
    expect(findings(claimSet("11506270"), 17)).toEqual([])
    const planted = findings(plant("11506270", 17, "an elongated hollow tube longitudinally", "the elongated hollow tube longitudinally"), 17)
    expect(planted.map((i) => [i.type, i.term, i.severity])).toContainEqual(["no-antecedent-basis", "elongated hollow tube", "high"])
  })
})

describe("alternatives and Markush groups introduce members, not duplicates", () => {
  it("'the therapeutic is an alkylating agent or an antimetabolite' picks members of claim 23's group (11197711)", () => {
    expect(findings(claimSet("11197711"), 27)).toEqual([])
    // Planted: claim 27 speaks of a therapeutic claim 23 never recited.
    const planted = plant("11197711", 27, "wherein the therapeutic is", "wherein the chemotherapeutic is")
    expect(termsOf(findings(planted, 27))).toEqual(["no-antecedent-basis:chemotherapeutic"])
  })
})

describe("plain references: modifiers that restrict nothing, superlatives", () => {
  it("'the entire tower' is the tower of claim 1 (10515234, claim 8)", () => {
    expect(findings(claimSet("10515234"), 8)).toEqual([])
    const planted = plant("10515234", 8, "portions of the tower", "portions of the mast")
    expect(termsOf(findings(planted, 8))).toEqual(["no-antecedent-basis:mast"])
  })

  it("'the other regulating member' is one of the recited regulating members; the partition recited twice is still found (10512208, claim 1)", () => {
    const issues = findings(claimSet("10512208"), 1)
    expect(termsOf(issues).filter((t) => t.includes("regulating member"))).toEqual([])
    expect(termsOf(issues)).toContain("double-inclusion:partition")
  })

  it("'the highest ranked intent' selects by rank rather than pointing back (13186787, claim 4)", () => {
    expect(termsOf(findings(claimSet("13186787"), 4)).filter((t) => t.includes("intent"))).toEqual([])
    const planted = plant("13186787", 4, "selecting the highest ranked intent for the webpage", "selecting the highest ranked intent for the banner")
    expect(termsOf(findings(planted, 4))).toContain("no-antecedent-basis:banner")
  })
})

describe("verb-derived antecedents are informational", () => {
  it("'receiving a rank … the received rank' is listed at the low floor, marked informational, and gone at medium (13186787, claim 1)", () => {
    const rank = findings(claimSet("13186787"), 1).find((i) => i.term === "received rank")
    expect(rank).toMatchObject({ type: "no-antecedent-basis", severity: "low", informational: true })
    expect(findings(claimSet("13186787"), 1, "medium").some((i) => i.term === "received rank")).toBe(false)
    // Planted: the datapoint is referred to but never introduced; that is a defect, not information.
    const planted = findings(plant("13186787", 1, "storing a datapoint comprising", "storing the datapoint comprising"), 1)
    const datapoint = planted.find((i) => i.term === "datapoint")
    expect(datapoint).toMatchObject({ type: "no-antecedent-basis", severity: "high" })
    expect(datapoint?.informational).toBeUndefined()
  })

  it("counts informational findings apart in the stats", () => {
    const r = checkAntecedentBasis(claimSet("13186787"))
    expect(r.stats.informational).toBe(r.issues.filter((i) => i.informational).length)
    expect(r.stats.informational).toBeGreaterThan(0)
  })
})

describe("labelled elements are distinct", () => {
  // The wording quoted in issue 21 (a granted claim outside the sample); the sample has no labelled recitations.
  it("'a cyclic carbonate (I-2) different from the cyclic carbonate (I-1)' recites two carbonates and picks each by its label", () => {
    const labelled = "An electrolyte comprising: a cyclic carbonate (I-1); and a cyclic carbonate (I-2) different from the cyclic carbonate (I-1), wherein the cyclic carbonate (I-2) is fluorinated."
    expect(checkAntecedentBasis([{ text: labelled }]).issues).toEqual([])
    const unlabelled = "An electrolyte comprising: a cyclic carbonate; and a cyclic carbonate, wherein the cyclic carbonate is fluorinated."
    expect(termsOf(checkAntecedentBasis([{ text: unlabelled }]).issues)).toEqual(["double-inclusion:cyclic carbonate", "ambiguous-reference:cyclic carbonate"])
  })
})
