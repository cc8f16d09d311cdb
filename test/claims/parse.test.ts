/** Claim parsing: numbered text → claims, dependencies, preamble / transition / body, elements. */
import * as fs from "node:fs"
import * as zlib from "node:zlib"
import { describe, expect, it } from "vitest"
import { findClaimReferences, parseClaimDependencies } from "../../core/claims/dependencies.ts"
import { parseClaim, parseClaims, splitNumberedClaims } from "../../core/claims/parse.ts"

const slice = (text: string, s: { start: number; end: number }) => text.slice(s.start, s.end)

describe("splitNumberedClaims", () => {
  it("splits line-numbered claims and drops the heading", () => {
    const claims = splitNumberedClaims("What is claimed is:\n1. A cup comprising a handle.\n\n2. The cup of claim 1, wherein the handle is round.\n3. The cup of claim 2, wherein the handle is red.")
    expect(claims.map((c) => c.number)).toEqual([1, 2, 3])
    expect(claims[1].text).toBe("The cup of claim 1, wherein the handle is round.")
  })

  it("splits inline numbering without breaking at 'claim 2.'", () => {
    const source = "1. A cup comprising a handle. 2. The cup of claim 1, wherein the handle is round. 3. The cup of claim 2. 4. The cup of claim 3, wherein the cup is red."
    const claims = splitNumberedClaims(source)
    expect(claims.map((c) => c.number)).toEqual([1, 2, 3, 4])
    expect(claims[2].text).toBe("The cup of claim 2.")
    for (const c of claims) expect(source.slice(c.offset, c.offset + c.text.length)).toBe(c.text)
  })

  it("keeps a canceled range as one canceled claim", () => {
    const claims = splitNumberedClaims("1-3. (Canceled)\n4. A cup comprising a handle.\n5. The cup of claim 4, wherein the handle is round.")
    expect(claims.map((c) => c.number)).toEqual([1, 4, 5])
    expect(parseClaims(claims)[0].canceled).toBe(true)
  })

  it("splits the claims of real grants in sequence (sample ppubs documents)", () => {
    const docs = JSON.parse(zlib.gunzipSync(fs.readFileSync("pipeline/sample-corpus/uspto/ppubs/ppubs-fulltext.json.gz")).toString()) as Array<{ type: string; claimsHtml?: string }>
    const grants = docs.filter((d) => d.type === "USPAT" && d.claimsHtml && !/ornamental design/i.test(d.claimsHtml))
    expect(grants.length).toBeGreaterThan(10)
    for (const d of grants) {
      const claims = splitNumberedClaims(d.claimsHtml!.replace(/<br\s*\/?>/g, "\n").replace(/<[^>]+>/g, ""))
      expect(claims.length).toBeGreaterThan(0)
      claims.forEach((c, i) => expect(c.number).toBe(i + 1))
      for (const p of parseClaims(claims)) for (const n of p.dependsOn) expect(n).toBeLessThan(p.number)
    }
  })
})

describe("dependencies", () => {
  it("reads single, range, list and alternative references", () => {
    expect(parseClaimDependencies("The method of claim 1, wherein")).toEqual([1])
    expect(parseClaimDependencies("The method according to any of claims 1-3, wherein")).toEqual([1, 2, 3])
    expect(parseClaimDependencies("The method of claims 2 to 4")).toEqual([2, 3, 4])
    expect(parseClaimDependencies("The method of claim 2 or 3")).toEqual([2, 3])
    expect(parseClaimDependencies("as claimed in claims 1, 4 and 7")).toEqual([1, 4, 7])
  })

  it("a number list running into a quantity stops before it (\"… and 90-0% by weight\" names no claim 90)", () => {
    const text = "A rubber composition as claimed in any one of claims 1 and 2 to 3 and 90-0% by weight of another rubber"
    expect(parseClaimDependencies(text)).toEqual([1, 2, 3])
    const [ref] = findClaimReferences(text)
    expect(text.slice(ref.start, ref.end)).toBe("claims 1 and 2 to 3")
    expect(parseClaimDependencies("The alloy of claim 2 and 5 % by weight of tin")).toEqual([2])
    expect(parseClaimDependencies("The device of claim 4, wherein the gap is 3 mm")).toEqual([4])
  })

  it("gives the offsets of each reference phrase", () => {
    const text = "The cup according to claim 2 or 3, wherein"
    const [ref] = findClaimReferences(text)
    expect(text.slice(ref.start, ref.end)).toBe("claim 2 or 3")
    expect(ref.numbers).toEqual([2, 3])
  })

  it("reads 'any one of the preceding claims' as every earlier claim", () => {
    expect(parseClaim({ text: "A cup according to any one of the preceding claims, wherein the cup is red." }, 4).dependsOn).toEqual([1, 2, 3])
  })
})

describe("parseClaim", () => {
  it("splits an independent claim into preamble, transition, body and elements", () => {
    const text = "A door assembly comprising: a frame; a hinge attached to the frame; and a lever."
    const p = parseClaim({ text }, 1)
    expect(p.isIndependent).toBe(true)
    expect(slice(text, p.preamble)).toBe("A door assembly")
    expect(p.transition?.phrase).toBe("comprising")
    expect(p.elements.map((e) => slice(text, e))).toEqual(["a frame", "a hinge attached to the frame", "a lever"])
  })

  it("prefers the transition followed by a colon", () => {
    const text = "A method of forming a coating comprising silica on a substrate, the method comprising: heating the substrate; and spraying the silica."
    const p = parseClaim({ text }, 1)
    expect(slice(text, p.preamble)).toBe("A method of forming a coating comprising silica on a substrate, the method")
    expect(p.elements.map((e) => slice(text, e))).toEqual(["heating the substrate", "spraying the silica"])
  })

  it("splits comma lists into elements when there are no semicolons", () => {
    const text = "A vacuum lifting tool comprising a body, a pump carried by the body, a groove in the body, and a sealing ring received in the groove."
    const p = parseClaim({ text }, 1)
    expect(p.elements.map((e) => slice(text, e))).toEqual(["a body", "a pump carried by the body", "a groove in the body", "a sealing ring received in the groove"])
  })

  it("gives a dependent claim its reference as preamble", () => {
    const text = "The door assembly of claim 1, further comprising a latch; and a spring."
    const p = parseClaim({ text }, 2)
    expect(p.isIndependent).toBe(false)
    expect(p.dependsOn).toEqual([1])
    expect(slice(text, p.preamble)).toBe("The door assembly of claim 1")
    expect(p.transition?.phrase).toBe("further comprising")
    expect(p.elements.map((e) => slice(text, e))).toEqual(["a latch", "a spring"])
  })

  it("reads a leading number and an amendment status marker", () => {
    const text = "3. (Currently Amended) The cup of claim 1, wherein the handle is round."
    const p = parseClaim({ text }, 3)
    expect(p.status).toBe("amended")
    expect(text.slice(p.contentStart, p.contentStart + 7)).toBe("The cup")
    expect(parseClaim({ text: "(Canceled)" }, 2).canceled).toBe(true)
  })
})
