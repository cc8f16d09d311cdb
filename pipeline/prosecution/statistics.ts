/**
 * The statistics every prosecution figure is served with. Pure functions, no I/O.
 *
 * A rate is never a bare number: it carries its numerator, its denominator (and what the
 * denominator counts), a 95% Wilson score interval and the volume tier of the denominator, so
 * a reader can tell "80% of 5" from "80% of 500". The Wilson interval is used rather than the
 * normal approximation because examiner samples are small and rates sit near 0 or 1, where the
 * normal interval leaves [0, 1] and collapses to zero width at 0/n and n/n.
 */

/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054

export interface Interval {
  readonly low: number
  readonly high: number
}

/** Wilson score interval for k successes in n trials; null when n = 0. */
export const wilsonInterval = (k: number, n: number, z = Z95): Interval | null => {
  if (!(n > 0)) return null
  if (k < 0 || k > n) throw new RangeError(`wilsonInterval: k=${k} outside 0..${n}`)
  const p = k / n
  const z2 = z * z
  const denom = 1 + z2 / n
  const centre = (p + z2 / (2 * n)) / denom
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom
  return { low: round(Math.max(0, centre - half)), high: round(Math.min(1, centre + half)) }
}

/**
 * Volume tiers of a denominator. Thresholds: below 5 an interval spans most of [0, 1]; from 20
 * its half-width is at most ~0.2; from 100 at most ~0.1.
 */
export type VolumeTier = "none" | "insufficient" | "low" | "moderate" | "high"

export const volumeTier = (n: number): VolumeTier => (n <= 0 ? "none" : n < 5 ? "insufficient" : n < 20 ? "low" : n < 100 ? "moderate" : "high")

export interface Rate {
  /** numerator ÷ denominator, null when the denominator is 0. */
  readonly value: number | null
  readonly numerator: number
  readonly denominator: number
  /** What the denominator counts, e.g. "disposed applications (allowed + abandoned)". */
  readonly denominator_label: string
  readonly ci95: Interval | null
  readonly tier: VolumeTier
}

export const rate = (numerator: number, denominator: number, denominatorLabel: string): Rate => ({
  value: denominator > 0 ? round(numerator / denominator) : null,
  numerator,
  denominator,
  denominator_label: denominatorLabel,
  ci95: wilsonInterval(numerator, denominator),
  tier: volumeTier(denominator)
})

/** A mean (e.g. actions per allowance) with how many items it averages. */
export interface Mean {
  readonly value: number | null
  readonly n: number
  readonly n_label: string
  readonly tier: VolumeTier
}

export const mean = (sum: number, n: number, nLabel: string): Mean => ({
  value: n > 0 ? round(sum / n) : null,
  n,
  n_label: nLabel,
  tier: volumeTier(n)
})

/** A duration distribution in months (quantiles computed by the caller's query). */
export interface Duration {
  readonly median_months: number | null
  readonly mean_months: number | null
  readonly p25_months: number | null
  readonly p75_months: number | null
  readonly n: number
  readonly n_label: string
  readonly tier: VolumeTier
}

export const duration = (
  q: { median: number | null; mean: number | null; p25: number | null; p75: number | null },
  n: number,
  nLabel: string
): Duration => ({
  median_months: n > 0 ? roundOrNull(q.median, 1) : null,
  mean_months: n > 0 ? roundOrNull(q.mean, 1) : null,
  p25_months: n > 0 ? roundOrNull(q.p25, 1) : null,
  p75_months: n > 0 ? roundOrNull(q.p75, 1) : null,
  n,
  n_label: nLabel,
  tier: volumeTier(n)
})

/** Shannon entropy in bits of a count distribution (0 when one outcome takes everything). */
export const shannonEntropy = (counts: ReadonlyArray<number>): number => {
  const total = counts.reduce((a, b) => a + b, 0)
  if (total <= 0) return 0
  let h = 0
  for (const c of counts) if (c > 0) h -= (c / total) * Math.log2(c / total)
  return h === 0 ? 0 : h
}

/** Average days per month (365.25 / 12), the unit of every "months" figure. */
export const DAYS_PER_MONTH = 30.4375

export function round(x: number, digits = 4): number {
  const f = 10 ** digits
  return Math.round(x * f) / f
}

export const roundOrNull = (x: number | null | undefined, digits = 4) => (x === null || x === undefined || !Number.isFinite(x) ? null : round(x, digits))

/**
 * Mid-rank percentile of `v` among `sorted` (ascending): 100 × (values below v + half the
 * values equal to v) ÷ count. 50 is the middle of the ranked population whatever its size;
 * ties share a rank. Binary search, so ranking thousands of examiners stays cheap.
 */
export const percentileRank = (sorted: ReadonlyArray<number>, v: number): number | null => {
  if (sorted.length === 0) return null
  const bound = (strict: boolean) => {
    let lo = 0
    let hi = sorted.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (strict ? sorted[mid] < v : sorted[mid] <= v) lo = mid + 1
      else hi = mid
    }
    return lo
  }
  const below = bound(true)
  const equal = bound(false) - below
  return round((100 * (below + equal / 2)) / sorted.length, 1)
}
