/**
 * Prosecution histories: a small state machine over real PEDS transaction codes. One run per
 * application gives both the outcome (allowed and issued, abandoned, still pending) and, when an
 * event sink is passed, the transactions PEDS would show.
 *
 * Rates, chosen to land near USPTO figures for FY2014–FY2020 utility applications (checked by
 * simulating 100k applications; see the synth test):
 *   - months from filing to first action: triangular 14–22, mode 17.5 (first-action pendency);
 *   - restriction/election requirement before the first action: 14 %;
 *   - first-action allowance: 11 %; every other application gets a non-final rejection (CTNF);
 *   - no response to an action (abandonment, ABN2, six months after the action): 9 % after a
 *     non-final, 24 % after a final rejection;
 *   - after a response to a non-final: allowance 28 % (36 % once an RCE was filed), final
 *     rejection 60 %, a further non-final 12 %;
 *   - after a final rejection: RCE 40 %, after-final response 24 %, appeal 5 %, allowance 7 %;
 *   - interviews: 17 % per response, so about a quarter of applications have one;
 *   - issue fee not paid: 2.5 % of allowances.
 * Together (100k simulated): 63 % of disposals are issued patents, 27 % of applications file an
 * RCE, 24 % have an interview, first actions come 17.8 months after filing on average.
 */
import { businessDay, MONTH, onOrAfter, TUESDAY } from "./dates.ts"
import type { Rng } from "./random.ts"

/** [code, description, PEDS status the event leaves the application in ("" = unchanged)] */
export const CODES = [
  ["IEXX", "Initial Exam Team nn", "Application Undergoing Preexam Processing"],
  ["BIG.", "ENTITY STATUS SET TO UNDISCOUNTED (INITIAL DEFAULT SETTING OR STATUS CHANGE)", ""],
  ["SMAL", "Applicant Has Filed a Verified Statement of Small Entity Status in Compliance with 37 CFR 1.27", ""],
  ["SCAN", "IFW Scan & PACR Auto Security Review", ""],
  ["L194", "Cleared by OIPE CSR", ""],
  ["COMP", "Application Is Now Complete", ""],
  ["FLRCPT.O", "Filing Receipt", ""],
  ["OIPE", "Application Dispatched from OIPE", "Application Dispatched from Preexam, Not Yet Docketed"],
  ["WIDS", "Information Disclosure Statement (IDS) Filed", ""],
  ["PGPC", "Sent to Classification Contractor", ""],
  ["PG-ISSUE", "PG-Pub Issue Notification", ""],
  ["DOCK", "Case Docketed to Examiner in GAU", "Docketed New Case - Ready for Examination"],
  ["FWDX", "Date Forwarded to Examiner", ""],
  ["IDSC", "Information Disclosure Statement considered", ""],
  ["CTRS", "Restriction/Election Requirement", ""],
  ["MCTRS", "Mail Restriction Requirement", ""],
  ["ELC.", "Response to Election / Restriction Filed", ""],
  ["CTNF", "Non-Final Rejection", ""],
  ["MCTNF", "Mail Non-Final Rejection", "Non Final Action Mailed"],
  ["EML_NTF", "Email Notification", ""],
  ["A...", "Response after Non-Final Action", "Response to Non-Final Office Action Entered and Forwarded to Examiner"],
  ["XT/G", "Request for Extension of Time - Granted", ""],
  ["CTFR", "Final Rejection", ""],
  ["MCTFR", "Mail Final Rejection (PTOL - 326)", "Final Rejection Mailed"],
  ["A.NE", "Response after Final Action", "Response after Final Action Forwarded to Examiner"],
  ["CTAV", "Advisory Action (PTOL-303)", ""],
  ["MCTAV", "Mail Advisory Action (PTOL - 303)", "Advisory Action Mailed"],
  ["RCEX", "Request for Continued Examination (RCE)", "Docketed New Case - Ready for Examination"],
  ["BRCE", "Workflow - Request for RCE - Begin", ""],
  ["ABN9", "Disposal for a RCE / CPA / R129", ""],
  ["EXIN", "Interview Summary Record", ""],
  ["MEXIN", "Mail Examiner Interview Summary (PTOL - 413)", ""],
  ["EXAT", "Interview Summary - Applicant Initiated - Telephonic", ""],
  ["MEXAT", "Mail Interview Summary - Applicant Initiated - Telephonic", ""],
  ["N/AP", "Notice of Appeal Filed", "Notice of Appeal Filed"],
  ["AP.B", "Appeal Brief Filed", ""],
  ["APBR", "Appeal Brief Review Complete", "Appeal Brief (or Supplemental Brief) Entered and Forwarded to Examiner"],
  ["APEA", "Examiner's Answer to Appeal Brief", ""],
  ["MAPEA", "Mail Examiner's Answer", "On Appeal -- Awaiting Decision by the Board of Appeals"],
  ["MAPDA", "Mail PTAB Decision on Appeal - Affirmed", "Board of Appeals Decision Rendered"],
  ["MAPDR", "Mail PTAB Decision on Appeal - Reversed", "Board of Appeals Decision Rendered"],
  ["ABN10", "Abandonment after Examiner's Answer or PTAB Decision", "Abandoned  --  After Examiner's Answer or Board of Appeals Decision"],
  ["MABN10", "Mail of Abandonment after Examiner's Answer or PTAB Decision", ""],
  ["ABN2", "Aband. for Failure to Respond to O. A.", "Abandoned  --  Failure to Respond to an Office Action"],
  ["MABN2", "Mail Abandonment for Failure to Respond to Office Action", ""],
  ["ABN6", "Abandonment for Failure to Pay Issue Fee", "Abandoned  --  Failure to Pay Issue Fee"],
  ["MABN6", "Mail Abandonment for Failure to Pay Issue Fee", ""],
  ["N/=.", "Notice of Allowance Data Verification Completed", ""],
  ["MN/=.", "Mail Notice of Allowance", "Notice of Allowance Mailed -- Application Received in Office of Publications"],
  ["EX.R", "Reasons for Allowance", ""],
  ["EX.A", "Examiner's Amendment Communication", ""],
  ["IFEE", "Issue Fee Payment Received", ""],
  ["N084", "Issue Fee Payment Verified", "Publications -- Issue Fee Payment Verified"],
  ["PILS", "Application Is Considered Ready for Issue", ""],
  ["D1935", "Dispatch to FDC", ""],
  ["WPIR", "Issue Notification Mailed", ""],
  ["PTAC", "Patent Issue Date Used in PTA Calculation", ""],
  ["PGM/", "Recordation of Patent Grant Mailed", "Patented Case"]
] as const

type Code = (typeof CODES)[number][0]
const CODE_INDEX = new Map<string, number>(CODES.map((c, k) => [c[0], k]))
const C = (code: Code): number => CODE_INDEX.get(code)!

/** Transactions as parallel arrays (day, code index), reused across applications. */
export class EventSink {
  days: number[] = []
  codes: number[] = []
  reset(): void {
    this.days.length = 0
    this.codes.length = 0
  }
}

export interface Outcome {
  readonly firstActionDay: number
  /** -1 when never allowed. */
  readonly allowedDay: number
  /** -1 when never issued (the snapshot is applied by the caller). */
  readonly issueDay: number
  /** -1 when never abandoned. */
  readonly abandonedDay: number
  readonly rces: number
  readonly interviews: number
}

export interface Case {
  readonly filingDay: number
  readonly pubDay: number
  readonly smallEntity: boolean
}

/** Simulates one application's prosecution; `sink` (optional) receives its transactions. */
export const prosecute = (rng: Rng, c: Case, sink?: EventSink): Outcome => {
  const ev = sink === undefined ? (_d: number, _c: number) => {} : (d: number, code: number) => {
    sink.days.push(businessDay(Math.round(d)))
    sink.codes.push(code)
  }
  const f = c.filingDay
  ev(f, C("IEXX"))
  ev(f, c.smallEntity ? C("SMAL") : C("BIG."))
  if (rng.chance(0.6)) ev(f, C("WIDS"))
  ev(f + rng.range(1, 3), C("SCAN"))
  ev(f + rng.range(3, 9), C("L194"))
  ev(f + rng.range(5, 25), C("COMP"))
  ev(f + rng.range(7, 30), C("FLRCPT.O"))
  ev(f + rng.range(20, 55), C("OIPE"))
  if (rng.chance(0.5)) ev(f + rng.range(25, 70), C("PGPC"))
  ev(c.pubDay - rng.range(18, 24), C("PG-ISSUE"))
  ev(f + rng.range(60, 150), C("DOCK"))

  const firstAction = f + Math.round(rng.triangular(14, 17.5, 22) * MONTH)
  if (rng.chance(0.14)) {
    const r = firstAction - rng.range(60, 110)
    ev(r, C("CTRS"))
    ev(r + rng.range(0, 2), C("MCTRS"))
    const e = r + rng.range(30, 60)
    ev(e, C("ELC."))
    ev(e + rng.range(2, 8), C("FWDX"))
  }
  if (rng.chance(0.3)) {
    ev(firstAction - rng.range(20, 200), C("WIDS"))
    ev(firstAction, C("IDSC"))
  }

  let allowedDay = -1
  let issueDay = -1
  let abandonedDay = -1
  let rces = 0
  let interviews = 0

  const abandonNoResponse = (action: number): void => {
    abandonedDay = action + 183 + rng.range(1, 10)
    ev(abandonedDay, C("ABN2"))
    ev(abandonedDay + rng.range(15, 60), C("MABN2"))
  }

  const allow = (d: number): void => {
    if (rng.chance(0.15)) ev(d - rng.range(0, 3), C("EX.A"))
    ev(d, C("N/=."))
    ev(d + rng.range(0, 5), C("MN/=."))
    if (rng.chance(0.4)) ev(d, C("EX.R"))
    allowedDay = d
    if (rng.chance(0.025)) {
      abandonedDay = d + 92 + rng.range(1, 20)
      ev(abandonedDay, C("ABN6"))
      ev(abandonedDay + rng.range(15, 60), C("MABN6"))
      return
    }
    const fee = d + Math.round(rng.triangular(20, 60, 92))
    ev(fee, C("IFEE"))
    ev(fee + rng.range(0, 3), C("N084"))
    const ready = fee + rng.range(3, 14)
    ev(ready, C("PILS"))
    ev(ready + rng.range(1, 4), C("D1935"))
    issueDay = onOrAfter(Math.max(ready + rng.range(21, 56), c.pubDay + 7), TUESDAY)
    ev(issueDay - 20, C("WPIR"))
    ev(issueDay, C("PTAC"))
    ev(issueDay, C("PGM/"))
  }

  const interview = (around: number): void => {
    interviews++
    const d = around - rng.range(0, 20)
    if (rng.chance(0.6)) {
      ev(d, C("EXAT"))
      ev(d + rng.range(0, 5), C("MEXAT"))
    } else {
      ev(d, C("EXIN"))
      ev(d + rng.range(0, 5), C("MEXIN"))
    }
  }

  /** A response date, with an extension of time when past three months. */
  const respond = (action: number, lo: number, mode: number, hi: number): number => {
    const r = action + Math.round(rng.triangular(lo, mode, hi))
    if (r - action > 92) ev(r, C("XT/G"))
    return r
  }

  /**
   * Appeals: brief, then either reopened prosecution or the examiner's answer and the Board's
   * decision. Returns the next step: a non-final (0), an allowance (2) or the end (3), and its day.
   */
  const appeal = (from: number): [number, number] => {
    const notice = from + rng.range(60, 183)
    ev(notice, C("N/AP"))
    const brief = notice + rng.range(50, 70)
    ev(brief, C("AP.B"))
    ev(brief + rng.range(10, 30), C("APBR"))
    if (rng.chance(0.3)) return [0, brief + rng.range(60, 120)]
    const answer = brief + rng.range(90, 150)
    ev(answer, C("APEA"))
    ev(answer + rng.range(0, 3), C("MAPEA"))
    const decision = answer + rng.range(365, 700)
    if (rng.chance(0.55)) {
      ev(decision, C("MAPDA"))
      abandonedDay = decision + 63
      ev(abandonedDay, C("ABN10"))
      ev(abandonedDay + rng.range(10, 40), C("MABN10"))
      return [3, decision]
    }
    ev(decision, C("MAPDR"))
    return [2, decision + rng.range(30, 90)]
  }

  // The next step and its day; kinds: 0 non-final, 1 final, 2 allowance, 3 done.
  let kind = rng.chance(0.11) ? 2 : 0
  let day = firstAction
  for (let step = 0; step < 16 && kind !== 3; step++) {
    if (kind === 2) {
      allow(day)
      kind = 3
    } else if (kind === 0) {
      ev(day, C("CTNF"))
      ev(day + rng.range(0, 3), C("MCTNF"))
      ev(day + rng.range(0, 3), C("EML_NTF"))
      if (rng.chance(0.09)) {
        abandonNoResponse(day)
        kind = 3
        continue
      }
      const r = respond(day, 30, 85, 183)
      if (rng.chance(0.17)) interview(r)
      ev(r, C("A..."))
      ev(r + rng.range(2, 10), C("FWDX"))
      const next = r + Math.round(rng.triangular(45, 100, 200))
      const u = rng.next()
      const allowP = rces > 0 ? 0.36 : 0.28
      kind = u < allowP ? 2 : u < allowP + 0.6 ? 1 : 0
      day = next
    } else {
      ev(day, C("CTFR"))
      ev(day + rng.range(0, 3), C("MCTFR"))
      const u = rng.next()
      if (u < 0.24 || (u < 0.64 && rces >= 3)) {
        abandonNoResponse(day)
        kind = 3
      } else if (u < 0.64) {
        const r = respond(day, 60, 120, 183)
        if (rng.chance(0.17)) interview(r)
        ev(r, C("RCEX"))
        ev(r, C("BRCE"))
        ev(r, C("ABN9"))
        ev(r + rng.range(5, 20), C("FWDX"))
        rces++
        day = r + Math.round(rng.triangular(60, 120, 240))
        kind = rng.chance(0.2) ? 2 : 0
      } else if (u < 0.88) {
        const r = respond(day, 30, 50, 90)
        if (rng.chance(0.17)) interview(r)
        ev(r, C("A.NE"))
        if (rng.chance(0.25)) {
          day = r + rng.range(14, 60)
          kind = 2
        } else {
          const adv = r + rng.range(14, 45)
          ev(adv, C("CTAV"))
          ev(adv + rng.range(0, 3), C("MCTAV"))
          const v = rng.next()
          if (v < 0.55 && rces < 3) {
            const rce = adv + rng.range(20, 90)
            ev(rce, C("RCEX"))
            ev(rce, C("BRCE"))
            ev(rce, C("ABN9"))
            rces++
            day = rce + Math.round(rng.triangular(60, 120, 240))
            kind = rng.chance(0.2) ? 2 : 0
          } else if (v < 0.85) {
            abandonNoResponse(day)
            kind = 3
          } else {
            const next = appeal(adv)
            kind = next[0]
            day = next[1]
          }
        }
      } else if (u < 0.93) {
        const next = appeal(day)
        kind = next[0]
        day = next[1]
      } else {
        day = day + rng.range(30, 90)
        kind = 2
      }
    }
  }
  if (kind !== 3 && allowedDay < 0 && abandonedDay < 0) abandonNoResponse(day)

  return { firstActionDay: firstAction, allowedDay, issueDay, abandonedDay, rces, interviews }
}
