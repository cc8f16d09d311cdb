/**
 * PEDS transaction codes → prosecution milestones.
 *
 * PEDS records most steps twice: the examiner's action (CTNF "Non-Final Rejection") and its
 * mailing (MCTNF "Mail Non-Final Rejection"); some also carry workflow twins (BRCE "Workflow -
 * Request for RCE - Begin" beside RCEX). Only ONE code per step is counted, the action code;
 * the twins are classified as `mail_twin` / `workflow` so they are never counted twice.
 *
 * Traps found in the real sample (uva seed set, patent_client PEDS):
 *  - ABN9 is "Disposal for a RCE / CPA / R129": the application is NOT abandoned; the old
 *    prosecution is disposed of because an RCE was filed. It is a workflow twin of RCEX.
 *  - N/=. is "Notice of Allowance Data Verification Completed" and MN/=. "Mail Notice of
 *    Allowance": one allowance, two codes. CNOA / C/N= correct an existing allowance, they are
 *    not new allowances; W/N= withdraws one.
 *  - Interview summaries come under eight codes (EXIN, EXAT, EXIA, EXET, EXIE, EXAC, EXAP,
 *    EXEC) plus their mail twins (MEXIN …); the request M865E is the applicant asking for one.
 *  - A PTAB decision code names the outcome for the examiner (APDA affirmed, APDR reversed).
 *
 * The table is written as rules so the same list drives the SQL used at scale (sqlMilestoneCase)
 * and the TypeScript classifier used in tests (classifyEvent); a test checks they agree on
 * every code of the sample.
 */
import { sqlString } from "../../core/artifacts/files.ts"

export type Milestone =
  | "non_final_rejection"
  | "final_rejection"
  | "quayle_action"
  | "restriction"
  | "advisory_action"
  | "first_action_interview"
  | "pre_interview_communication"
  | "allowance"
  | "allowance_corrected"
  | "allowance_withdrawn"
  | "examiner_amendment"
  | "interview_applicant_initiated"
  | "interview_examiner_initiated"
  | "interview"
  | "interview_request"
  | "rce"
  | "rce_improper"
  | "abandonment"
  | "abandonment_rescinded"
  | "response_non_final"
  | "response_final"
  | "response_other"
  | "after_final_program"
  | "notice_of_appeal"
  | "appeal_brief"
  | "examiner_answer"
  | "pre_appeal_request"
  | "pre_appeal_proceed"
  | "pre_appeal_reopen"
  | "pre_appeal_withdrawn"
  | "ptab_affirmed"
  | "ptab_affirmed_in_part"
  | "ptab_reversed"
  | "appeal_dismissed"
  | "issue_fee_paid"
  | "patent_issued"
  | "terminal_disclaimer"
  | "docketed"
  | "mail_twin"
  | "workflow"
  | "other"

export interface MilestoneRule {
  readonly milestone: Milestone
  /** Exact transaction codes. */
  readonly codes?: ReadonlyArray<string>
  /** Full-match regular expression on the code (RE2 syntax, shared by DuckDB and JS). */
  readonly codePattern?: string
  /** Case-insensitive regular expression on the description, used only when the code is missing. */
  readonly descriptionPattern?: string
  readonly note: string
}

/** First matching rule wins. */
export const milestoneRules: ReadonlyArray<MilestoneRule> = [
  // Examiner actions on the merits (the action code, not its mailing).
  { milestone: "non_final_rejection", codes: ["CTNF"], descriptionPattern: "^non-final rejection", note: "Non-final office action" },
  { milestone: "final_rejection", codes: ["CTFR"], descriptionPattern: "^final rejection", note: "Final office action" },
  { milestone: "quayle_action", codes: ["CTEQ"], descriptionPattern: "quayle action$", note: "Ex parte Quayle: claims allowable, formal matters open" },
  { milestone: "first_action_interview", codes: ["FAIA"], note: "First Action Interview pilot, office action (step 2)" },
  { milestone: "pre_interview_communication", codes: ["PICO"], note: "First Action Interview pilot, pre-interview communication (step 1)" },
  { milestone: "restriction", codes: ["CTRS"], descriptionPattern: "^restriction/election requirement", note: "Restriction/election requirement; not an action on the merits" },
  { milestone: "advisory_action", codes: ["CTAV"], descriptionPattern: "^advisory action", note: "Advisory action after a reply to a final rejection" },
  { milestone: "allowance", codes: ["N/=."], descriptionPattern: "^notice of allowance data verification", note: "Notice of allowance (data verification; its mailing MN/=. is the twin)" },
  { milestone: "allowance_corrected", codes: ["CNOA", "C/N=", "MCNOA", "MC/N="], note: "Corrected notice of allowability: not a new allowance" },
  { milestone: "allowance_withdrawn", codes: ["W/N=", "WFIS"], note: "Notice of allowance withdrawn / case withdrawn from issue" },
  { milestone: "examiner_amendment", codes: ["EX.A"], note: "Examiner's amendment (usually agreed in an interview, just before allowance)" },
  // Interviews: one milestone per summary record; the mailing of the summary is a twin.
  { milestone: "interview_applicant_initiated", codes: ["EXAT", "EXIA", "EXAC", "EXAP"], note: "Interview summary, applicant initiated" },
  { milestone: "interview_examiner_initiated", codes: ["EXET", "EXIE", "EXEC"], note: "Interview summary, examiner initiated" },
  { milestone: "interview", codes: ["EXIN"], descriptionPattern: "interview summary", note: "Interview summary record (initiator not stated)" },
  { milestone: "interview_request", codes: ["M865E", "M865"], note: "Applicant's request for an interview" },
  // RCE.
  { milestone: "rce", codes: ["RCEX"], descriptionPattern: "^request for continued examination", note: "Request for continued examination" },
  { milestone: "rce_improper", codes: ["IRCE"], note: "Improper RCE (not counted as an RCE)" },
  { milestone: "workflow", codes: ["ABN9", "BRCE", "FRCE", "BCPA"], note: "RCE/CPA workflow; ABN9 'Disposal for a RCE / CPA / R129' is NOT an abandonment" },
  // Abandonment: every ABNn code except ABN9, and the mailings are twins.
  { milestone: "abandonment", codePattern: "ABN(\\d+|X|F)?", descriptionPattern: "^(aband\\.?|abandonment|express abandonment)", note: "Abandonment (ABN2 failure to respond, ABN3 express, ABN6 issue fee unpaid, ABN10 after appeal, ABNX pre-exam …)" },
  { milestone: "abandonment_rescinded", codes: ["NRAB", "PREV", "WPABN", "WABN"], note: "Abandonment rescinded or application revived" },
  // Applicant replies.
  { milestone: "response_non_final", codes: ["A..."], note: "Response after non-final action" },
  { milestone: "response_final", codes: ["A.NE"], note: "Response after final action" },
  { milestone: "response_other", codes: ["A.QU", "ELC.", "SA..", "A.I.", "AP/A"], note: "Other replies (Quayle, election, supplemental, informal, after appeal)" },
  { milestone: "after_final_program", codes: ["RAFC"], note: "After Final Consideration Pilot request" },
  // Appeal.
  { milestone: "notice_of_appeal", codes: ["N/AP"], descriptionPattern: "^notice of appeal filed", note: "Notice of appeal" },
  { milestone: "appeal_brief", codes: ["AP.B"], note: "Appeal brief" },
  { milestone: "examiner_answer", codes: ["APEA"], note: "Examiner's answer to the appeal brief" },
  { milestone: "pre_appeal_request", codes: ["AP.C"], note: "Pre-appeal brief conference request" },
  { milestone: "pre_appeal_proceed", codes: ["APCP"], note: "Pre-appeal conference: proceed to the Board" },
  { milestone: "pre_appeal_reopen", codes: ["APCR"], note: "Pre-appeal conference: prosecution reopened" },
  { milestone: "pre_appeal_withdrawn", codes: ["APCA"], note: "Pre-appeal conference: rejection withdrawn" },
  { milestone: "ptab_affirmed", codes: ["APDA"], note: "Board decision: examiner affirmed" },
  { milestone: "ptab_affirmed_in_part", codes: ["APDP"], note: "Board decision: examiner affirmed in part" },
  { milestone: "ptab_reversed", codes: ["APDR"], note: "Board decision: examiner reversed" },
  { milestone: "appeal_dismissed", codes: ["APDS"], note: "Appeal dismissed" },
  // Issue.
  { milestone: "issue_fee_paid", codes: ["IFEE"], note: "Issue fee payment received" },
  { milestone: "patent_issued", codes: ["PGM/", "WPIR"], note: "Issue notification / recordation of patent grant" },
  { milestone: "terminal_disclaimer", codes: ["DIST"], note: "Terminal disclaimer filed" },
  { milestone: "docketed", codes: ["DOCK"], note: "Case docketed to an examiner" },
  // Mailing twins of the actions above ("M" + the action code, plus a few irregular ones).
  {
    milestone: "mail_twin",
    codes: ["MN/=.", "MEXIN", "MEXAT", "MEXIA", "MEXET", "MEXIE", "MEXAC", "MEXAP", "MEXEC", "MEX.A", "MEX.R", "MFAIA", "MPICO", "MAPDA", "MAPDP", "MAPDR", "MAPDN", "MAPDS", "MAPCP", "MAPCR", "MAPCA", "MAPEA", "MNRAB", "MPREV"],
    codePattern: "M(CTNF|CTFR|CTEQ|CTRS|CTAV|ABN\\d*)",
    note: "Mailing of an action already counted"
  }
]

const compiled = milestoneRules.map((r) => ({
  rule: r,
  codes: new Set(r.codes ?? []),
  codeRe: r.codePattern ? new RegExp(`^(?:${r.codePattern})$`) : undefined,
  descRe: r.descriptionPattern ? new RegExp(r.descriptionPattern, "i") : undefined
}))

/** The milestone of one transaction (TypeScript twin of sqlMilestoneCase). */
export const classifyEvent = (code: string | null | undefined, description: string | null | undefined): Milestone => {
  const c = code?.trim() || null
  for (const r of compiled) {
    if (c !== null) {
      if (r.codes.has(c) || r.codeRe?.test(c)) return r.rule.milestone
    } else if (r.descRe && description && r.descRe.test(description.trim())) return r.rule.milestone
  }
  return "other"
}


/** A DuckDB CASE expression giving the milestone of a row with columns `code` and `description`. */
export const sqlMilestoneCase = (code = "code", description = "description") => {
  const c = `nullif(trim(${code}), '')`
  const whens = milestoneRules.flatMap((r) => {
    const out: string[] = []
    const conds: string[] = []
    if (r.codes?.length) conds.push(`${c} IN (${r.codes.map(sqlString).join(", ")})`)
    if (r.codePattern) conds.push(`regexp_full_match(${c}, ${sqlString(r.codePattern)})`)
    if (conds.length) out.push(`WHEN ${conds.join(" OR ")} THEN ${sqlString(r.milestone)}`)
    if (r.descriptionPattern)
      out.push(`WHEN ${c} IS NULL AND regexp_matches(trim(${description}), ${sqlString(r.descriptionPattern)}, 'i') THEN ${sqlString(r.milestone)}`)
    return out
  })
  return `CASE ${whens.join("\n  ")} ELSE 'other' END`
}

/** Examiner actions that count as an action on the merits (first action, actions per allowance). */
export const meritsActions: ReadonlyArray<Milestone> = ["non_final_rejection", "final_rejection", "quayle_action", "first_action_interview", "allowance"]
export const rejections: ReadonlyArray<Milestone> = ["non_final_rejection", "final_rejection"]
export const interviews: ReadonlyArray<Milestone> = ["interview", "interview_applicant_initiated", "interview_examiner_initiated"]
export const ptabDecisions: ReadonlyArray<Milestone> = ["ptab_affirmed", "ptab_affirmed_in_part", "ptab_reversed"]

export const sqlList = (ms: ReadonlyArray<string>) => `(${ms.map(sqlString).join(", ")})`
