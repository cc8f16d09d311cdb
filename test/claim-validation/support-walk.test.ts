/**
 * The support service end to end on real layers: the filed chart, the continuity walk over the
 * sample corpus (where parents rarely have text), the OCR switch, supplied sections, and a
 * constructed artifact version where the parent's text is on file and lacks a child's term.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import { Effect, Layer, Schema } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ArtifactStore } from "../../api/artifacts/ArtifactStore.ts"
import { ClaimSupportService, type SupportRequestInput } from "../../api/claim-validation/ClaimSupportService.ts"
import { ClaimSupportResult } from "../../api/claim-validation/support-schema.ts"
import { type ApiSettings, Settings } from "../../api/config.ts"
import { settingsWith } from "../../api/server.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const sampleDir = await sampleArtifacts()
const layerFor = (overrides: Partial<ApiSettings>) =>
  ClaimSupportService.Default.pipe(
    Layer.provideMerge(ArtifactStore.Default),
    Layer.provide(Settings.layer(settingsWith({ artifactsDir: sampleDir, logRequests: false, ...overrides })))
  )

const filed = (app: string, opts: { parents: boolean; maxAncestors: number; ocr: boolean }, overrides: Partial<ApiSettings> = {}) =>
  Effect.runPromise(Effect.flatMap(ClaimSupportService, (s) => s.mapSupportForApplication(app, opts)).pipe(Effect.provide(layerFor(overrides))))

const posted = (input: SupportRequestInput, overrides: Partial<ApiSettings> = {}) =>
  Effect.runPromise(Effect.flatMap(ClaimSupportService, (s) => s.mapSupport(input)).pipe(Effect.provide(layerFor(overrides))))

const decode = Schema.decodeUnknownSync(ClaimSupportResult)

describe("GET support for a filed application", () => {
  it("walks the continuity chain and reports parents without text as unreadable, not as errors", async () => {
    const r = await filed("10391892", { parents: true, maxAncestors: 6, ocr: false })
    decode(r)
    expect(r).toMatchObject({ available: true, source: "warehouse", appNum: "10391892", walk: { ran: true, ancestorsFound: 2, truncated: false } })
    expect(r.ancestors!.map((a) => [a.appNum, a.relation, a.depth, a.textAvailable, a.filingDate])).toEqual([
      ["10293187", "CON", 1, false, "2002-11-12"],
      ["09704380", "CON", 2, false, "2000-10-31"]
    ])
    for (const a of r.ancestors!) {
      expect(a.reason).toBe("no-text-in-corpus")
      expect(a.detail).toMatch(/not in the corpus|no specification text/)
      expect(a.missingTerms).toEqual([])
    }
    // Unreadable ancestors contribute nothing: supported terms become (inconclusive) new matter.
    expect(r.newMatter!.length).toBeGreaterThan(0)
    expect(r.newMatter!.every((n) => !n.conclusive && n.unreadable.includes("10293187") && n.notSupportedIn.length === 0)).toBe(true)
    expect(r.newMatter!.map((n) => n.term)).toContain("data structure")
    expect(r.stats!.newMatterCount).toBe(r.newMatter!.length)
    expect(r.ocr).toEqual({ requested: false, enabled: true, applied: false })
  })

  it("grades terms in an ancestor whose text is on file (design CIP 29362092 → 29355483)", async () => {
    const r = await filed("29362092", { parents: true, maxAncestors: 6, ocr: false })
    const parent = r.ancestors!.find((a) => a.appNum === "29355483")!
    expect(parent).toMatchObject({ relation: "CIP", depth: 1, textAvailable: true, source: "warehouse", inCorpus: true })
    expect(parent.paragraphCount).toBeGreaterThan(0)
    expect(parent.supportedTerms).toBe(parent.termsChecked)
    const chair = r.claims![0].terms.find((t) => t.term === "chair")!
    expect(chair.ancestors).toContainEqual(expect.objectContaining({ appNum: "29355483" }))
    expect(r.newMatter!.filter((n) => n.term === "chair")).toEqual([])
  })

  it("skips the walk with parents=0 and caps it with maxAncestors", async () => {
    const off = await filed("10391892", { parents: false, maxAncestors: 6, ocr: false })
    expect(off.walk).toMatchObject({ requested: false, ran: false })
    expect(off.ancestors).toBeUndefined()
    expect(off.newMatter).toBeUndefined()
    const capped = await filed("10391892", { parents: true, maxAncestors: 1, ocr: false })
    expect(capped.ancestors!.map((a) => a.appNum)).toEqual(["10293187"])
    expect(capped.walk).toMatchObject({ ran: true, ancestorsFound: 1, truncated: true })
  })

  it("OCR: allowed and switched on finds no page images; switched off, ocr=1 is ignored", async () => {
    const on = await filed("10391892", { parents: true, maxAncestors: 6, ocr: true }, { ocrEnabled: true })
    expect(on.ocr).toEqual({ requested: true, enabled: true, applied: false })
    expect(on.ancestors!.every((a) => a.reason === "ocr-no-images" && /no page images/.test(a.detail!))).toBe(true)
    const off = await filed("10391892", { parents: true, maxAncestors: 6, ocr: true }, { ocrEnabled: false })
    expect(off.ocr).toMatchObject({ requested: true, enabled: false, applied: false })
    expect(off.ocr!.note).toMatch(/ignored/)
    expect(off.ancestors!.every((a) => a.reason === "no-text-in-corpus")).toBe(true)
  })

  it("answers available: false (not an error) when nothing is on file", async () => {
    const r = await filed("99999999", { parents: true, maxAncestors: 6, ocr: false })
    expect(r).toEqual({ available: false, source: "warehouse", appNum: "99999999", reason: "no-claims" })
    decode(r)
  })
})

describe("POST support", () => {
  const claims = [
    { text: "A washing machine comprising: a cabinet; a drum rotatably mounted in the cabinet; and a vibration damper configured to damp oscillation of the drum." },
    { text: "The washing machine of claim 1, wherein the vibration damper is a friction damper." },
    { text: "The washing machine of claim 1, further comprising a lint filter." }
  ]
  const sections = [
    { name: "SUMMARY", text: "A washing machine is provided.\n\nThe drum is supported in a cabinet." },
    {
      type: "detailed-description",
      name: "DETAILED DESCRIPTION",
      text: "[0010] Referring to FIG. 1, the washing machine 10 has a cabinet 12 and a drum 14.\n[0011] As used herein, the term \"vibration damper\" means any device that absorbs oscillation energy of the drum, such as a friction damper or a fluid damper."
    }
  ]

  it("charts supplied sections with offsets that point into the supplied text", async () => {
    const r = await posted({ claims, sections, includeParents: true, maxAncestors: 6, ocr: false })
    decode(r)
    expect(r).toMatchObject({ available: true, source: "request", walk: { requested: true, ran: false } })
    expect(r.walk!.note).toMatch(/needs appNum/)
    const terms = new Map(r.claims!.flatMap((c) => c.terms.map((t) => [t.term, t] as const)))
    expect(terms.get("vibration damper")!.grade).toBe("FORMALLY_DEFINED")
    expect(terms.get("cabinet")!.grade).toBe("EMBODIMENT")
    // Claim 2 bounds the damper too ("wherein the vibration damper is a friction damper"); the formal definition outranks it.
    expect(terms.get("vibration damper")).toMatchObject({ definedInClaim: 2, claimCue: expect.stringContaining("is a") })
    // "such as a friction damper": an instance in a list is mentioned, not itself scoped.
    expect(terms.get("friction damper")!.grade).toBe("DESCRIBED")
    expect(terms.get("lint filter")!.grade).toBe("UNDESCRIBED")
    expect(r.grades!.UNDESCRIBED).toBe(1)
    const damper = terms.get("vibration damper")!.support[0]
    expect(damper).toMatchObject({ section: "DETAILED DESCRIPTION", sectionKind: "detailed-description", paragraph: "0011", cue: "means" })
    const source = sections[1].text
    expect(source.slice(damper.sectionOffset + damper.start, damper.sectionOffset + damper.end)).toBe("vibration damper")
    // Claim offsets slice the claim text as given.
    const t = terms.get("lint filter")!
    expect(claims[2].text.slice(t.start, t.end)).toBe(t.display)
  })

  it("pulls the filed specification when only appNum is given", async () => {
    const r = await posted({ claims: [{ text: "A method of decoding using a data structure and a Huffman code." }], appNum: "10391892", includeParents: false, maxAncestors: 6, ocr: false })
    expect(r).toMatchObject({ available: true, source: "warehouse", appNum: "10391892" })
    expect(r.claims![0].terms.find((t) => t.term === "data structure")!.grade).not.toBe("UNDESCRIBED")
  })
})

describe("new matter against a parent whose text is on file (constructed artifact version)", () => {
  let dir = ""
  const child = "91000002"
  const parent = "91000001"
  const grandparent = "60000001"

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "support-walk-"))
    await fs.mkdir(path.join(dir, "tables"))
    await fs.copyFile(path.join(sampleDir, "manifest.json"), path.join(dir, "manifest.json"))
    const db = await DuckDBInstance.create(":memory:")
    const c = await db.connect()
    const out = (t: string) => `'${path.join(dir, "tables", `${t}.parquet`)}'`
    await c.run(`COPY (SELECT * FROM (VALUES
      ('${child}', 1, 'A washing machine comprising: a cabinet; a drum rotatably mounted in the cabinet; and a vibration damper configured to damp oscillation of the drum.', []::INTEGER[], true, 'test'),
      ('${child}', 2, 'The washing machine of claim 1, further comprising a door seal.', [1]::INTEGER[], false, 'test')
    ) t(app_num, claim_num, text, depends_on, is_independent, source)) TO ${out("claims")} (FORMAT parquet)`)
    await c.run(`COPY (SELECT * FROM (VALUES
      ('${child}', 0, '0001', 'DETAILED DESCRIPTION', 'The washing machine 10 has a cabinet 12 and a drum 14 rotatably mounted in the cabinet.', 'test'),
      ('${child}', 1, '0002', 'DETAILED DESCRIPTION', 'A vibration damper 16 is configured to damp oscillation of the drum 14.', 'test'),
      ('${child}', 2, '0003', 'DETAILED DESCRIPTION', 'A door seal 18 closes the opening of the cabinet.', 'test'),
      ('${parent}', 0, '0001', 'DETAILED DESCRIPTION', 'The washing machine 10 has a cabinet 12 and a drum 14 rotatably mounted in the cabinet.', 'test'),
      ('${parent}', 1, '0002', 'DETAILED DESCRIPTION', 'A door seal 18 closes the opening of the cabinet.', 'test')
    ) t(app_num, seq, para_num, heading, text, source)) TO ${out("description_paragraphs")} (FORMAT parquet)`)
    await c.run(`COPY (SELECT * FROM (VALUES
      ('${child}', '${parent}', 'CIP', DATE '2019-05-01', 'test'),
      ('${parent}', '${grandparent}', 'PRO', DATE '2018-05-01', 'test')
    ) t(child_app, parent_app, relation, parent_filing_date, source)) TO ${out("continuity")} (FORMAT parquet)`)
    await c.run(`COPY (SELECT * FROM (VALUES ('${child}', 'Washing machine'), ('${parent}', 'Washing machine')) t(app_num, title)) TO ${out("applications")} (FORMAT parquet)`)
    c.closeSync()
  })
  afterAll(async () => {
    if (dir) await fs.rm(dir, { recursive: true, force: true })
  })

  it("reports a term the child supports and the parent does not as new matter", async () => {
    const r = await filed(child, { parents: true, maxAncestors: 6, ocr: false }, { artifactsDir: dir })
    decode(r)
    expect(r.ancestors!.map((a) => [a.appNum, a.relation, a.depth, a.textAvailable, a.inCorpus])).toEqual([
      [parent, "CIP", 1, true, true],
      [grandparent, "PRO", 2, false, false]
    ])
    const p = r.ancestors![0]
    expect(p.missingTerms).toEqual(["vibration damper"])
    expect(r.ancestors![1].detail).toMatch(/provisional filings are usually image-only/)
    const damper = r.newMatter!.find((n) => n.term === "vibration damper")!
    expect(damper).toMatchObject({ claimNumber: 1, supportedIn: child, notSupportedIn: [parent], unreadable: [grandparent], conclusive: false, grade: "EMBODIMENT" })
    expect(r.newMatter!.map((n) => n.term)).toEqual(["vibration damper"])
    const seal = r.claims![1].terms.find((t) => t.term === "door seal")!
    expect(seal.ancestors).toEqual([{ appNum: parent, grade: "EMBODIMENT", paragraph: "0002" }])
  })

  it("is conclusive when every walked ancestor was readable; supplied sections replace the child's filed text", async () => {
    const r = await posted(
      {
        claims: [{ text: "A washing machine comprising a cabinet and a vibration damper." }],
        sections: [{ name: "DESCRIPTION", text: "The washing machine has a cabinet 12 and a vibration damper 16." }],
        appNum: child,
        includeParents: true,
        maxAncestors: 1,
        ocr: false
      },
      { artifactsDir: dir }
    )
    expect(r.source).toBe("request")
    expect(r.walk).toMatchObject({ ran: true, ancestorsFound: 1, truncated: true })
    expect(r.newMatter).toEqual([
      expect.objectContaining({ term: "vibration damper", notSupportedIn: [parent], unreadable: [], conclusive: true })
    ])
  })
})
