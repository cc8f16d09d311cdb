/**
 * Every curated case of test/fixtures/antecedent-cases.json: the expected findings are reported
 * (and nothing else), the must-not-flag terms never are, and offsets slice the claim text to the term.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { checkAntecedentBasis } from "../../core/claims/antecedent/index.ts"
import type { IssueType, Severity } from "../../core/claims/antecedent/types.ts"
import { splitNumberedClaims } from "../../core/claims/parse.ts"

interface Case {
  id: string
  claims: string
  expect: Array<{ claim: number; term: string; kind: string; severity?: string }>
  must_not_flag?: string[]
}

const fixture = JSON.parse(fs.readFileSync(path.resolve("test/fixtures/antecedent-cases.json"), "utf8")) as { cases: Case[] }

/** The fixture's vocabulary → the checker's issue types. */
const TYPE_OF_KIND: Record<string, IssueType> = {
  missing: "no-antecedent-basis",
  wrong_chain: "no-antecedent-basis",
  modifier_mismatch: "no-antecedent-basis",
  ambiguous: "ambiguous-reference",
  double_intro: "double-inclusion",
  plural_mismatch: "plural-singular-mismatch",
  preamble_basis: "preamble-only-basis",
  bare_reference: "missing-article",
  strict_style: "modified-reference"
}

/** "advisory" and "info" findings must never be more than low. */
const SEVERITY_OF: Record<string, Severity> = { advisory: "low", info: "low" }

describe("antecedent-cases.json", () => {
  it("has cases", () => expect(fixture.cases.length).toBeGreaterThanOrEqual(18))

  for (const c of fixture.cases) {
    it(c.id, () => {
      const claims = splitNumberedClaims(c.claims)
      const result = checkAntecedentBasis(claims, {})
      const got = result.issues.map((i) => `${i.claimNumber}|${i.type}|${i.term}`).sort()
      const want = c.expect.map((e) => `${e.claim}|${TYPE_OF_KIND[e.kind]}|${e.term}`).sort()
      expect(got).toEqual(want)
      for (const e of c.expect) {
        const issue = result.issues.find((i) => i.claimNumber === e.claim && i.term === e.term && i.type === TYPE_OF_KIND[e.kind])!
        if (e.severity) expect(issue.severity).toBe(SEVERITY_OF[e.severity])
      }
      for (const term of c.must_not_flag ?? []) {
        expect(result.issues.filter((i) => i.term === term.toLowerCase() || term.toLowerCase().includes(i.term))).toEqual([])
      }
      for (const i of result.issues) {
        const text = claims.find((x) => x.number === i.claimNumber)!.text
        expect(text.slice(i.start, i.end)).toBe(i.display)
        expect(i.display.toLowerCase().replace(/\s+/g, " ")).toBe(i.term)
        expect(i.snippet).toContain(i.display.replace(/\s+/g, " "))
      }
      expect(result.stats.issueCount).toBe(result.issues.length)
      expect(result.issues.length === 0).toBe(c.expect.length === 0)
    })
  }
})
