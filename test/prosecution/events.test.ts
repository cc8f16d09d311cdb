/**
 * The transaction-code → milestone table: the traps of real PEDS data are classified right,
 * and the SQL used at scale gives the same milestone as the TypeScript classifier for every
 * code and description of the sample PEDS files.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { gunzipSync } from "node:zlib"
import { beforeAll, describe, expect, it } from "vitest"
import { classifyEvent, sqlMilestoneCase } from "../../pipeline/prosecution/events.ts"

const sample = path.resolve("pipeline/sample-corpus/peds")
let pairs: Array<{ code: string | null; description: string; n: number }>

beforeAll(async () => {
  const counts = new Map<string, { code: string | null; description: string; n: number }>()
  const add = (code: unknown, description: unknown) => {
    const c = typeof code === "string" && code.trim() ? code.trim() : null
    const d = typeof description === "string" ? description.trim() : ""
    const k = `${c}\u0000${d}`
    const e = counts.get(k) ?? { code: c, description: d, n: 0 }
    e.n++
    counts.set(k, e)
  }
  const st96 = JSON.parse(gunzipSync(await fs.readFile(path.join(sample, "uva-seed-set-examinations.json.gz"))).toString("utf8")) as any[]
  for (const r of st96) for (const e of r.prosecutionHistoryDataBag?.prosecutionHistoryData ?? []) add(e.eventCode, e.eventDescriptionText)
  const search = JSON.parse(gunzipSync(await fs.readFile(path.join(sample, "patent-client-peds-apps.json.gz"))).toString("utf8")) as any[]
  for (const r of search) for (const t of r.transactions ?? []) add(t.code, t.description)
  pairs = [...counts.values()]
}, 120_000)

describe("PEDS transaction classification", () => {
  it("classifies the codes that decide allowance, abandonment, RCE and interviews", () => {
    expect(classifyEvent("N/=.", "Notice of Allowance Data Verification Completed")).toBe("allowance")
    expect(classifyEvent("MN/=.", "Mail Notice of Allowance")).toBe("mail_twin")
    expect(classifyEvent("ABN9", "Disposal for a RCE / CPA / R129")).toBe("workflow")
    expect(classifyEvent("ABN2", "Aband. for Failure to Respond to O. A.")).toBe("abandonment")
    expect(classifyEvent("ABN10", "Abandonment after Examiner's Answer or PTAB Decision")).toBe("abandonment")
    expect(classifyEvent("MABN2", "Mail Abandonment for Failure to Respond to Office Action")).toBe("mail_twin")
    expect(classifyEvent("RCEX", "Request for Continued Examination (RCE)")).toBe("rce")
    expect(classifyEvent("BRCE", "Workflow - Request for RCE - Begin")).toBe("workflow")
    expect(classifyEvent("CTNF", "Non-Final Rejection")).toBe("non_final_rejection")
    expect(classifyEvent("MCTNF", "Mail Non-Final Rejection")).toBe("mail_twin")
    expect(classifyEvent("CTFR", "Final Rejection")).toBe("final_rejection")
    expect(classifyEvent("EXAT", "Interview Summary - Applicant Initiated - Telephonic")).toBe("interview_applicant_initiated")
    expect(classifyEvent("EXET", "Interview Summary - Examiner Initiated - Telephonic")).toBe("interview_examiner_initiated")
    expect(classifyEvent("MEXIN", "Mail Examiner Interview Summary (PTOL - 413)")).toBe("mail_twin")
    expect(classifyEvent("APDA", "PTAB Decision - Examiner Affirmed")).toBe("ptab_affirmed")
    expect(classifyEvent("W/N=", "Withdrawal of Notice of Allowance")).toBe("allowance_withdrawn")
    expect(classifyEvent("CNOA", "Corrected Notice of Allowability")).toBe("allowance_corrected")
    // Without a code the description decides.
    expect(classifyEvent(null, "Non-Final Rejection")).toBe("non_final_rejection")
    expect(classifyEvent("", "Request for Continued Examination (RCE)")).toBe("rce")
    expect(classifyEvent("EML_NTR", "Email Notification")).toBe("other")
  })

  it("leaves no frequent examination step of the sample unclassified", () => {
    const decisive = /rejection|allowance|abandon|interview summary|continued examination|appeal brief|notice of appeal/i
    // Steps that mention these words but change nothing the statistics measure, left "other" on purpose:
    // appeal-brief review/defect notices, reasons for allowance and the reply to them, Rule 312 amendments.
    const auxiliary = new Set(["APBR", "APBI", "EX.R", "REAS", "A.NA"])
    const missed = pairs.filter((p) => p.n >= 20 && decisive.test(p.description) && !auxiliary.has(p.code ?? "") && classifyEvent(p.code, p.description) === "other")
    expect(missed.map((p) => `${p.code} ${p.description}`)).toEqual([])
  })

  it("gives the same milestone in SQL as in TypeScript for every sample code and description", async () => {
    const db = await DuckDBInstance.create(":memory:")
    const conn = await db.connect()
    try {
      await conn.run(`CREATE TABLE t (code VARCHAR, description VARCHAR)`)
      const ap = await conn.createAppender("t")
      for (const p of pairs) {
        if (p.code === null) ap.appendNull()
        else ap.appendVarchar(p.code)
        ap.appendVarchar(p.description)
        ap.endRow()
      }
      ap.flushSync()
      ap.closeSync()
      const rows = (await conn.runAndReadAll(`SELECT code, description, ${sqlMilestoneCase()} AS m FROM t`)).getRowObjectsJS() as Array<{ code: string | null; description: string; m: string }>
      expect(rows.length).toBe(pairs.length)
      const disagreements = rows.filter((r) => r.m !== classifyEvent(r.code, r.description)).map((r) => `${r.code} ${r.description}: sql ${r.m}`)
      expect(disagreements).toEqual([])
    } finally {
      conn.closeSync()
      db.closeSync()
    }
  })
})
