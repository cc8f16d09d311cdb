/**
 * Permission names are the MCP tool names (CONTRACT.md), plus `get_patent_points` for the points
 * route, which has no tool. A key without an explicit list holds all of them.
 */
export const PERMISSIONS = [
  "search_prior_art",
  "get_patent_claims",
  "get_patent_neighborhood",
  "get_patent_citations",
  "locate_in_patent_space",
  "find_whitespace",
  "get_patent_points",
  "check_antecedent_basis",
  "map_claim_support",
  "warm_up",
  "lookup_cpc_code",
  "get_patent_classification",
  "get_art_unit_profile",
  "find_examiner",
  "get_examiner_profile",
  "get_mpep_section",
  "get_epo_guideline",
  "get_form_paragraph",
  "find_form_paragraphs",
  "get_guidance_graph",
  "get_design_code"
] as const

export type Permission = (typeof PERMISSIONS)[number]

export const isPermission = (s: string): s is Permission => (PERMISSIONS as ReadonlyArray<string>).includes(s)
