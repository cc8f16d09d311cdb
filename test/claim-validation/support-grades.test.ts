/**
 * Support grades on real specifications from the sample corpus. Every expectation below was
 * checked by reading the passage (or, for UNDESCRIBED, by searching the whole specification for
 * the phrase): the grade is what a practitioner would call it, at the paragraph named.
 */
import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { ArtifactStore } from "../../api/artifacts/ArtifactStore.ts"
import { ClaimSupportService } from "../../api/claim-validation/ClaimSupportService.ts"
import type { ClaimSupportResult } from "../../api/claim-validation/support-schema.ts"
import { Settings } from "../../api/config.ts"
import { settingsWith } from "../../api/server.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const sampleDir = await sampleArtifacts()

type Expect = readonly [app: string, claim: number, term: string, paragraph?: string, cue?: string]

const layer = ClaimSupportService.Default.pipe(
  Layer.provideMerge(ArtifactStore.Default),
  Layer.provide(Settings.layer(settingsWith({ artifactsDir: sampleDir, logRequests: false })))
)

const charts = new Map<string, Promise<ClaimSupportResult>>()
const chartOf = (app: string) => {
  let c = charts.get(app)
  if (!c) {
    c = Effect.runPromise(
      Effect.flatMap(ClaimSupportService, (s) => s.mapSupportForApplication(app, { parents: false, maxAncestors: 0, ocr: false })).pipe(
        Effect.provide(layer)
      )
    )
    charts.set(app, c)
  }
  return c
}

const termOf = async (app: string, claim: number, term: string) => {
  const chart = await chartOf(app)
  expect(chart.available).toBe(true)
  const c = chart.claims!.find((x) => x.number === claim)
  expect(c, `claim ${claim} of ${app}`).toBeDefined()
  const t = c!.terms.find((x) => x.term === term)
  expect(t, `term "${term}" in claim ${claim} of ${app}; has ${c!.terms.map((x) => x.term).join(" | ")}`).toBeDefined()
  return t!
}

const checkGrade = (grade: string, cases: ReadonlyArray<Expect>) =>
  describe(grade, () => {
    it.each(cases.map((c) => [...c] as [string, number, string, string?, string?]))("%s claim %i: %s", async (app, claim, term, paragraph, cue) => {
      const t = await termOf(app, claim, term)
      expect(t.grade).toBe(grade)
      if (paragraph !== undefined) expect(t.support[0].paragraph).toBe(paragraph)
      if (cue !== undefined) {
        if (grade === "CLAIM_DEFINED") expect(t.claimCue).toContain(cue)
        else expect(t.support[0].cue).toContain(cue)
      }
      if (grade !== "UNDESCRIBED" && grade !== "CLAIM_DEFINED") {
        // The location is usable as is: the offsets pick the matched words out of the snippet's paragraph.
        expect(t.support[0].grade).toBe(grade)
        expect(t.support[0].end).toBeGreaterThan(t.support[0].start)
      }
      if (grade === "UNDESCRIBED") expect(t.support).toEqual([])
    })
  })

describe("support grades on sample specifications (hand-verified)", () => {
  checkGrade("FORMALLY_DEFINED", [
    ["17714585", 4, "sensor data", "0083", "means"],
    ["10556122", 1, "brake disk hub", "0009", "understood as"],
    ["11174002", 1, "immunostimulatory oligonucleotide", "0081", "refers to"],
    ["13302302", 1, "absorbent article", "0095", "refers to"],
    ["13302302", 1, "skin care composition", "0022", "refers to"],
    ["12125967", 1, "semiconductor device", "0002", "refers to"],
    ["12728183", 9, "vitamin b3 compound", "0056", "means"],
    ["12028604", 1, "hydrocarbonaceous material", "0028", "refers to"],
    ["12028604", 1, "permeable body", "0031", "refers to"],
    ["12393559", 1, "heat sink", "0073", "defined to include"],
    ["11512051", 1, "isolated antibody", "0270", "means"],
    ["11425625", 1, "trough member", "0055", "used to refer"],
    ["10945837", 1, "subscriber line", "0001", "means"],
    ["11345318", 1, "lens component", "0016", "defined as"],
    ["11197711", 1, "effective amount", "0075", "means"]
  ])

  checkGrade("CLAIM_DEFINED", [
    ["29129833", 1, "confection item", undefined, "in the form of"],
    ["11262401", 1, "second charge transport molecule", undefined, "selected from the group consisting of"],
    ["10258197", 1, "additional mounting plate", undefined, "in the form of"],
    ["12045950", 5, "high hand", undefined, "consisting of"],
    ["12045950", 5, "low hand", undefined, "consisting of"],
    ["10103829", 1, "structure variable body", undefined, "is selected from"],
    ["11938200", 5, "irregular pentagon shape", undefined, "defined by"],
    ["11497205", 1, "polypeptide sequence", undefined, "selected from the group consisting of"],
    ["13299685", 1, "circuit region", undefined, "defined by"],
    ["08207976", 1, "fibrous material", undefined, "is selected from"],
    ["11063095", 1, "hardware token", undefined, "is an"],
    ["15453517", 2, "c otdr", undefined, "is a"]
  ])

  checkGrade("ENUMERATED", [
    ["13804906", 12, "treatment fluid", "0039", "such as"],
    ["11262401", 1, "imaging member", "0003", "such as"],
    ["11777902", 1, "oxygen sensor", "0008", "such as"],
    ["11777902", 1, "exhaust oxygen sensor", "0002"],
    ["17848319", 1, "media content", "0034", "such as"],
    ["11133310", 1, "display surface", "0113", "such as"],
    ["10890560", 1, "stick object", "0017", "such as"],
    ["12140058", 1, "electronic device", "0014", "examples of"],
    ["17432212", 1, "graph information", "0074", "examples of"],
    ["17714585", 1, "appearance parameter", "0045", "includes one or more of"],
    ["10623227", 1, "hydrocarbon fuel", "0015", "including, but not limited to"],
    ["10103829", 10, "thermoplastic substance", "00091", "examples of"],
    ["17714585", 6, "color space", "0052", "such as"]
  ])

  checkGrade("EMBODIMENT", [
    ["13353293", 1, "dorsal pad", "0006", "1"],
    ["29377713", 1, "garden stake", "0001", "FIG. 1"],
    ["13804906", 1, "turbine generator", "0043", "30"],
    ["09782496", 1, "vacuum cleaner", "7", "FIG. 1"],
    ["09782496", 1, "passage inlet", "17", "42"],
    ["11777902", 1, "internal combustion engine", "0009", "10"],
    ["10890560", 1, "rigid body", "0013", "12"],
    ["10890560", 1, "first end", "0013", "14"],
    ["12621645", 1, "probe cover dispenser", "0004", "FIG. 1"],
    ["11326152", 1, "first channel video decoder", "0019", "FIG. 4"],
    ["11540198", 1, "ce network element", "0023", "FIG. 4"],
    ["10258197", 1, "belt retractor", undefined, "embodiment"]
  ])

  checkGrade("FUNCTIONAL", [
    ["09782496", 1, "housing passage", "6", "constructed to"],
    ["11262401", 19, "transfer component", "0041", "for transferring"],
    ["11133310", 1, "first processing unit", "0019", "configured to"],
    ["12140058", 1, "solid polymer electrolyte", "0045", "acts as"],
    ["10446671", 7, "pressure medium gas supply means", "00019", "for supplying"],
    ["11749326", 11, "control means", "0005", "for controlling"],
    ["10388774", 17, "input pad", "0083", "configured to"],
    ["13529578", 1, "first input section", "0014", "for receiving"],
    ["12045950", 1, "operating unit", "0013", "for receiving"],
    ["10314986", 1, "phosphorous silicate glass layer", "00009", "for limiting"],
    ["11508880", 1, "starting control module", "0008", "that controls"],
    ["13372376", 17, "optical scanner", "0020", "that detects"]
  ])

  checkGrade("DESCRIBED", [
    ["13804906", 6, "maximum current", "0068"],
    ["11540198", 1, "group controller key server", "0012"],
    ["11540198", 1, "network routing engine", "0031"],
    ["11777902", 1, "error condition", "0004"],
    ["11133310", 7, "predetermined color", "0072"],
    ["11326152", 10, "pixel value", "0035"],
    ["10890560", 1, "distinguishable sleeve member", "0006"],
    ["12621645", 5, "upper y shaped linking structure", "0034"],
    ["10446671", 6, "aluminum alloy", "00018"],
    ["17432212", 2, "owner information", "0026"],
    ["13529578", 1, "heat engine", "0012"],
    ["10631157", 15, "low power state", "00051"]
  ])

  checkGrade("UNDESCRIBED", [
    ["09782496", 4, "cover sealing rim"],
    ["11540198", 1, "scalable manner"],
    ["11133310", 3, "selecting unit"],
    ["11326152", 1, "shared video signal processor"],
    ["10890560", 1, "outside surface"],
    ["10890560", 1, "garment"],
    ["11749326", 1, "vibration element"],
    ["10388774", 5, "display functionality"],
    ["11163489", 1, "longitudinal axis"],
    ["11163489", 1, "flat blade"],
    ["12001358", 1, "electrical power source"],
    ["17718024", 19, "chemical reactivity"]
  ])
})
