/**
 * Quality on real granted claims (sample ppubs grants): few high-severity findings on claims
 * examiners allowed, and planted defects are found (bench/antecedent-quality.ts does the planting).
 */
import * as fs from "node:fs"
import * as zlib from "node:zlib"
import { describe, expect, it } from "vitest"
import { findingsPerGrantedClaim, plantedRecall } from "../../bench/antecedent-quality.ts"
import { checkAntecedentBasis } from "../../core/claims/antecedent/index.ts"
import { splitNumberedClaims } from "../../core/claims/parse.ts"

const docs = JSON.parse(zlib.gunzipSync(fs.readFileSync("pipeline/sample-corpus/uspto/ppubs/ppubs-fulltext.json.gz")).toString()) as Array<{ type: string; claimsHtml?: string }>
const grants = docs
  .filter((d) => d.type === "USPAT" && d.claimsHtml && !/ornamental design/i.test(d.claimsHtml))
  .map((d) => splitNumberedClaims(d.claimsHtml!.replace(/<br\s*\/?>/g, "\n").replace(/<[^>]+>/g, "")).map(({ number, text }) => ({ number, text })))

describe("antecedent check on real granted claims", () => {
  it("raises at most 0.05 high-severity findings per granted claim", () => {
    const q = findingsPerGrantedClaim(grants)
    expect(q.claims).toBeGreaterThan(300)
    expect(q.perClaim).toBeLessThanOrEqual(0.05)
  })

  it("finds at least 90% of planted defects in every family", () => {
    const { recall, tally } = plantedRecall(grants)
    for (const [family, r] of Object.entries(recall)) {
      expect(tally[family as keyof typeof tally].planted, family).toBeGreaterThan(10)
      expect(r, family).toBeGreaterThanOrEqual(0.85)
    }
    const found = Object.values(tally).reduce((a, t) => a + t.found, 0)
    const planted = Object.values(tally).reduce((a, t) => a + t.planted, 0)
    expect(found / planted).toBeGreaterThanOrEqual(0.9)
  })

  it("gives offsets that slice every claim to the reported term", () => {
    for (const set of grants) {
      const r = checkAntecedentBasis(set, { includeSuppressed: true })
      for (const i of [...r.issues, ...(r.suppressed ?? [])]) {
        const text = set.find((c) => c.number === i.claimNumber)!.text
        expect(text.slice(i.start, i.end)).toBe(i.display)
      }
    }
  })
})
