/**
 * Implicit basis found under other wording, and the chunking it relies on. Each case pairs a
 * claim that must not raise a high finding with a real defect next to it that still must, so no
 * rule is a blanket exemption.
 */
import { describe, expect, it } from "vitest"
import { checkAntecedentBasis } from "../../core/claims/antecedent/index.ts"
import type { AntecedentResult } from "../../core/claims/antecedent/types.ts"

const check = (texts: string[]) => checkAntecedentBasis(texts.map((text) => ({ text })), { includeSuppressed: true })
const terms = (r: AntecedentResult) => r.issues.map((i) => `${i.claimNumber}:${i.type}:${i.term}:${i.severity}`)
const rules = (r: AntecedentResult) => (r.suppressed ?? []).map((s) => `${s.term}:${s.rule}`)

describe("suppression: claims in formal terms, step-plus-function, Markush groups, anaphoric modifiers", () => {
  it("a design or plant claim names the article shown and recites nothing to refer back to", () => {
    const design = check(["I claim the ornamental design for the container having a curved lid, as shown and described."])
    expect(design.issues).toEqual([])
    expect(rules(design)).toEqual(["ornamental design:formal-claim", "container:formal-claim"])
    const plant = check(["A new and distinct variety of rose plant as illustrated and described, characterized by the foliage."])
    expect(plant.issues).toEqual([])
  })

  it("a utility claim that mentions a figure is checked as usual", () => {
    expect(terms(check(["A bottle comprising a cap, wherein the label is printed as shown."]))).toEqual(["1:no-antecedent-basis:label:high"])
  })

  it("'the step for' is a step-plus-function element; 'step-down' is no step", () => {
    const r = check(["A method of treating a heart, comprising: a. the step for providing a device; and b. the step for deploying the device."])
    expect(r.issues).toEqual([])
    expect(rules(r)).toEqual(["step:step-reference"])
    expect(terms(check(["A power supply comprising: a supply unit; and the step-down converter which converts an input."]))).toEqual([
      "1:no-antecedent-basis:step-down converter:high"
    ])
  })

  it("the members of 'selected from the group of' are alternatives, not references", () => {
    expect(check(["A process comprising treating a feed by one or more steps selected from the group of hydrotreating, hydrocracking and hydrofinishing."]).issues).toEqual([])
    expect(terms(check(["A process comprising heating a feed, wherein the catalyst is selected from the group of platinum and nickel."]))).toEqual([
      "1:no-antecedent-basis:catalyst:high"
    ])
  })

  it("'the foregoing actions' points at the text, not at a recitation", () => {
    const r = check(["A device comprising a control element actuated by pressing, turning, or any combination of the foregoing actions."])
    expect(r.issues).toEqual([])
    expect(rules(r)).toEqual(["foregoing actions:well-known-definite"])
    expect(terms(check(["A device comprising a control element actuated by any combination of the latest actions."]))).toEqual([
      "1:no-antecedent-basis:latest actions:high"
    ])
  })
})

describe("severity: basis under other wording is demoted, never hidden", () => {
  const severityOf = (texts: string[], term: string) => check(texts).issues.find((i) => i.term === term)?.severity

  it("derives a noun from an earlier verb or adjective", () => {
    expect(severityOf(["A method comprising: comparing a value to a baseline; and responsive to a result of the comparison, raising an alert."], "comparison")).toBe("low")
    expect(severityOf(["An apparatus comprising: a sensor photoelectrically converting light; and a unit operating on a signal obtained by the photoelectric conversion."], "photoelectric conversion")).toBe("low")
    expect(severityOf(["A method comprising: measuring a value; and responsive to a result of the calibration, raising an alert."], "calibration")).toBe("high")
  })

  it("joins and splits compounds: 'work piece' after 'workpiece', 'husks' after 'de-husking'", () => {
    expect(severityOf(["A method comprising: directing light onto a workpiece; and moving the work piece."], "work piece")).toBe("low")
    expect(severityOf(["A method comprising: de-husking corn cobs in a machine, some of the cobs having the husks attached thereto."], "husks")).toBe("low")
    expect(severityOf(["A method comprising: directing light onto a workpiece; and moving the work table."], "work table")).toBe("high")
  })

  it("a generic process head names the process already recited", () => {
    expect(severityOf(["A method of milking an animal comprising filling a chamber during the milking procedure."], "milking procedure")).toBe("low")
    expect(severityOf(["A method of milking an animal comprising filling a chamber by the milking robot."], "milking robot")).toBe("high")
    expect(severityOf(["A method comprising: placing a first panel on a platform; and moving the first stage."], "first stage")).toBe("high")
    expect(severityOf(["A method of milking comprising counting cycles of a chamber to identify the stage in which milk flows."], "stage")).toBe("medium")
    expect(severityOf(["An apparatus comprising: a chamber; and a counter counting cycles of the chamber to identify the stage in which milk flows."], "stage")).toBe("high")
  })

  it("a phrase that runs into its verb ends there (the tagger reads 'create' as the verb)", () => {
    expect(check(["A wing comprising an upper surface, wherein the outer sections of the wing create aerodynamic forces."]).issues).toEqual([])
    expect(severityOf(["A wing comprising an upper surface, wherein the outer sections of the rudder create aerodynamic forces."], "rudder")).toBe("high")
  })

  it("a predicate defines rather than refers (low); a symbol names a quantity (medium)", () => {
    expect(severityOf(["A combination comprising a first drug, which is the statin inhibitor rosuvastatin, and a second drug."], "statin inhibitor rosuvastatin")).toBe("low")
    expect(severityOf(["A combination comprising a first drug and a second drug, wherein the statin inhibitor is rosuvastatin."], "statin inhibitor")).toBe("high")
    expect(severityOf(["An apparatus comprising a yarn and a meter measuring a relation between the tension T and an elongation of the yarn."], "tension t")).toBe("medium")
  })

  it("parts and states of a recited patient's body are low; the same words in a machine are high", () => {
    const treat = "A method of treating osteoarthritis comprising administering a compound to an individual in need thereof, wherein the compound protects the synovial membrane and reduces the pain."
    expect(severityOf([treat], "synovial membrane")).toBe("low")
    expect(severityOf([treat], "pain")).toBe("low")
    expect(severityOf(["A filter comprising a frame, wherein the synovial membrane is stretched across the frame."], "synovial membrane")).toBe("high")
  })
})

describe("chunking the basis relies on", () => {
  it("reads past reference signs: 'the bead (36) of the piston (34)' is tied to the piston", () => {
    const r = check(["A device comprising a housing (10) and a piston (34).", "The device of claim 1, in which a disc (40) is fixed on the bead (36) of the piston (34)."])
    expect(terms(r)).toEqual(["2:no-antecedent-basis:bead:low"])
    expect(terms(check(["A device comprising a cylinder (34) and a disc (40), wherein the spring (12) biases the disc."]))).toEqual(["1:no-antecedent-basis:spring:high"])
    expect(check(["A method comprising heating a gas, wherein the heating satisfies the equation (2)."]).issues).toEqual([])
  })

  it("'and/or' joins two phrases, and either alternative of 'a/b' carries the basis", () => {
    expect(check(["A clamp comprising a jaw and a screw, wherein the jaw and/or the screw is steel."]).issues).toEqual([])
    expect(terms(check(["A clamp comprising a jaw and a screw, wherein the jaw and/or the spring is steel."]))).toEqual(["1:no-antecedent-basis:spring:high"])
    const base = "An LED assembly comprising: a base; and at least one LED die attached to the base."
    expect(check([base, "The LED assembly of claim 1, further comprising a lens covering the LED die/dice."]).issues).toEqual([])
    expect(terms(check([base, "The LED assembly of claim 1, further comprising a lens covering the LED chip/chips."]))).toEqual(["2:no-antecedent-basis:led chip/chips:high"])
  })

  it("a dash is punctuation, not part of the word before it", () => {
    const r = check(["A foil comprising a plasticizer and a non-ionic surfactant, wherein a ratio of the plasticizer to the non-ionic surfactant—based on weight—is 3:1."])
    expect(r.issues).toEqual([])
  })

  it("a verb after a noun that can also be coordinated ends the phrase ('the voltage source varies')", () => {
    expect(check(["A flashlight comprising a DC voltage source and a circuit holding a light output as a voltage on the DC voltage source varies."]).issues).toEqual([])
    expect(check(["An amplifier comprising an input and an output, wherein the output rises as the input rises."]).issues).toEqual([])
  })

  it("a measure after 'the' is no element ('within the 800 MHz to 2500 MHz frequency range'), and 'the 2 mm slot' rests on 'a slot'", () => {
    expect(check(["An antenna comprising a radiator having a standing wave ratio below 2 within the 800 MHz to 2500 MHz frequency range."]).issues).toEqual([])
    expect(check(["A plate comprising a slot, wherein the 2 mm slot is open."]).issues).toEqual([])
  })

  it("a participle spelled like a noun is a participle before 'by' ('the frequency set by the controller')", () => {
    expect(check(["A pump comprising a controller that sets a frequency, wherein the frequency set by the controller is variable."]).issues).toEqual([])
    expect(terms(check(["A pump comprising a controller, wherein the threshold set by the controller is variable."]))).toEqual(["1:no-antecedent-basis:threshold:high"])
  })

  it("after a plural determiner an -s word is the head, not a verb", () => {
    expect(terms(check(["A deflector comprising: a base; and two angled front faces downwardly extending from the base, wherein the angled front face is flat."]))).toEqual([
      "1:plural-singular-mismatch:angled front face:medium"
    ])
    expect(check(["A deflector comprising: a base; and an angled front face downwardly extending from the base, wherein the angled front face is flat."]).issues).toEqual([])
    expect(terms(check(["A board comprising a substrate having two lower lands of a via, wherein the lower land is exposed."]))).toEqual([
      "1:plural-singular-mismatch:lower land:medium"
    ])
  })

  it("counts a mass noun recited in the plural, and a step verb does not swallow the count", () => {
    expect(terms(check(["A method comprising: depositing two insulating materials on a substrate; and removing said insulating material."]))).toEqual([
      "1:plural-singular-mismatch:insulating material:medium"
    ])
    expect(check(["A method comprising: depositing an insulating material on a substrate; and removing said insulating material."]).issues).toEqual([])
  })

  it("'a plurality of pins each having …' makes a later singular reference distributive", () => {
    expect(check(["A connector comprising a plurality of pins each having a head, said pin being bent."]).issues).toEqual([])
    expect(terms(check(["A connector comprising a plurality of pins and a housing, said pin being bent."]))).toEqual(["1:plural-singular-mismatch:pin:medium"])
  })
})
