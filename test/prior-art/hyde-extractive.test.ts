/** The extractive drafter behind `hyde` when no chat model is configured. */
import { describe, expect, it } from "vitest"
import { draftExtractive, type Neighbour } from "../../api/prior-art/hyde.ts"

const n = (appNum: string, title: string | null, abstract: string | null = null, firstClaim: string | null = null): Neighbour => ({ appNum, title, abstract, firstClaim })
const rare = (stem: string) => (["soil", "moistur", "capacit", "electrod"].includes(stem) ? 4 : 0.5)

describe("extractive hyde drafter", () => {
  const query = { claims: "A method of measuring soil moisture with a capacitive probe inserted into the ground" }

  it("borrows the neighbours' sentences that share telling words, as sentences", () => {
    const d = draftExtractive(query, [n("1", "Soil sensor", "A capacitive soil moisture sensor is described. The housing is red and made of plastic.")], rare)
    expect(d.abstract).toBe(`${query.claims}. A capacitive soil moisture sensor is described.`)
    expect(d.claim).toBe(query.claims)
    expect(d.text).toContain(" [SEP] ")
    expect(d.sources).toEqual(["1"])
    expect(d).not.toHaveProperty("note")
  })

  it("reads a first claim where no abstract is on file, and a title only where neither is", () => {
    const d = draftExtractive(query, [n("1", "Probe", null, "A probe comprising two electrodes for measuring soil moisture."), n("2", "Soil moisture meter")], rare)
    expect(d.abstract).toContain("A probe comprising two electrodes for measuring soil moisture.")
    expect(d.abstract).toContain("Soil moisture meter.")
    expect([...d.sources!].sort()).toEqual(["1", "2"])
  })

  it("never borrows a passage that shares only common words, and says the query was searched as given", () => {
    const d = draftExtractive(query, [n("1", "Method and system of measuring toric lens axis angle")], rare)
    expect(d.abstract).toBe(`${query.claims}.`)
    expect(d.sources).toEqual([])
    expect(d.note).toMatch(/searched as given/)
  })

  it("drafts the first claim from the closest neighbour claim when only an abstract is given", () => {
    const d = draftExtractive({ abstract: "A capacitive soil moisture probe with two electrodes." }, [n("1", null, null, "A lamp comprising a bulb."), n("2", null, null, "A soil moisture probe comprising two electrodes.")], rare)
    expect(d.claim).toBe("A soil moisture probe comprising two electrodes.")
    expect(d.sources).toContain("2")
  })
})
