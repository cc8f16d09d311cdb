/** CPC lookup against the sample build: scheme entry, children, empirical art-unit routing. */
import { afterAll, describe, expect, it } from "vitest"
import { patentIntelRuntime } from "./runtime.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const pi = patentIntelRuntime(await sampleArtifacts())
afterAll(() => pi.dispose())

const defaults = { childLimit: 50, distributionLimit: 20 }

describe("lookupCpcCode", () => {
  it("answers a subclass with its scheme entry, children in scheme order and the routing of the sample", async () => {
    const body = await pi.run((s) => s.lookupCpcCode("G06F", { childLimit: 3, distributionLimit: 2 }))
    expect(body.code).toBe("G06F")
    expect(body.scheme).toEqual({ code: "G06F", title: expect.stringMatching(/^ELECTRIC DIGITAL DATA PROCESSING/), level: 3, parent: "G06" })
    const [{ n }] = await pi.sql(`SELECT count(*)::INTEGER AS n FROM cpc_scheme WHERE parent = 'G06F'`)
    expect(body.child_count).toBe(n)
    expect(body.children.map((c) => c.code)).toEqual(["G06F1/00", "G06F3/00", "G06F5/00"])
    expect(body.children[0]).toMatchObject({ level: 4, title: expect.any(String) })

    const [routing] = await pi.sql(`SELECT total_count, unique_art_units, top_art_unit, len(distribution)::INTEGER AS units FROM cpc_routing WHERE symbol = 'G06F'`)
    const au = body.art_units!
    expect(au.total_count).toBe(routing.total_count)
    expect(au.unique_art_units).toBe(routing.units)
    expect(au.unique_art_units).toBeGreaterThan(2)
    expect(au.top_art_unit).toBe(routing.top_art_unit)
    expect(au.distribution).toHaveLength(2)
    expect(au.distribution[0].au).toBe(au.top_art_unit)
    expect(au.distribution[0].probability).toBeCloseTo(au.top_art_unit_probability, 12)
    expect(au.distribution[0].count).toBeGreaterThanOrEqual(au.distribution[1].count)
    expect(au.entropy).toBeGreaterThan(0)
  })

  it("orders main groups by number, not as text (H04L9/00 before H04L12/00)", async () => {
    const body = await pi.run((s) => s.lookupCpcCode("H04L", defaults))
    const codes = body.children.map((c) => c.code)
    expect(codes.indexOf("H04L9/00")).toBeLessThan(codes.indexOf("H04L12/00"))
    expect(codes.indexOf("H04L1/00")).toBe(0)
  })

  it("normalises the symbol: spaces and a zero-padded main group find the same entry", async () => {
    for (const written of ["H04L9/0643", "H04L 9/0643", "h04l0009/0643"]) {
      const body = await pi.run((s) => s.lookupCpcCode(written, defaults))
      expect(body.code).toBe("H04L9/0643")
      expect(body.scheme).toMatchObject({ code: "H04L9/0643", level: 6, parent: "H04L9/06", title: expect.stringContaining("Hash functions") })
    }
  })

  it("art_units is null for a symbol nothing was routed under, scheme null for a routed symbol the scheme lacks", async () => {
    const unrouted = await pi.run((s) => s.lookupCpcCode("H04L9/0643", defaults))
    expect(unrouted.art_units).toBeNull()
    expect(unrouted.children).toEqual([])
    expect(unrouted.child_count).toBe(0)

    // B60L11/1809 was retired from the scheme but still sits on an application of the sample.
    const retired = await pi.run((s) => s.lookupCpcCode("B60L11/1809", defaults))
    expect(retired.scheme).toBeNull()
    expect(retired.art_units).toMatchObject({ total_count: 1, unique_art_units: 1, top_art_unit: "3663", top_art_unit_probability: 1, entropy: 0 })
    expect(retired.art_units!.distribution).toEqual([{ au: "3663", count: 1, probability: 1 }])
  })

  it("limits of 0 keep the true totals and empty the lists", async () => {
    const body = await pi.run((s) => s.lookupCpcCode("G06F", { childLimit: 0, distributionLimit: 0 }))
    expect(body.children).toEqual([])
    expect(body.child_count).toBeGreaterThan(0)
    expect(body.art_units!.distribution).toEqual([])
    expect(body.art_units!.unique_art_units).toBeGreaterThan(0)
  })

  it("fails with NotFound when neither the scheme nor the routing knows the symbol", async () => {
    for (const code of ["Y99Z", "H04L9999/99"]) {
      const err = await pi.fail((s) => s.lookupCpcCode(code, defaults))
      expect(err._tag).toBe("NotFound")
    }
  })

  it("treats the symbol as a value, never as SQL", async () => {
    const err = await pi.fail((s) => s.lookupCpcCode("G06F' OR '1'='1", defaults))
    expect(err._tag).toBe("NotFound")
  })
})
