/**
 * The counts behind every statistic, aggregated over `app_stats` (facts.sql.ts) for one group
 * (an examiner, an art unit). Each count is named for what it counts; sections.ts turns them
 * into rates with denominators.
 */
import type { DuckDBConnection } from "@duckdb/node-api"

const ANALYSED = "n_events > 0"
const EXAMINED = "first_action_kind IS NOT NULL"
const DISPOSED = "disposition IN ('allowed', 'abandoned')"
const ALLOWED = "disposition = 'allowed'"
const WINDOW = "first_action_date <= as_of - INTERVAL 3 YEAR"

const c = (cond: string) => `count(*) FILTER (WHERE ${cond})`
const s = (col: string, cond = ANALYSED) => `coalesce(sum(${col}) FILTER (WHERE ${cond}), 0)`

const timing = (col: string) => ({
  [`${col}_median`]: `median(${col}) FILTER (WHERE ${col} >= 0)`,
  [`${col}_mean`]: `avg(${col}) FILTER (WHERE ${col} >= 0)`,
  [`${col}_p25`]: `quantile_cont(${col}, 0.25) FILTER (WHERE ${col} >= 0)`,
  [`${col}_p75`]: `quantile_cont(${col}, 0.75) FILTER (WHERE ${col} >= 0)`,
  [`${col}_n`]: c(`${col} >= 0`),
  [`${col}_negative`]: c(`${col} < 0`)
})

export const aggregateColumns: Readonly<Record<string, string>> = {
  // Populations (the five denominators of data_quality).
  n_all: "count(*)",
  n_analysed: c(ANALYSED),
  n_with_documents: c("documents > 0"),
  n_with_office_actions: c(`${EXAMINED} OR restrictions > 0`),
  n_with_filing_date: c("filing_date IS NOT NULL"),
  n_analysed_with_filing_date: c(`${ANALYSED} AND filing_date IS NOT NULL`),
  n_examined: c(EXAMINED),
  // Outcomes.
  n_allowed: c(ALLOWED),
  n_abandoned: c("disposition = 'abandoned'"),
  n_pending: c("disposition = 'pending'"),
  n_allowed_by_status_only: c("allowed_by_status_only"),
  n_allowed_with_history: c("event_disposition = 'allowed'"),
  n_fa_window: c(`${EXAMINED} AND ${WINDOW}`),
  n_allowed_3y: c(`${EXAMINED} AND ${WINDOW} AND event_disposition = 'allowed' AND allowance_date <= first_action_date + INTERVAL 3 YEAR`),
  n_first_action_allowance: c(`${ALLOWED} AND first_action_kind = 'allowance'`),
  sum_actions_to_allowance: s("actions_to_allowance", "event_disposition = 'allowed'"),
  sum_rejections_before_allowance: s("rejections_before_allowance", "event_disposition = 'allowed'"),
  // Timing.
  ...timing("months_to_first_action"),
  ...timing("months_to_allowance"),
  ...timing("months_first_action_to_allowance"),
  ...timing("months_to_abandonment"),
  // Rejections.
  sum_non_final: s("non_final"),
  sum_final: s("final"),
  n_apps_final: c(`${EXAMINED} AND final > 0`),
  n_apps_restriction: c("restrictions > 0"),
  sum_quayle: s("quayle"),
  n_apps_quayle: c("quayle > 0"),
  sum_advisory: s("advisory"),
  n_apps_advisory: c("advisory > 0"),
  n_allowed_examiner_amendment: c("event_disposition = 'allowed' AND examiner_amendments > 0"),
  n_apps_after_final_program: c("after_final_requests > 0"),
  n_apps_final_with_reply: c("final > 0 AND replies_final > 0"),
  // Interviews.
  n_apps_interview: c(`${ANALYSED} AND interviews > 0`),
  sum_interviews: s("interviews"),
  sum_interviews_applicant: s("interviews_applicant"),
  sum_interviews_examiner: s("interviews_examiner"),
  sum_interview_requests: s("interview_requests"),
  n_disposed_with_interview: c(`${DISPOSED} AND interviews_before_disposal > 0`),
  n_allowed_with_interview: c(`${ALLOWED} AND interviews_before_disposal > 0`),
  n_disposed_without_interview: c(`${DISPOSED} AND coalesce(interviews_before_disposal, 0) = 0`),
  n_allowed_without_interview: c(`${ALLOWED} AND coalesce(interviews_before_disposal, 0) = 0`),
  // RCE.
  n_apps_rce: c(`${EXAMINED} AND rces > 0`),
  sum_rces: s("rces"),
  n_disposed_with_rce: c(`${DISPOSED} AND rces > 0`),
  n_allowed_with_rce: c(`${ALLOWED} AND rces > 0`),
  n_disposed_without_rce: c(`${DISPOSED} AND coalesce(rces, 0) = 0`),
  n_allowed_without_rce: c(`${ALLOWED} AND coalesce(rces, 0) = 0`),
  n_allowed_after_rce: c("event_disposition = 'allowed' AND rces_before_allowance > 0"),
  // Appeals.
  n_apps_notice_of_appeal: c("notices_of_appeal > 0"),
  n_apps_appeal_brief: c("appeal_briefs > 0"),
  sum_examiner_answers: s("examiner_answers"),
  sum_pre_appeal_requests: s("pre_appeal_requests"),
  sum_pre_appeal_proceed: s("pre_appeal_proceed"),
  sum_pre_appeal_reopen: s("pre_appeal_reopen"),
  sum_pre_appeal_withdrawn: s("pre_appeal_withdrawn"),
  sum_ptab_affirmed: s("ptab_affirmed"),
  sum_ptab_affirmed_in_part: s("ptab_affirmed_in_part"),
  sum_ptab_reversed: s("ptab_reversed"),
  // Cost model inputs (disposed applications only: complete prosecutions).
  cost_replies_non_final: s("replies_non_final", DISPOSED),
  cost_replies_final: s("replies_final", DISPOSED),
  cost_first_rces: c(`${DISPOSED} AND rces > 0`),
  cost_later_rces: s("greatest(rces - 1, 0)", DISPOSED),
  cost_interviews: s("interviews", DISPOSED),
  cost_notices_of_appeal: s("notices_of_appeal", DISPOSED),
  cost_appeal_briefs: s("appeal_briefs", DISPOSED),
  // Office-action text.
  sum_rejection_documents: "sum(rejection_documents)",
  sum_documents: "sum(documents)",
  sum_r101: "sum(r101)",
  sum_r102: "sum(r102)",
  sum_r103: "sum(r103)",
  sum_r112: "sum(r112)",
  sum_rdp: "sum(rdp)",
  // Claims.
  n_apps_claims: c("claims > 0"),
  n_analysed_with_claims: c(`${ANALYSED} AND claims > 0`),
  sum_claims: "coalesce(sum(claims), 0)",
  sum_independent_claims: "coalesce(sum(independent_claims), 0)",
  n_apps_no_independent: c("claims > 0 AND independent_claims = 0"),
  n_claims_from_grant: c("claims > 0 AND claims_source = 'uspto-grant-xml'"),
  // Recency.
  n_recent: c(`${ANALYSED} AND last_event_date >= as_of - INTERVAL 3 YEAR`),
  first_filing_year: "min(year(filing_date))",
  last_filing_year: "max(year(filing_date))"
}

export type Aggregates = Readonly<Record<string, number | null>> & { readonly key: string; readonly data_as_of: string | null }

/** Aggregates per value of `keyExpr` over app_stats (rows where the key is null are left out). */
export const aggregateBy = async (conn: DuckDBConnection, keyExpr: string): Promise<Aggregates[]> => {
  const cols = Object.entries(aggregateColumns).map(([name, expr]) => `(${expr})::DOUBLE AS ${name}`)
  const r = await conn.runAndReadAll(`
    SELECT ${keyExpr} AS key, any_value(as_of)::VARCHAR AS data_as_of, ${cols.join(",\n")}
    FROM app_stats, as_of WHERE ${keyExpr} IS NOT NULL GROUP BY 1 ORDER BY 1`)
  return r.getRowObjectsJS() as unknown as Aggregates[]
}

/** Applications by the number of merits actions in their history (6 and more together), per group. */
export const sequenceLengthsBy = async (conn: DuckDBConnection, keyExpr: string) => {
  const r = await conn.runAndReadAll(`
    SELECT ${keyExpr} AS key, least(merits_actions, 6)::INTEGER AS actions,
      count(*)::DOUBLE AS applications, ${c(ALLOWED)}::DOUBLE AS allowed,
      ${c("disposition = 'abandoned'")}::DOUBLE AS abandoned, ${c("disposition = 'pending'")}::DOUBLE AS pending
    FROM app_stats WHERE ${keyExpr} IS NOT NULL AND ${ANALYSED} GROUP BY 1, 2 ORDER BY 1, 2`)
  const out = new Map<string, Array<{ actions: number; applications: number; allowed: number; abandoned: number; pending: number }>>()
  for (const row of r.getRowObjectsJS() as Array<Record<string, unknown>>) {
    const k = String(row.key)
    if (!out.has(k)) out.set(k, [])
    out.get(k)!.push({
      actions: Number(row.actions),
      applications: Number(row.applications),
      allowed: Number(row.allowed),
      abandoned: Number(row.abandoned),
      pending: Number(row.pending)
    })
  }
  return out
}

/** The aggregates of a group with no applications (every count 0, every quantile null). */
export const emptyAggregates = (key: string, dataAsOf: string | null): Aggregates =>
  ({
    ...Object.fromEntries(Object.keys(aggregateColumns).map((k) => [k, /_(median|mean|p25|p75)$|_year$/.test(k) ? null : 0])),
    key,
    data_as_of: dataAsOf
  }) as Aggregates
