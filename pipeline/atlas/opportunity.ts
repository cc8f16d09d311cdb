/**
 * The opportunity score of a void, 0 to 1:
 *
 *   opportunity = 0.35·E + 0.25·B + 0.20·G + 0.20·R
 *
 *   E  emptiness        1 − e^(−λ/10), λ = documents the void's ball would hold at the density of
 *                       its bordering art (voids.ts): how much art is missing, not just how wide.
 *   B  bordering density  density in the shell just outside the void / (2 × mean documents per
 *                       art cell), capped at 1: a gap inside busy art is worth more than one in
 *                       a sparse corner.
 *   G  growth           share of the bordering art filed in the corpus's last 5 filing years,
 *                       divided by twice the corpus-wide share for those years, capped at 1
 *                       (1 when the neighbourhood grows at least twice as fast as the corpus).
 *   R  recency          (median filing year of the bordering art − (latest corpus year − 20)) / 20,
 *                       clamped to 0–1.
 *
 * Weights favour the geometry (E, B) because the temporal signals are noisy on small neighbourhoods.
 */

export const RECENT_YEARS = 5
export const RECENCY_SPAN = 20

export interface OpportunityInputs {
  readonly expected: number
  readonly borderDensity: number
  readonly typicalDensity: number
  readonly recentShare: number
  readonly corpusRecentShare: number
  readonly medianFilingYear: number | null
  readonly latestYear: number
}

const clamp01 = (v: number) => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0)

export const opportunityComponents = (i: OpportunityInputs) => ({
  emptiness: clamp01(1 - Math.exp(-i.expected / 10)),
  borderDensity: clamp01(i.borderDensity / Math.max(1e-9, 2 * i.typicalDensity)),
  growth: clamp01(i.recentShare / Math.max(1e-9, 2 * i.corpusRecentShare)),
  recency: i.medianFilingYear === null ? 0 : clamp01((i.medianFilingYear - (i.latestYear - RECENCY_SPAN)) / RECENCY_SPAN)
})

export const opportunityScore = (c: ReturnType<typeof opportunityComponents>) =>
  Math.round((0.35 * c.emptiness + 0.25 * c.borderDensity + 0.2 * c.growth + 0.2 * c.recency) * 10_000) / 10_000
