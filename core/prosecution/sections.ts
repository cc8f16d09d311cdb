/**
 * The examiner-profile sections that are large or list applications: the pipeline stores them,
 * the API withholds them by default (SPEC 2.9) and brings each back with `include`.
 */
export const heavySections = [
  "behavioral_patterns",
  "rejection_analysis",
  "applications_with_interviews",
  "applications_with_rcex",
  "by_sequence_length",
  "document_code_breakdown"
] as const

export type HeavySection = (typeof heavySections)[number]

/** The examiner-profile sections served by default (SPEC 2.9), one stored JSON column each. */
export const profileSections = [
  "portfolio",
  "rejection_analytics",
  "interview_metrics",
  "rcex_metrics",
  "timeline_metrics",
  "strategic_insights",
  "data_quality",
  "claim_interpretation",
  "percentile_rankings",
  "claims_analysis"
] as const

/**
 * An examiner's art unit: the one stored with the statistics (taken from the name variant with
 * the most applications), else the art unit of another variant of the same examiner's name
 * ("NGUYEN, HOAI-AN D" / "NGUYEN, HOAI AN D"), as SQL over `examiners` aliased `x`.
 */
export const variantArtUnitSql = `arg_max(x.art_unit, x.application_count) FILTER (WHERE x.art_unit IS NOT NULL)`
