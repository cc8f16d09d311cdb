/**
 * The statistics sections (SPEC 2.9) built from a group's aggregates. Every rate names its
 * denominator and carries a Wilson interval and a volume tier (statistics.ts).
 *
 * Withholding: a figure whose stored value would be wrong is removed (set to null) and listed
 * in data_quality.withheld with the reason, never served:
 *  - timing figures when more than 20% of the group's dated intervals are negative (events
 *    dated before the filing date: the dates themselves are unreliable);
 *  - claims_analysis.independentClaimsStats.avgIndependentClaims when claim text exists for
 *    fewer than half of the analysed applications (the average would describe the granted
 *    subset: claim text comes mostly from grants) or when some claim set has no independent
 *    claim (a claim-parsing failure).
 */
import { estimateProsecutionCost, type CostEstimate } from "../../core/prosecution/cost-model.ts"
import type { Aggregates } from "./aggregates.ts"
import { duration, mean, rate, round, volumeTier, type Rate } from "./statistics.ts"

const L = {
  disposed: "disposed applications (allowed + abandoned) with a PEDS history",
  examined: "applications with a first action on the merits",
  analysed: "applications with a PEDS transaction history",
  allowed: "allowed applications with the allowance in their history",
  window: "applications whose first action is at least 3 years before the data as-of date",
  withActions: "applications with an examiner action (merits action or restriction)"
}

export interface Withheld {
  readonly field: string
  readonly reason: string
}

export interface Sections {
  readonly portfolio: Record<string, unknown>
  readonly rejection_analytics: Record<string, unknown>
  readonly interview_metrics: Record<string, unknown>
  readonly rcex_metrics: Record<string, unknown>
  readonly timeline_metrics: Record<string, unknown>
  readonly claims_analysis: Record<string, unknown>
  readonly behavioral_patterns: Record<string, unknown>
  readonly estimated_cost: CostEstimate
  readonly data_quality: Record<string, unknown> & { withheld: Withheld[]; notes: string[] }
  /** Headline numbers for percentile rankings and insights. */
  readonly headline: Readonly<Record<string, Rate | { value: number | null; n: number }>>
}

const n = (a: Aggregates, k: string) => Number(a[k] ?? 0)
const q = (a: Aggregates, k: string) => (a[k] === null || a[k] === undefined ? null : Number(a[k]))

const rateDiff = (x: Rate, y: Rate) => (x.value !== null && y.value !== null ? round(x.value - y.value) : null)

export const buildSections = (a: Aggregates): Sections => {
  const withheld: Withheld[] = []
  const notes: string[] = []
  const disposed = n(a, "n_allowed") + n(a, "n_abandoned")

  // Outcomes.
  const allowanceRate = rate(n(a, "n_allowed"), disposed, L.disposed)
  const within3y = rate(n(a, "n_allowed_3y"), n(a, "n_fa_window"), L.window)
  const actionsPerAllowance = mean(n(a, "sum_actions_to_allowance"), n(a, "n_allowed_with_history"), L.allowed)
  const estimated_cost = estimateProsecutionCost({
    disposed,
    allowed: n(a, "n_allowed"),
    repliesNonFinal: n(a, "cost_replies_non_final"),
    repliesFinal: n(a, "cost_replies_final"),
    firstRces: n(a, "cost_first_rces"),
    laterRces: n(a, "cost_later_rces"),
    interviews: n(a, "cost_interviews"),
    noticesOfAppeal: n(a, "cost_notices_of_appeal"),
    appealBriefs: n(a, "cost_appeal_briefs")
  })
  const portfolio = {
    applications: n(a, "n_all"),
    analysed: n(a, "n_analysed"),
    allowed: n(a, "n_allowed"),
    abandoned: n(a, "n_abandoned"),
    pending: n(a, "n_pending"),
    disposed,
    allowance_rate: allowanceRate,
    allowance_within_3y_of_first_action: within3y,
    actions_per_allowance: actionsPerAllowance,
    rejections_per_allowance: mean(n(a, "sum_rejections_before_allowance"), n(a, "n_allowed_with_history"), L.allowed),
    filing_years: { first: q(a, "first_filing_year"), last: q(a, "last_filing_year") },
    definitions: {
      allowance_rate: "allowed ÷ (allowed + abandoned), over applications with a PEDS history; allowed = notice of allowance not withdrawn",
      allowance_within_3y_of_first_action:
        "applications allowed within 3 years of their first action on the merits ÷ applications whose first action is at least 3 years old; does not wait for disposal",
      actions_per_allowance: "merits actions (non-final, final, Quayle, FAI action, the allowance itself) up to the allowance, averaged over allowed applications"
    }
  }

  // Rejections and appeals.
  const ptabDecided = n(a, "sum_ptab_affirmed") + n(a, "sum_ptab_affirmed_in_part") + n(a, "sum_ptab_reversed")
  const docs = n(a, "sum_rejection_documents")
  const docLabel = "rejection office actions (CTNF/CTFR) with full text"
  const firstActionAllowance = rate(n(a, "n_first_action_allowance"), n(a, "n_examined"), L.examined)
  const finalRate = rate(n(a, "n_apps_final"), n(a, "n_examined"), L.examined)
  const restrictionRate = rate(n(a, "n_apps_restriction"), n(a, "n_with_office_actions"), L.withActions)
  const rejection_analytics = {
    non_final_rejections: n(a, "sum_non_final"),
    final_rejections: n(a, "sum_final"),
    rejections_per_examined_application: mean(n(a, "sum_non_final") + n(a, "sum_final"), n(a, "n_examined"), L.examined),
    final_rejection_rate: finalRate,
    first_action_allowance_rate: firstActionAllowance,
    restriction_rate: restrictionRate,
    quayle_actions: n(a, "sum_quayle"),
    advisory_actions: n(a, "sum_advisory"),
    statutory_bases: {
      documents: docs,
      section_101: rate(n(a, "sum_r101"), docs, docLabel),
      section_102: rate(n(a, "sum_r102"), docs, docLabel),
      section_103: rate(n(a, "sum_r103"), docs, docLabel),
      section_112: rate(n(a, "sum_r112"), docs, docLabel),
      double_patenting: rate(n(a, "sum_rdp"), docs, docLabel)
    },
    appeals: {
      applications_with_notice_of_appeal: n(a, "n_apps_notice_of_appeal"),
      applications_with_appeal_brief: n(a, "n_apps_appeal_brief"),
      examiner_answers: n(a, "sum_examiner_answers"),
      pre_appeal: {
        requests: n(a, "sum_pre_appeal_requests"),
        proceed_to_board: n(a, "sum_pre_appeal_proceed"),
        prosecution_reopened: n(a, "sum_pre_appeal_reopen"),
        rejection_withdrawn: n(a, "sum_pre_appeal_withdrawn")
      },
      board_decisions: {
        affirmed: n(a, "sum_ptab_affirmed"),
        affirmed_in_part: n(a, "sum_ptab_affirmed_in_part"),
        reversed: n(a, "sum_ptab_reversed"),
        examiner_fully_affirmed_rate: rate(n(a, "sum_ptab_affirmed"), ptabDecided, "Board decisions on appeal")
      }
    }
  }

  // Interviews.
  const withInterview = rate(n(a, "n_allowed_with_interview"), n(a, "n_disposed_with_interview"), "disposed applications with an interview before disposal")
  const withoutInterview = rate(n(a, "n_allowed_without_interview"), n(a, "n_disposed_without_interview"), "disposed applications without an interview")
  const interviewRate = rate(n(a, "n_apps_interview"), n(a, "n_analysed"), L.analysed)
  const interview_metrics = {
    interview_rate: interviewRate,
    interviews: n(a, "sum_interviews"),
    applicant_initiated: n(a, "sum_interviews_applicant"),
    examiner_initiated: n(a, "sum_interviews_examiner"),
    initiator_not_recorded: Math.max(0, n(a, "sum_interviews") - n(a, "sum_interviews_applicant") - n(a, "sum_interviews_examiner")),
    interview_requests: n(a, "sum_interview_requests"),
    allowance_rate_with_interview: withInterview,
    allowance_rate_without_interview: withoutInterview,
    allowance_rate_difference: rateDiff(withInterview, withoutInterview),
    note: "The difference compares two groups of applications; it is an association, not the effect of an interview."
  }

  // RCE.
  const rceRate = rate(n(a, "n_apps_rce"), n(a, "n_examined"), L.examined)
  const rcex_metrics = {
    rce_rate: rceRate,
    rces: n(a, "sum_rces"),
    rces_per_rce_application: mean(n(a, "sum_rces"), n(a, "n_apps_rce"), "applications with at least one RCE"),
    allowance_rate_with_rce: rate(n(a, "n_allowed_with_rce"), n(a, "n_disposed_with_rce"), "disposed applications with an RCE"),
    allowance_rate_without_rce: rate(n(a, "n_allowed_without_rce"), n(a, "n_disposed_without_rce"), "disposed applications without an RCE"),
    allowances_after_rce: rate(n(a, "n_allowed_after_rce"), n(a, "n_allowed_with_history"), L.allowed),
    definitions: { rce_rate: "applications with at least one RCE (RCEX) ÷ applications with a first action on the merits" }
  }

  // Timing.
  const asOf = a.data_as_of
  const timingOf = (col: string, label: string) => {
    const good = n(a, `${col}_n`)
    const bad = n(a, `${col}_negative`)
    if (bad > 0) notes.push(`${bad} application(s) left out of ${col}: an event dated before the filing date`)
    if (bad > 0 && bad > 0.2 * (good + bad)) {
      withheld.push({ field: `timeline_metrics.${col}`, reason: `${bad} of ${good + bad} intervals are negative (dates out of order in the source)` })
      return null
    }
    return duration({ median: q(a, `${col}_median`), mean: q(a, `${col}_mean`), p25: q(a, `${col}_p25`), p75: q(a, `${col}_p75`) }, good, label)
  }
  const timeline_metrics = {
    months_to_first_action: timingOf("months_to_first_action", "applications with a filing date and a first action"),
    months_to_allowance: timingOf("months_to_allowance", "allowed applications with a filing date"),
    months_first_action_to_allowance: timingOf("months_first_action_to_allowance", "allowed applications with a first action"),
    months_to_abandonment: timingOf("months_to_abandonment", "abandoned applications with a filing date"),
    data_as_of: asOf,
    unit: "months of 30.4375 days, from the filing date unless named otherwise"
  }

  // Claims.
  const claimsN = n(a, "n_apps_claims")
  let avgIndependent: number | null = claimsN > 0 ? round(n(a, "sum_independent_claims") / claimsN, 2) : null
  const claimNotes: string[] = []
  if (claimsN > 0 && n(a, "n_apps_no_independent") > 0) {
    avgIndependent = null
    const reason = `${n(a, "n_apps_no_independent")} claim set(s) have no independent claim (claim parsing failed)`
    withheld.push({ field: "claims_analysis.independentClaimsStats.avgIndependentClaims", reason })
    claimNotes.push(reason)
  } else if (claimsN > 0 && n(a, "n_analysed_with_claims") < 0.5 * n(a, "n_analysed")) {
    avgIndependent = null
    const reason = `claim text exists for ${n(a, "n_analysed_with_claims")} of ${n(a, "n_analysed")} analysed applications, mostly granted ones; the average would describe that subset`
    withheld.push({ field: "claims_analysis.independentClaimsStats.avgIndependentClaims", reason })
    claimNotes.push(reason)
  }
  const claims_analysis = {
    applications_with_claims: claimsN,
    coverage: rate(n(a, "n_analysed_with_claims"), n(a, "n_analysed"), L.analysed),
    claims_from_grants: n(a, "n_claims_from_grant"),
    independentClaimsStats: {
      avgIndependentClaims: avgIndependent,
      avgClaims: claimsN > 0 ? round(n(a, "sum_claims") / claimsN, 2) : null,
      n: claimsN,
      ...(claimNotes.length ? { note: claimNotes.join("; ") } : {})
    }
  }

  const behavioral_patterns = {
    first_action_allowance_rate: firstActionAllowance,
    restriction_rate: restrictionRate,
    quayle_rate: rate(n(a, "n_apps_quayle"), n(a, "n_examined"), L.examined),
    examiner_amendment_rate: rate(n(a, "n_allowed_examiner_amendment"), n(a, "n_allowed_with_history"), L.allowed),
    advisory_action_rate: rate(n(a, "n_apps_advisory"), n(a, "n_apps_final"), "applications with a final rejection"),
    after_final_program_rate: rate(n(a, "n_apps_after_final_program"), n(a, "n_apps_final"), "applications with a final rejection"),
    appeal_rate: rate(n(a, "n_apps_notice_of_appeal"), n(a, "n_apps_final"), "applications with a final rejection")
  }

  // Data quality.
  const all = n(a, "n_all")
  const analysed = n(a, "n_analysed")
  if (all > analysed)
    notes.push(
      `${all - analysed} application(s) have no PEDS transaction history (known only from publications or grants) and are left out of every rate: a grant-only source sees only allowed applications`
    )
  if (n(a, "n_allowed_by_status_only") > 0)
    notes.push(`${n(a, "n_allowed_by_status_only")} application(s) counted allowed from the PEDS status alone (no allowance transaction; no allowance date)`)
  const data_quality = {
    populations: {
      all_applications: all,
      analysed,
      with_documents: n(a, "n_with_documents"),
      with_office_actions: n(a, "n_with_office_actions"),
      with_filing_date: n(a, "n_with_filing_date")
    },
    applications_analysed: analysed,
    office_actions_analysed: n(a, "sum_non_final") + n(a, "sum_final") + n(a, "sum_quayle") + n(a, "sum_advisory"),
    office_action_documents: n(a, "sum_documents"),
    volume: { tier: volumeTier(disposed), basis: "disposed applications", disposed, analysed },
    recency_score: analysed > 0 ? round(n(a, "n_recent") / analysed) : null,
    completeness_score: all > 0 ? round(n(a, "n_analysed_with_filing_date") / all) : null,
    data_as_of: asOf,
    definitions: {
      recency_score: "share of analysed applications with a transaction in the 3 years before the data as-of date",
      completeness_score: "share of all applications with both a PEDS history and a filing date",
      volume_tier: "none 0, insufficient 1-4, low 5-19, moderate 20-99, high 100+ disposed applications"
    },
    withheld,
    notes
  }

  return {
    portfolio,
    rejection_analytics,
    interview_metrics,
    rcex_metrics,
    timeline_metrics,
    claims_analysis,
    behavioral_patterns,
    estimated_cost,
    data_quality,
    headline: {
      allowance_rate: allowanceRate,
      allowance_within_3y_of_first_action: within3y,
      first_action_allowance_rate: firstActionAllowance,
      interview_rate: interviewRate,
      rce_rate: rceRate,
      final_rejection_rate: finalRate,
      actions_per_allowance: { value: actionsPerAllowance.value, n: actionsPerAllowance.n },
      months_to_first_action: {
        value: (timeline_metrics.months_to_first_action?.median_months ?? null) as number | null,
        n: timeline_metrics.months_to_first_action?.n ?? 0
      }
    }
  }
}

/** Allowance outcome by the number of merits actions in an application's history. */
export const bySequenceLength = (rows: ReadonlyArray<{ actions: number; applications: number; allowed: number; abandoned: number; pending: number }>) =>
  rows.map((r) => ({
    merits_actions: r.actions >= 6 ? "6+" : String(r.actions),
    applications: r.applications,
    allowed: r.allowed,
    abandoned: r.abandoned,
    pending: r.pending,
    allowance_rate: rate(r.allowed, r.allowed + r.abandoned, "disposed applications with this many merits actions")
  }))
