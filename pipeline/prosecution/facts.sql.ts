/**
 * One row of prosecution facts per application, computed in DuckDB from the PEDS transaction
 * history (tables `ev` → `app_facts` → `application_facts`, with the examiner's id joined in
 * `app_stats`). Every examiner and art-unit figure is an aggregate over `app_stats`, so the
 * definitions below are the definitions of the statistics.
 *
 * Each application's facts (and its events with their milestones, `ev`) are a function of its
 * own rows alone, so a night computes them for the applications ingest merged again and takes the
 * others' over (stage.ts); the examiner's id is joined afterwards because the examiners table is
 * keyed by name, and the data's as-of date is a maximum over every event.
 *
 * Definitions (an application's history is its events in `seq` order):
 *  - first action: the first action on the merits — non-final or final rejection, Quayle
 *    action, First Action Interview office action, or a notice of allowance (a first-action
 *    allowance). A restriction requirement is not an action on the merits.
 *  - allowed: a notice of allowance (N/=.) that was not withdrawn afterwards (W/N=, WFIS with
 *    no later allowance). A later failure to pay the issue fee does not undo the examiner's
 *    allowance. Applications whose history has no allowance code but whose PEDS status says
 *    patented also count as allowed (allowance date unknown).
 *  - abandoned: not allowed, and an abandonment (any ABNn but ABN9, which is the RCE disposal)
 *    not followed by a rescission or revival; or, failing events, a status saying abandoned.
 *  - disposed: allowed or abandoned. Everything else is pending.
 *  - allowance date: the first allowance after the last withdrawal of an allowance.
 *  - months: days ÷ 30.4375. An interval that comes out negative (an event dated before the
 *    filing date) is a data error: it is left out of the timing figures and counted.
 *  - interviews: distinct dates with an interview summary (EXIN, EXAT … ; mail twins ignored);
 *    "with interview" for a disposed application means one dated on or before its disposal.
 *  - RCE: RCEX transactions (ABN9/BRCE twins ignored); "allowed after RCE" means an RCE
 *    before the allowance.
 *  - data as-of date: the latest event date in the corpus (not later than today).
 */
import { interviews, meritsActions, rejections, sqlList, sqlMilestoneCase } from "./events.ts"

export const normalizedExaminerName = (col: string) => `upper(regexp_replace(trim(${col}), '\\s+', ' ', 'g'))`

export const factsSql: ReadonlyArray<string> = [
  `CREATE OR REPLACE TEMP TABLE ev AS
   SELECT app_num, seq, event_date, nullif(trim(code), '') AS code, description, ${sqlMilestoneCase()} AS milestone
   FROM prosecution_events`,
  `CREATE OR REPLACE TEMP TABLE app_marks AS
   SELECT app_num,
     count(*) AS n_events,
     max(seq) FILTER (WHERE milestone = 'allowance_withdrawn') AS withdrawn_seq,
     max(seq) FILTER (WHERE milestone = 'allowance') AS last_allowance_seq,
     max(seq) FILTER (WHERE milestone = 'abandonment') AS abandonment_seq,
     max(seq) FILTER (WHERE milestone = 'abandonment_rescinded') AS rescinded_seq
   FROM ev GROUP BY app_num`,
  `CREATE OR REPLACE TEMP TABLE app_facts AS
   WITH m AS (
     SELECT *,
       last_allowance_seq IS NOT NULL AND (withdrawn_seq IS NULL OR last_allowance_seq > withdrawn_seq) AS allowance_stands,
       abandonment_seq IS NOT NULL AND (rescinded_seq IS NULL OR rescinded_seq < abandonment_seq) AS abandonment_stands
     FROM app_marks),
   k AS (
     SELECT e.app_num,
       min(e.seq) FILTER (WHERE e.milestone = 'allowance' AND e.seq > coalesce(m.withdrawn_seq, -1)) AS allowance_seq,
       min(e.seq) FILTER (WHERE e.milestone IN ${sqlList(meritsActions)}) AS first_action_seq,
       min(e.seq) FILTER (WHERE e.milestone = 'rce') AS first_rce_seq
     FROM ev e JOIN m USING (app_num) GROUP BY e.app_num)
   SELECT m.app_num, m.n_events,
     CASE WHEN m.allowance_stands THEN 'allowed' WHEN m.abandonment_stands THEN 'abandoned' END AS event_disposition,
     k.allowance_seq,
     CASE WHEN m.allowance_stands THEN k.allowance_seq WHEN m.abandonment_stands THEN m.abandonment_seq END AS disposal_seq,
     max(e.event_date) FILTER (WHERE e.seq = k.allowance_seq) AS allowance_date,
     max(e.event_date) FILTER (WHERE e.seq = m.abandonment_seq) AS abandonment_date,
     max(e.event_date) FILTER (WHERE e.seq = k.first_action_seq) AS first_action_date,
     max(e.milestone) FILTER (WHERE e.seq = k.first_action_seq) AS first_action_kind,
     count(*) FILTER (WHERE e.milestone IN ${sqlList(meritsActions)} AND e.seq <= k.allowance_seq) AS actions_to_allowance,
     count(*) FILTER (WHERE e.milestone IN ${sqlList(meritsActions)}) AS merits_actions,
     count(*) FILTER (WHERE e.milestone = 'non_final_rejection') AS non_final,
     count(*) FILTER (WHERE e.milestone = 'final_rejection') AS final,
     count(*) FILTER (WHERE e.milestone IN ${sqlList(rejections)} AND e.seq < coalesce(k.allowance_seq, 2147483647)) AS rejections_before_allowance,
     count(*) FILTER (WHERE e.milestone = 'quayle_action') AS quayle,
     count(*) FILTER (WHERE e.milestone = 'restriction') AS restrictions,
     count(*) FILTER (WHERE e.milestone = 'advisory_action') AS advisory,
     count(*) FILTER (WHERE e.milestone = 'examiner_amendment') AS examiner_amendments,
     count(DISTINCT coalesce(e.event_date::VARCHAR, 'seq' || e.seq)) FILTER (WHERE e.milestone IN ${sqlList(interviews)}) AS interviews,
     count(DISTINCT coalesce(e.event_date::VARCHAR, 'seq' || e.seq)) FILTER (WHERE e.milestone = 'interview_applicant_initiated') AS interviews_applicant,
     count(DISTINCT coalesce(e.event_date::VARCHAR, 'seq' || e.seq)) FILTER (WHERE e.milestone = 'interview_examiner_initiated') AS interviews_examiner,
     count(DISTINCT coalesce(e.event_date::VARCHAR, 'seq' || e.seq)) FILTER (
       WHERE e.milestone IN ${sqlList(interviews)}
         AND e.seq <= coalesce(CASE WHEN m.allowance_stands THEN k.allowance_seq WHEN m.abandonment_stands THEN m.abandonment_seq END, 2147483647)
     ) AS interviews_before_disposal,
     min(e.event_date) FILTER (WHERE e.milestone IN ${sqlList(interviews)}) AS first_interview_date,
     count(*) FILTER (WHERE e.milestone = 'interview_request') AS interview_requests,
     count(*) FILTER (WHERE e.milestone = 'rce') AS rces,
     count(*) FILTER (WHERE e.milestone = 'rce' AND e.seq < coalesce(k.allowance_seq, -1)) AS rces_before_allowance,
     min(e.event_date) FILTER (WHERE e.milestone = 'rce') AS first_rce_date,
     count(*) FILTER (WHERE e.milestone = 'response_non_final') AS replies_non_final,
     count(*) FILTER (WHERE e.milestone = 'response_final') AS replies_final,
     count(*) FILTER (WHERE e.milestone = 'after_final_program') AS after_final_requests,
     count(*) FILTER (WHERE e.milestone = 'notice_of_appeal') AS notices_of_appeal,
     count(*) FILTER (WHERE e.milestone = 'appeal_brief') AS appeal_briefs,
     count(*) FILTER (WHERE e.milestone = 'examiner_answer') AS examiner_answers,
     count(*) FILTER (WHERE e.milestone = 'pre_appeal_request') AS pre_appeal_requests,
     count(*) FILTER (WHERE e.milestone = 'pre_appeal_proceed') AS pre_appeal_proceed,
     count(*) FILTER (WHERE e.milestone = 'pre_appeal_reopen') AS pre_appeal_reopen,
     count(*) FILTER (WHERE e.milestone = 'pre_appeal_withdrawn') AS pre_appeal_withdrawn,
     count(*) FILTER (WHERE e.milestone = 'ptab_affirmed') AS ptab_affirmed,
     count(*) FILTER (WHERE e.milestone = 'ptab_affirmed_in_part') AS ptab_affirmed_in_part,
     count(*) FILTER (WHERE e.milestone = 'ptab_reversed') AS ptab_reversed,
     min(e.event_date) AS first_event_date,
     max(e.event_date) AS last_event_date
   FROM ev e JOIN m USING (app_num) JOIN k USING (app_num)
   GROUP BY ALL`,
  // Office-action text: rejection documents and their statutory bases, per application.
  `CREATE OR REPLACE TEMP TABLE app_docs AS
   SELECT app_num, count(*) AS documents,
     count(*) FILTER (WHERE document_code IN ('CTNF', 'CTFR')) AS rejection_documents,
     count(*) FILTER (WHERE document_code IN ('CTNF', 'CTFR') AND rejection_101) AS r101,
     count(*) FILTER (WHERE document_code IN ('CTNF', 'CTFR') AND rejection_102) AS r102,
     count(*) FILTER (WHERE document_code IN ('CTNF', 'CTFR') AND rejection_103) AS r103,
     count(*) FILTER (WHERE document_code IN ('CTNF', 'CTFR') AND rejection_112) AS r112,
     count(*) FILTER (WHERE document_code IN ('CTNF', 'CTFR') AND rejection_dp) AS rdp
   FROM office_actions WHERE app_num IS NOT NULL GROUP BY app_num`,
  `CREATE OR REPLACE TEMP TABLE app_claims AS
   SELECT app_num, count(*) AS claims, count(*) FILTER (WHERE is_independent) AS independent_claims, any_value(source) AS claims_source
   FROM claims GROUP BY app_num`,
  // Every application with its examiner and art unit, facts where PEDS has a history.
  `CREATE OR REPLACE TEMP TABLE application_facts AS
   SELECT a.app_num, a.examiner AS examiner_name, nullif(trim(a.art_unit), '') AS art_unit,
     coalesce(a.technology_center, CASE WHEN a.art_unit IS NOT NULL THEN substr(a.art_unit, 1, 2) || '00' END) AS technology_center,
     a.filing_date, a.status, a.title,
     coalesce(f.n_events, 0) AS n_events,
     f.* EXCLUDE (app_num, n_events),
     CASE
       WHEN f.event_disposition IS NOT NULL THEN f.event_disposition
       WHEN f.app_num IS NOT NULL AND a.status ILIKE 'patent%' THEN 'allowed'
       WHEN f.app_num IS NOT NULL AND a.status ILIKE '%abandon%' THEN 'abandoned'
       WHEN f.app_num IS NOT NULL THEN 'pending'
     END AS disposition,
     f.event_disposition IS NULL AND f.app_num IS NOT NULL AND a.status ILIKE 'patent%' AS allowed_by_status_only,
     CASE WHEN f.event_disposition = 'allowed' THEN f.allowance_date WHEN f.event_disposition = 'abandoned' THEN f.abandonment_date END AS disposal_date,
     date_diff('day', a.filing_date, f.first_action_date) / 30.4375 AS months_to_first_action,
     CASE WHEN f.event_disposition = 'allowed' THEN date_diff('day', a.filing_date, f.allowance_date) / 30.4375 END AS months_to_allowance,
     CASE WHEN f.event_disposition = 'allowed' THEN date_diff('day', f.first_action_date, f.allowance_date) / 30.4375 END AS months_first_action_to_allowance,
     CASE WHEN f.event_disposition = 'abandoned' THEN date_diff('day', a.filing_date, f.abandonment_date) / 30.4375 END AS months_to_abandonment,
     coalesce(d.documents, 0) AS documents, coalesce(d.rejection_documents, 0) AS rejection_documents,
     coalesce(d.r101, 0) AS r101, coalesce(d.r102, 0) AS r102, coalesce(d.r103, 0) AS r103, coalesce(d.r112, 0) AS r112, coalesce(d.rdp, 0) AS rdp,
     c.claims, c.independent_claims, c.claims_source
   FROM applications a
   LEFT JOIN app_facts f ON f.app_num = a.app_num
   LEFT JOIN app_docs d ON d.app_num = a.app_num
   LEFT JOIN app_claims c ON c.app_num = a.app_num`,
]

/** The latest event date in the corpus, not later than today: over every event, whichever applications' facts were computed. */
export const asOfSql = `CREATE OR REPLACE TEMP TABLE as_of AS
   SELECT coalesce(max(event_date) FILTER (WHERE event_date <= current_date), current_date) AS as_of FROM prosecution_events`

/** app_stats: every application's facts (`facts`, a relation) with its examiner's id. */
export const appStatsSql = (facts: string) => `CREATE OR REPLACE TEMP TABLE app_stats AS
   SELECT f.app_num, x.examiner_id, f.* EXCLUDE (app_num)
   FROM ${facts} f LEFT JOIN examiners x ON x.full_name = ${normalizedExaminerName("f.examiner_name")}`
