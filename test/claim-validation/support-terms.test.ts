/**
 * The terms a support chart lists: the claimed features, not the verbs and predicates around
 * them. A verb charted as a term shows up as UNDESCRIBED (the specification says "the probes
 * extend", never "an extend") and reads as a false new-matter alarm.
 */
import { describe, expect, it } from "vitest"
import { claimTerms } from "../../core/claims/support/terms.ts"

const termsOf = (...texts: string[]) => claimTerms(texts.map((text) => ({ text }))).map((c) => c.terms.map((t) => t.key))

describe("claim terms for the support chart", () => {
  it("leaves out a verb agreeing with the phrase before it, and a verb before its object", () => {
    expect(termsOf("A meter comprising a chamber and two or more probes extend into the chamber and carry the sensors.")).toEqual([
      ["meter", "chamber", "probe", "sensor"]
    ])
    expect(termsOf("A disk comprising a hub and a ring, wherein the hub and the ring each feature a land and the lands (8, 10) overlap.")).toEqual([
      ["disk", "hub", "ring", "land"]
    ])
  })

  it("leaves out a participle or adjective after 'is'", () => {
    expect(termsOf("A package comprising a lid sealed to a tray, wherein the seal is done under vacuum and the rate is dependent upon the pressure.")).toEqual([
      ["package", "lid", "tray", "seal", "vacuum", "rate", "pressure"]
    ])
  })

  it("keeps nouns: a chemical group after 'is', a split phrase's head, a noun before 'each'", () => {
    expect(termsOf("A compound of formula I, wherein R1 is hydrogen or methyl.")[0]).toEqual(expect.arrayContaining(["hydrogen", "methyl"]))
    expect(termsOf("A stage comprising a CMOS inverter with a plurality of transistors.")[0]).toContain("inverter")
    expect(termsOf("A panel having optical apertures each extending through the panel.")[0]).toContain("optical aperture")
  })

  it("keeps the head noun after an adjective even when it can be a verb ('an ohmic contact wherein', 'the conductive contacts on')", () => {
    expect(termsOf("A diode comprising an ohmic contact wherein an electrode is gold.")[0]).toContain("ohmic contact")
    expect(termsOf("A module comprising a substrate, wherein the conductive contacts on the substrate are gold.")[0]).toContain("conductive contact")
  })
})
