/** The statistics every figure is served with: Wilson intervals, rates with denominators, tiers, entropy, percentiles, cost. */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { defaultCostAssumptions, estimateProsecutionCost } from "../../core/prosecution/cost-model.ts"
import { shortCpcTitle } from "../../pipeline/prosecution/art-units.ts"
import { percentileRank, rate, shannonEntropy, volumeTier, wilsonInterval } from "../../pipeline/prosecution/statistics.ts"

describe("Wilson score interval", () => {
  it("matches published values", () => {
    // 4 of 5, and 0 of 10 (where the normal interval collapses to a point).
    expect(wilsonInterval(4, 5)).toEqual({ low: 0.3755, high: 0.9638 })
    expect(wilsonInterval(0, 10)).toEqual({ low: 0, high: 0.2775 })
    expect(wilsonInterval(50, 100)).toEqual({ low: 0.4038, high: 0.5962 })
    expect(wilsonInterval(0, 0)).toBeNull()
  })

  it("always contains the observed rate and stays inside [0, 1]", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.double({ min: 0, max: 1, noNaN: true }), (n, f) => {
        const k = Math.round(f * n)
        const ci = wilsonInterval(k, n)!
        return ci.low >= 0 && ci.high <= 1 && ci.low <= k / n + 1e-4 && ci.high >= k / n - 1e-4
      })
    )
  })

  it("narrows as the sample grows", () => {
    const w = (n: number) => {
      const ci = wilsonInterval(Math.round(0.7 * n), n)!
      return ci.high - ci.low
    }
    expect(w(10)).toBeGreaterThan(w(100))
    expect(w(100)).toBeGreaterThan(w(1000))
  })
})

describe("rates and tiers", () => {
  it("carries the numerator, the denominator and what it counts", () => {
    expect(rate(3, 4, "disposed applications")).toEqual({
      value: 0.75, numerator: 3, denominator: 4, denominator_label: "disposed applications", ci95: wilsonInterval(3, 4), tier: "insufficient"
    })
    expect(rate(0, 0, "x").value).toBeNull()
  })

  it("tiers a denominator so a thin sample is visible", () => {
    expect([0, 1, 4, 5, 19, 20, 99, 100].map(volumeTier)).toEqual(["none", "insufficient", "insufficient", "low", "low", "moderate", "moderate", "high"])
  })
})

describe("entropy and percentiles", () => {
  it("is 0 bits for one art unit, 1 bit for two equal ones, log2(k) for k equal ones", () => {
    expect(shannonEntropy([7])).toBe(0)
    expect(shannonEntropy([5, 5])).toBeCloseTo(1)
    expect(shannonEntropy([1, 1, 1, 1, 1, 1, 1, 1])).toBeCloseTo(3)
    expect(shannonEntropy([3, 1])).toBeCloseTo(0.811278, 5)
  })

  it("ranks with mid-rank percentiles", () => {
    expect(percentileRank([1, 2, 3, 4], 1)).toBe(12.5)
    expect(percentileRank([1, 2, 3, 4], 4)).toBe(87.5)
    expect(percentileRank([2, 2], 2)).toBe(50)
    expect(percentileRank([], 2)).toBeNull()
  })
})

describe("cost model", () => {
  it("prices the events of disposed applications with the documented assumptions", () => {
    const e = estimateProsecutionCost({ disposed: 2, allowed: 1, repliesNonFinal: 2, repliesFinal: 1, firstRces: 1, laterRces: 0, interviews: 1, noticesOfAppeal: 0, appealBriefs: 0 })
    const a = defaultCostAssumptions
    const total = 2 * a.attorneyReplyNonFinal + a.attorneyReplyFinal + a.rceFeeFirst + a.attorneyInterview + a.issueFee
    expect(e.mean_per_disposed_application).toBe(Math.round(total / 2))
    expect(e.per_allowed_application).toBe(total)
    expect(e.note).toMatch(/Not a quote/)
    expect(estimateProsecutionCost({ disposed: 0, allowed: 0, repliesNonFinal: 0, repliesFinal: 0, firstRces: 0, laterRces: 0, interviews: 0, noticesOfAppeal: 0, appealBriefs: 0 }).per_allowed_application).toBeNull()
  })
})

describe("CPC titles for derived art-unit titles", () => {
  it("drops references and keeps two clauses in sentence case", () => {
    expect(shortCpcTitle("MEASURING ELECTRIC VARIABLES; MEASURING MAGNETIC VARIABLES (indicating correct tuning of resonant circuits H03J3/12)")).toBe(
      "Measuring electric variables; measuring magnetic variables"
    )
    expect(shortCpcTitle("{Software therefor}")).toBe("Software therefor")
  })
})
