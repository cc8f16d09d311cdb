/**
 * Strategic insights and percentile rankings: DERIVED from the statistics, stated as such.
 * An insight is only phrased as a difference when the two 95% intervals do not overlap;
 * otherwise it says the sample cannot tell the groups apart.
 */
import type { Sections } from "./sections.ts"
import { percentileRank, type Rate } from "./statistics.ts"

const pct = (x: number | null) => (x === null ? "n/a" : `${Math.round(x * 100)}%`)
const ci = (r: Rate) => (r.ci95 ? `95% CI ${pct(r.ci95.low)}–${pct(r.ci95.high)}` : "no interval")
const apart = (x: Rate, y: Rate) => !!(x.ci95 && y.ci95 && (x.ci95.low > y.ci95.high || y.ci95.low > x.ci95.high))

export const strategicInsights = (s: Sections, reference?: { label: string; allowance_rate: Rate }) => {
  const insights: string[] = []
  const allowance = s.headline.allowance_rate as Rate
  if (allowance.denominator > 0) {
    let line = `Allowance rate ${pct(allowance.value)} of ${allowance.denominator} disposed applications (${ci(allowance)}, volume ${allowance.tier}).`
    if (reference && reference.allowance_rate.denominator > 0) {
      const ref = reference.allowance_rate
      line += apart(allowance, ref)
        ? ` That is ${allowance.value! > ref.value! ? "above" : "below"} ${reference.label} (${pct(ref.value)} of ${ref.denominator}).`
        : ` Not distinguishable from ${reference.label} (${pct(ref.value)} of ${ref.denominator}) at this sample size.`
    }
    insights.push(line)
  }
  const im = s.interview_metrics as { allowance_rate_with_interview: Rate; allowance_rate_without_interview: Rate }
  const w = im.allowance_rate_with_interview
  const wo = im.allowance_rate_without_interview
  if (w.denominator > 0 && wo.denominator > 0)
    insights.push(
      apart(w, wo)
        ? `Disposed applications with an interview were allowed ${w.value! > wo.value! ? "more" : "less"} often (${pct(w.value)} of ${w.denominator}) than those without (${pct(wo.value)} of ${wo.denominator}); an association, not a measured effect.`
        : `Allowance with an interview (${pct(w.value)} of ${w.denominator}) and without (${pct(wo.value)} of ${wo.denominator}) cannot be told apart at this sample size.`
    )
  const rce = s.headline.rce_rate as Rate
  if (rce.denominator >= 5) insights.push(`${pct(rce.value)} of examined applications needed at least one RCE (${rce.numerator} of ${rce.denominator}, ${ci(rce)}).`)
  const faa = s.headline.first_action_allowance_rate as Rate
  if (faa.denominator >= 5 && faa.numerator > 0) insights.push(`${pct(faa.value)} of examined applications were allowed on the first action (${faa.numerator} of ${faa.denominator}).`)
  const mfa = s.headline.months_to_first_action as { value: number | null; n: number }
  if (mfa.value !== null) insights.push(`Median ${mfa.value} months from filing to the first action (${mfa.n} applications).`)
  return {
    derived: true,
    statement: "Derived automatically from the statistics in this profile; not an official USPTO assessment and not legal advice.",
    insights
  }
}

/** Metrics ranked among examiners; `higherIsMore` only documents the direction of the percentile. */
export const rankedMetrics = [
  "allowance_rate",
  "allowance_within_3y_of_first_action",
  "first_action_allowance_rate",
  "interview_rate",
  "rce_rate",
  "final_rejection_rate",
  "actions_per_allowance",
  "months_to_first_action"
] as const

/** An examiner's figure is ranked only when its own denominator reaches this. */
export const MIN_RANKED_DENOMINATOR = 10

const figure = (s: Sections, m: (typeof rankedMetrics)[number]) => {
  const h = s.headline[m] as { value: number | null; denominator?: number; n?: number }
  return { value: h.value, n: h.denominator ?? h.n ?? 0 }
}

/** Percentile rankings of every examiner among examiners with enough volume for each metric; null when none ranks. */
export const percentileRankings = (all: ReadonlyArray<Sections>) => {
  const populations = new Map<string, number[]>()
  for (const m of rankedMetrics) {
    populations.set(
      m,
      all.map((s) => figure(s, m)).filter((f) => f.value !== null && f.n >= MIN_RANKED_DENOMINATOR).map((f) => f.value as number).sort((x, y) => x - y)
    )
  }
  return (s: Sections) => {
    const out: Record<string, unknown> = {}
    let any = false
    for (const m of rankedMetrics) {
      const f = figure(s, m)
      const pop = populations.get(m)!
      if (f.value === null || f.n < MIN_RANKED_DENOMINATOR) {
        out[m] = null
        continue
      }
      any = true
      out[m] = { value: f.value, percentile: percentileRank(pop, f.value), ranked_examiners: pop.length }
    }
    return any
      ? {
          ...out,
          definition: `Mid-rank percentile of the examiner's figure among examiners whose denominator for that figure is at least ${MIN_RANKED_DENOMINATOR}; 90 means higher than about 90% of them (for months, higher is slower).`
        }
      : null
  }
}
