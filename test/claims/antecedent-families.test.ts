/** Each defect family, each suppression rule, severities, filtering and the result shape. */
import { describe, expect, it } from "vitest"
import { checkAntecedentBasis } from "../../core/claims/antecedent/index.ts"
import type { AntecedentResult, IssueType } from "../../core/claims/antecedent/types.ts"

const check = (texts: string[], options = {}) => checkAntecedentBasis(texts.map((text) => ({ text })), options)
const issuesOf = (r: AntecedentResult, type?: IssueType) => r.issues.filter((i) => type === undefined || i.type === type)
const terms = (r: AntecedentResult, type?: IssueType) => issuesOf(r, type).map((i) => `${i.claimNumber}:${i.term}:${i.severity}`)

describe("no antecedent basis", () => {
  it("is high when nothing like the term is recited anywhere", () => {
    expect(terms(check(["A clamp comprising: a jaw; and a screw, wherein the spring biases the jaw."]))).toEqual(["1:spring:high"])
  })

  it("is medium when the basis sits only in a sibling claim", () => {
    const r = check([
      "A lamp comprising: a base; and a shade.",
      "The lamp of claim 1, further comprising a bulb.",
      "The lamp of claim 1, wherein the bulb is an LED."
    ])
    expect(terms(r)).toEqual(["3:bulb:medium"])
  })

  it("is inherited along the whole dependency chain", () => {
    const r = check([
      "A lamp comprising: a base; and a shade.",
      "The lamp of claim 1, further comprising a bulb.",
      "The lamp of claim 2, further comprising a socket holding the bulb.",
      "The lamp of claim 3, wherein the socket and the bulb are threaded."
    ])
    expect(r.issues).toEqual([])
    expect(r.dependencies.find((d) => d.claimNumber === 4)?.chain).toEqual([1, 2, 3])
  })

  it("is medium when a modifier is added that appears nowhere earlier", () => {
    expect(terms(check(["A door comprising: a frame; and a lever, wherein said aluminum lever is pivotable."]))).toEqual(["1:aluminum lever:medium"])
  })

  it("is low when the words are there under other wording", () => {
    expect(terms(check(["A method comprising: receiving a message; and storing the received message."]))).toEqual(["1:received message:low"])
  })

  it("treats said like the and resolves plural forms", () => {
    const r = check(["A rack comprising: a plurality of hooks; and a frame supporting said hooks, wherein each of the hooks is steel and the plurality of hooks is removable."])
    expect(r.issues).toEqual([])
  })

  it("reports a term once per claim, at its first unsupported use", () => {
    const r = check(["A door comprising: a frame, wherein the lever is pivotable and the lever is steel."])
    expect(terms(r)).toEqual(["1:lever:high"])
    expect(r.issues[0].start).toBe("A door comprising: a frame, wherein the ".length)
  })
})

describe("double inclusion and ambiguity", () => {
  it("flags an element introduced twice without anything telling the two apart", () => {
    expect(terms(check(["A device comprising: a widget; and a widget."]), "double-inclusion")).toEqual(["1:widget:medium"])
  })

  it("flags a dependent claim re-introducing an element of its parent, and the reference after it", () => {
    const r = check(["A bracket comprising: a plate; and a fastener.", "The bracket of claim 1, further comprising a fastener, wherein the fastener is threaded."])
    expect(terms(r)).toEqual(["2:fastener:medium", "2:fastener:medium"])
    expect(issuesOf(r).map((i) => i.type)).toEqual(["double-inclusion", "ambiguous-reference"])
  })

  it("leaves distinct, qualified introductions alone but calls a later bare reference ambiguous", () => {
    const r = check(["A door comprising: a frame; a lever attached to a top of the frame; and a lever attached to a bottom of the frame, wherein the lever is spring biased."])
    expect(terms(r)).toEqual(["1:lever:medium"])
    expect(r.issues[0].type).toBe("ambiguous-reference")
  })

  it("does not count 'another' as a re-introduction, and ordinals keep elements apart", () => {
    const r = check(["A gearbox comprising: a first gear; a second gear meshing with the first gear; and another shaft, wherein the second gear is helical."])
    expect(r.issues).toEqual([])
  })

  it("does not count parts of different elements as a re-introduction ('a second switch having a control terminal')", () => {
    const r = check([
      "A circuit comprising: a first switch having a control terminal; and a second switch having a control terminal, an input, and an output.",
      "The circuit of claim 1, further comprising a third switch having a control terminal and an input."
    ])
    expect(issuesOf(r, "double-inclusion")).toEqual([])
    // A bare reference to one of them is still ambiguous, and the same part of the same element is still double.
    expect(terms(check(["A catheter comprising a shaft having a distal end, and a balloon having a distal end, wherein the distal end is sealed."]))).toEqual(["1:distal end:medium"])
    expect(terms(check(["A catheter comprising a shaft having a distal end and a distal end."]), "double-inclusion")).toEqual(["1:distal end:medium"])
  })

  it("is settled by the of-phrase", () => {
    const r = check(["A mixture comprising: an amount of salt; and an amount of sugar, wherein the amount of sugar exceeds the amount of salt."])
    expect(issuesOf(r, "ambiguous-reference")).toEqual([])
  })
})

describe("plural / singular mismatch", () => {
  it("flags a singular reference to a plural recitation", () => {
    expect(terms(check(["A rack comprising: a frame; and two widgets mounted on the frame, wherein the widget is red."]))).toEqual(["1:widget:medium"])
  })

  it("flags a plural reference to a single recitation as low", () => {
    expect(terms(check(["A rack comprising: a frame; and a hook, wherein the hooks are steel."]))).toEqual(["1:hooks:low"])
  })

  it("takes the collection itself as one thing: 'a set of hooks … the set'", () => {
    const r = check(["A rack comprising a set of hooks and a series of bars, wherein the set is mounted on a wall and a first bar in the series is bent."])
    expect(r.issues).toEqual([])
  })

  it("ends the noun phrase before a verb that closes the clause ('the levers rotate.')", () => {
    expect(terms(check(["A latch comprising: a housing; and a lever mounted to the housing, wherein the levers rotate."]))).toEqual(["1:levers:low"])
  })

  it("accepts either number after 'one or more' and 'at least one'", () => {
    const r = check(["A rack comprising: one or more hooks; and at least one bar, wherein the hooks are steel, the hook is bent, the at least one bar is round and the bars are hollow."])
    expect(issuesOf(r, "plural-singular-mismatch")).toEqual([])
  })

  it("accepts a singular reference after 'each'", () => {
    const r = check(["An engine comprising: a plurality of cylinders, each cylinder having a valve, wherein the valve of said cylinder opens."])
    expect(issuesOf(r, "plural-singular-mismatch")).toEqual([])
  })
})

describe("improper dependency", () => {
  const set = (ref: string) => check(["A lamp comprising a base.", `The lamp of ${ref}, wherein the base is round.`, "The lamp of claim 1, wherein the base is square."])

  it("flags a dependency on a later claim as medium", () => {
    expect(terms(set("claim 3"), "improper-dependency")).toEqual(["2:claim 3:medium"])
  })

  it("flags a dependency on a missing claim or on itself as high", () => {
    expect(terms(set("claim 7"), "improper-dependency")).toEqual(["2:claim 7:high"])
    expect(terms(set("claim 2"), "improper-dependency")).toEqual(["2:claim 2:high"])
  })

  it("flags a dependency on a canceled claim", () => {
    const r = checkAntecedentBasis([{ number: 1, text: "A lamp comprising a base." }, { number: 2, text: "(Canceled)" }, { number: 3, text: "The lamp of claim 2, wherein the base is round." }], {})
    expect(terms(r, "improper-dependency")).toEqual(["3:claim 2:high"])
  })

  it("offsets cover the claim reference", () => {
    const r = set("claim 3")
    const i = issuesOf(r, "improper-dependency")[0]
    expect(i.display).toBe("claim 3")
  })
})

describe("preamble-only basis, missing article, modified reference", () => {
  it("reports basis found only in the preamble once per chain, never for the claimed subject", () => {
    const r = check([
      "A method of cooling a processor, comprising: attaching a heat sink to the processor; and driving a fan, wherein the method is quiet.",
      "The method of claim 1, wherein the processor is a CPU."
    ])
    expect(terms(r)).toEqual(["1:processor:low"])
    expect(r.issues[0].type).toBe("preamble-only-basis")
  })

  it("reports an element referred to without its article", () => {
    const r = check(["A ventilation system comprising: a housing; and an air circulation unit.", "The ventilation system of claim 1, wherein air circulation unit is configured to reverse."])
    expect(terms(r, "missing-article")).toEqual(["2:air circulation unit:low"])
  })

  it("reports a reference to an element after a step modified it", () => {
    const r = check(["A method comprising: receiving a record; modifying the record; and sending the record."])
    expect(terms(r, "modified-reference")).toEqual(["1:record:low"])
  })
})

describe("suppression of implicit basis (MPEP 2173.05(e))", () => {
  const cases: Array<[string, string, string]> = [
    ["inherent-attribute", "A bearing comprising: a sphere; and a coating on the outer surface of the sphere.", "outer surface"],
    ["user-style", "A phone comprising: a screen that displays an alert to the user.", "user"],
    ["well-known-definite", "A kit comprising: a first box and a second box of the same size.", "same size"],
    ["claim-reference", "The reactor of claim 2, wherein the heater is used in the process of claim 1.", "process"],
    ["step-reference", "A method comprising the steps of heating a wafer and cooling the wafer.", "steps"],
    ["verb-nominalization", "A method comprising: rotating a disk, wherein the rotation is slow.", "rotation"],
    ["role-designation", "A cell comprising: a gel containing zinc as the active component.", "active component"],
    ["formal-claim", "The ornamental design for a bottle, as shown and described.", "ornamental design"]
  ]
  for (const [rule, text, term] of cases) {
    it(`${rule}: not an issue, returned with the rule under includeSuppressed`, () => {
      const claims = rule === "claim-reference" ? ["A method of making a resin comprising heating a monomer.", "A reactor comprising: a vessel; and a heater.", text] : [text]
      const plain = check(claims)
      expect(plain.issues.filter((i) => i.term === term)).toEqual([])
      expect(plain.suppressed).toBeUndefined()
      const full = check(claims, { includeSuppressed: true })
      const s = full.suppressed?.find((x) => x.term === term)
      expect(s?.rule).toBe(rule)
      const claimText = claims[s!.claimNumber - 1]
      expect(claimText.slice(s!.start, s!.end)).toBe(s!.display)
    })
  }
})

describe("result shape and options", () => {
  const claims = [
    "A door assembly comprising: a frame; and a hinge attached to the frame, wherein said lever pivots the hinge.",
    "The door assembly of claim 1, wherein the hinge is steel and the hooks are red.",
    "The door assembly of claim 5, wherein the frame is wood."
  ]

  it("fills stats and per-claim fields per SPEC 2.6", () => {
    const r = check(claims)
    expect(r.available).toBe(true)
    expect(r.claims.map((c) => [c.number, c.isIndependent, c.dependsOn])).toEqual([[1, true, []], [2, false, [1]], [3, false, [5]]])
    expect(r.claims[0].introducedTerms).toEqual(["frame", "hinge"])
    expect(r.stats.claimCount).toBe(3)
    expect(r.stats.independentCount).toBe(1)
    expect(r.stats.issueCount).toBe(r.issues.length)
    expect(r.stats.claimsWithIssues).toBe(r.claims.filter((c) => c.issues.length > 0).length)
    expect(r.stats.bySeverity.high + r.stats.bySeverity.medium + r.stats.bySeverity.low).toBe(r.issues.length)
    expect(Object.values(r.stats.byType).reduce((a, b) => a + b, 0)).toBe(r.issues.length)
    expect(r.claims.flatMap((c) => c.issues)).toEqual(r.issues)
  })

  it("filters by minSeverity everywhere, stats included", () => {
    const all = check(claims)
    const high = check(claims, { minSeverity: "high" })
    expect(high.issues.every((i) => i.severity === "high")).toBe(true)
    expect(high.issues).toEqual(all.issues.filter((i) => i.severity === "high"))
    expect(high.stats.bySeverity).toEqual({ high: high.issues.length, medium: 0, low: 0 })
    const medium = check(claims, { minSeverity: "medium" })
    expect(medium.issues.every((i) => i.severity !== "low")).toBe(true)
  })

  it("is deterministic", () => {
    expect(check(claims, { includeSuppressed: true })).toEqual(check(claims, { includeSuppressed: true }))
  })

  it("numbers claims from their position when none is given and keeps given numbers", () => {
    const r = checkAntecedentBasis([{ number: 10, text: "A cup comprising a handle." }, { number: 11, text: "The cup of claim 10, wherein the handle is round." }], {})
    expect(r.claims.map((c) => c.number)).toEqual([10, 11])
    expect(r.issues).toEqual([])
  })

  it("an empty issues list is the clean signal", () => {
    const r = check(["A cup comprising: a body; and a handle attached to the body.", "The cup of claim 1, wherein the handle is round."])
    expect(r.issues).toEqual([])
    expect(r.stats.claimsWithIssues).toBe(0)
  })
})
