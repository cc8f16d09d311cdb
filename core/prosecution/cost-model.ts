/**
 * The estimated prosecution cost model: what it costs, after filing, to take an application
 * through examination, priced from the events PEDS recorded on completed (allowed or abandoned)
 * applications. Shared by the pipeline (which stores the estimate) and the API (which may show
 * the assumptions).
 *
 *   cost of one application = Σ over events e of count(e) × unit_cost(e)
 *   mean_per_disposed_application = Σ cost over disposed applications ÷ disposed applications
 *   per_allowed_application = Σ cost over disposed applications ÷ allowed applications
 *     (what one patent costs in this art unit / before this examiner, abandoned attempts included)
 *
 * Events priced: replies to non-final and final rejections (PEDS A... / A.NE), RCEs (fee + the
 * reply filed with it), interviews, notices of appeal, appeal briefs (forwarding fee + brief),
 * and the issue fee of allowed applications. Filing, search and examination fees are the same
 * for every application and are left out, so estimates compare examiners, not total budgets.
 *
 * Unit costs are ASSUMPTIONS of the model (USD, large entity): USPTO fees approximately as in
 * the fee schedule in force from January 2025, attorney fees as round figures of the order of
 * published practitioner surveys. They are parameters, not quotes; callers may pass their own.
 */

export interface CostAssumptions {
  readonly currency: "USD"
  readonly entity: "large"
  readonly attorneyReplyNonFinal: number
  readonly attorneyReplyFinal: number
  readonly rceFeeFirst: number
  readonly rceFeeSubsequent: number
  readonly attorneyInterview: number
  readonly noticeOfAppealFee: number
  readonly appealForwardingFee: number
  readonly attorneyAppealBrief: number
  readonly issueFee: number
}

export const defaultCostAssumptions: CostAssumptions = {
  currency: "USD",
  entity: "large",
  attorneyReplyNonFinal: 3000,
  attorneyReplyFinal: 3500,
  rceFeeFirst: 1500,
  rceFeeSubsequent: 2860,
  attorneyInterview: 750,
  noticeOfAppealFee: 905,
  appealForwardingFee: 2535,
  attorneyAppealBrief: 6000,
  issueFee: 1290
}

/** Event totals over the disposed applications of an examiner or art unit. */
export interface CostInputs {
  readonly disposed: number
  readonly allowed: number
  readonly repliesNonFinal: number
  readonly repliesFinal: number
  /** RCEs that were an application's first RCE, and the later ones (priced differently). */
  readonly firstRces: number
  readonly laterRces: number
  readonly interviews: number
  readonly noticesOfAppeal: number
  readonly appealBriefs: number
}

export interface CostEstimate {
  readonly model: "event-priced prosecution cost v1"
  readonly currency: "USD"
  readonly mean_per_disposed_application: number | null
  readonly per_allowed_application: number | null
  readonly basis: { readonly disposed_applications: number; readonly allowed_applications: number }
  /** Total USD per priced event kind over the disposed applications. */
  readonly breakdown: Readonly<Record<string, number>>
  readonly assumptions: CostAssumptions
  readonly note: string
}

export const estimateProsecutionCost = (x: CostInputs, a: CostAssumptions = defaultCostAssumptions): CostEstimate => {
  const breakdown = {
    replies_non_final: x.repliesNonFinal * a.attorneyReplyNonFinal,
    replies_final: x.repliesFinal * a.attorneyReplyFinal,
    rce_fees: x.firstRces * a.rceFeeFirst + x.laterRces * a.rceFeeSubsequent,
    interviews: x.interviews * a.attorneyInterview,
    appeals: x.noticesOfAppeal * a.noticeOfAppealFee + x.appealBriefs * (a.appealForwardingFee + a.attorneyAppealBrief),
    issue_fees: x.allowed * a.issueFee
  }
  const total = Object.values(breakdown).reduce((s, v) => s + v, 0)
  return {
    model: "event-priced prosecution cost v1",
    currency: "USD",
    mean_per_disposed_application: x.disposed > 0 ? Math.round(total / x.disposed) : null,
    per_allowed_application: x.allowed > 0 ? Math.round(total / x.allowed) : null,
    basis: { disposed_applications: x.disposed, allowed_applications: x.allowed },
    breakdown,
    assumptions: a,
    note: "Estimate from a documented model (core/prosecution/cost-model.ts): PEDS event counts on completed applications priced with assumed unit costs; filing, search and examination fees excluded. Not a quote."
  }
}
