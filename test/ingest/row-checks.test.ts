/**
 * A reader's row is checked against its table before it is staged: a value the Parquet column
 * cannot hold (an integer out of range, a non-integer count) is a bad record, skipped and counted
 * with its reason, never a failure of the whole object's copy.
 */
import { describe, expect, it } from "vitest"
import { readerTables } from "../../core/artifacts/tables.ts"
import { rowProblem } from "../../pipeline/ingest/staging.ts"

const claim = (over: Record<string, unknown>) => ({ app_num: "16123456", source: "uspto-xml", claim_num: 1, text: "A probe.", depends_on: [], is_independent: true, ...over })

describe("row checks", () => {
  it("accepts a well-formed claim", () => {
    expect(rowProblem(readerTables.claims, claim({}))).toBeUndefined()
  })

  it("names the column and the rule for integers a 32-bit column cannot hold", () => {
    expect(rowProblem(readerTables.claims, claim({ claim_num: 2 ** 31 }))).toMatch(/claims\.claim_num is not a 32-bit integer/)
    expect(rowProblem(readerTables.claims, claim({ claim_num: 1.5 }))).toMatch(/claims\.claim_num is not a 32-bit integer/)
    expect(rowProblem(readerTables.claims, claim({ depends_on: [1, 2 ** 40] }))).toMatch(/claims\.depends_on is not a list of 32-bit integers/)
  })
})
