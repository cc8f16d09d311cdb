/** Prosecution intelligence (SPEC 4.5): all metered, cached for a day; errors `{error, code, timestamp}`. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ArtUnit, CpcSymbol } from "../domain/ids.ts"
import { DeclaredStruct, OpenStruct, Unspecified } from "../domain/open-struct.ts"
import { field, Matching, QueryInt, Text } from "../domain/rules.ts"
import { Coded } from "../http/envelopes.ts"
import { Admission } from "../http/security/Api.ts"
import { Access, CACHE_DAY, metered, RouteFamily } from "../http/route-meta.ts"

export const CpcLookup = DeclaredStruct({
  code: Schema.String,
  scheme: Schema.NullOr(DeclaredStruct({ code: Schema.String, title: Schema.String, level: Schema.Number, parent: Schema.NullOr(Schema.String) })).annotations({
    description: "Null for a symbol with routing data but no scheme entry"
  }),
  art_units: Schema.NullOr(
    DeclaredStruct({
      level: Schema.Unknown.annotations({ description: "The CPC level the routing was counted at" }),
      total_count: Schema.Number,
      unique_art_units: Schema.Number.annotations({ description: "True total, whatever distributionLimit" }),
      top_art_unit: Schema.NullOr(Schema.String),
      top_art_unit_probability: Schema.Number,
      entropy: Schema.Number.annotations({ description: "Low entropy means the symbol predicts the art unit" }),
      distribution: Schema.Array(Schema.Struct({ au: Schema.String, count: Schema.Number, probability: Schema.Number })).annotations({
        description: "Art units by count, at most distributionLimit of them"
      }),
      distribution_truncated: Schema.Boolean.annotations({ description: "True when distributionLimit cut the distribution" })
    })
  ).annotations({ description: "Null for a symbol nothing was routed under" }),
  children: Schema.Array(DeclaredStruct({ code: Schema.String, title: Schema.NullOr(Schema.String), level: Schema.Unknown })),
  child_count: Schema.Number.annotations({ description: "True total, whatever childLimit" })
}).annotations({ identifier: "CpcLookup" })

/** The spec lists these fields and says more may follow. */
export const Classification = OpenStruct({
  publication_number: Schema.NullOr(Schema.String),
  application_number: Schema.NullOr(Schema.String),
  kind_code: Schema.NullOr(Schema.String),
  main_cpc: Schema.NullOr(Schema.String),
  main_cpc_title: Schema.NullOr(Schema.String),
  inventive_cpcs: Schema.Array(Unspecified).annotations({ description: "Symbols covering what is claimed" }),
  additional_cpcs: Schema.Array(Unspecified).annotations({ description: "Symbols covering disclosed but unclaimed matter" }),
  matched_as: Schema.optional(Schema.Literal("publication_number", "application_number")).annotations({
    description: "Which kind of number the path value was found as (tried as a publication number first)"
  }),
  title: Schema.optional(Schema.NullOr(Schema.String)),
  cpc_titles: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.NullOr(Schema.String) })).annotations({
    description: "Scheme title of each symbol above (null where the scheme has none)"
  })
}).annotations({ identifier: "Classification" })

const StatisticsSection = (description: string) => Schema.optional(Unspecified).annotations({ description })

export const ArtUnitProfile = DeclaredStruct({
  art_unit: Schema.String,
  technology_center: Schema.NullOr(Schema.String),
  title: Schema.NullOr(Schema.String),
  title_source: Schema.NullOr(Schema.String),
  generated_context: DeclaredStruct({ title: Schema.String, description: Schema.String, keywords: Schema.String }).annotations({
    description: "How title, description and keywords were generated (no official art-unit title list is available)"
  }),
  description: DeclaredStruct({ opening: Schema.String, length: Schema.Number, truncated: Schema.Boolean }).annotations({
    description: "The generated description's opening (whole sentences) and its full length"
  }),
  keywords: Schema.Array(Schema.String),
  cpc_codes: DeclaredStruct({
    total: Schema.Number,
    applications_with_cpc: Schema.Number,
    by_section: Unspecified.annotations({ description: "Counts by CPC section letter" }),
    top_subclasses: Schema.Array(Unspecified).annotations({ description: "The 25 commonest subclasses with their counts" })
  }),
  examiners: Schema.Array(Unspecified).annotations({
    description: "The roster: examiner_id, full_name and counts (applications, analysed, primary_art_unit); application numbers omitted"
  }),
  examiner_count: Schema.Number.annotations({ description: "Length of the served roster" }),
  examiner_count_in_statistics: Schema.optional(Schema.Number).annotations({
    description: "Present when the stored statistics counted a different roster"
  }),
  statistics: Schema.NullOr(
    DeclaredStruct({
      allowance: StatisticsSection("Allowance behaviour: counts, allowance rate with its interval, actions and rejections per allowance"),
      rejections: StatisticsSection("Rejection behaviour: non-final and final rejections, statutory bases, appeals"),
      timing: StatisticsSection("Months to first action, to allowance, to abandonment"),
      interviews: StatisticsSection("Interview receptiveness: interview rate, allowance with and without an interview"),
      rce: StatisticsSection("RCE tolerance: RCE rate, allowance with and without an RCE"),
      behavior: StatisticsSection("Rates of first-action allowance, restriction, Quayle actions, examiner amendments, advisory actions, appeals"),
      estimated_cost: StatisticsSection("Estimated prosecution cost per disposed and per allowed application, with its basis and assumptions"),
      claims_analysis: StatisticsSection(
        "Claim counts; independentClaimsStats.avgIndependentClaims is null with a note where the stored value was unreliable"
      ),
      data_quality: StatisticsSection("Applications and office actions analysed, volume, recency and completeness scores, withheld fields")
    })
  ).annotations({ description: "Null when no statistics were computed" })
}).annotations({ identifier: "ArtUnitProfile" })

export const ExaminerSummary = Schema.Struct({
  examiner_id: Schema.String,
  full_name: Schema.String,
  art_unit: Schema.NullOr(Schema.String),
  technology_center: Schema.NullOr(Schema.String)
})

export const ExaminerSearchResult = Schema.Struct({ count: Schema.Number, examiners: Schema.Array(ExaminerSummary) })

// Always present in an answer; optional here only because the service assembles them from stored JSON columns.
const ProfileSection = (description: string) => Schema.optional(Unspecified).annotations({ description })
const WithheldSection = (description: string) =>
  Schema.optional(Unspecified).annotations({
    description: `${description}. Withheld unless named in include: then {withheld: true, count, include} (the name that brings it back)`
  })

export const ExaminerProfile = DeclaredStruct({
  examiner_id: Schema.String,
  full_name: Schema.String,
  art_unit: Schema.NullOr(Schema.String),
  technology_center: Schema.NullOr(Schema.String),
  portfolio: ProfileSection("Applications, dispositions, allowance rate, art units and estimated prosecution cost"),
  rejection_analytics: ProfileSection("Non-final and final rejections, rates, statutory bases and appeals"),
  interview_metrics: ProfileSection("Interview rate and allowance with and without an interview"),
  rcex_metrics: ProfileSection("RCE rate and allowance with and without an RCE"),
  timeline_metrics: ProfileSection("Months to first action, to allowance, to abandonment"),
  strategic_insights: ProfileSection("Statements derived from the statistics"),
  data_quality: ProfileSection(
    "populations (all applications, analysed, with documents, with office actions, with filing date), volume.tier, withheld[] (fields removed because values were wrong) and notes[]"
  ),
  claim_interpretation: ProfileSection("Exists for a small number of examiners; null otherwise"),
  percentile_rankings: ProfileSection("Null where never computed"),
  claims_analysis: ProfileSection("Null where never computed"),
  behavioral_patterns: WithheldSection("Behavioural patterns"),
  rejection_analysis: WithheldSection("Per-application rejection history (large)"),
  applications_with_interviews: WithheldSection("Applications with interviews"),
  applications_with_rcex: WithheldSection("Applications with RCEs"),
  by_sequence_length: WithheldSection("Outcomes by office-action sequence length"),
  document_code_breakdown: WithheldSection("Counts by document code; when withheld its ten largest codes are kept as top_codes"),
  sections_available: Schema.Array(Schema.String).annotations({ description: "The six sections withheld by default" }),
  sections_included: Schema.Array(Schema.String).annotations({ description: "The withheld sections this answer includes" })
}).annotations({ identifier: "ExaminerProfile" })

export class PatentIntelApi extends HttpApiGroup.make("patent-intel")
  .add(
    HttpApiEndpoint.get("cpc", "/patent-intel/cpc/:code")
      .setPath(Schema.Struct({ code: field(CpcSymbol, "CPC symbol to look up at any level: section G, class G06, subclass G06F, group G06F16/00.") }))
      .setUrlParams(
        Schema.Struct({
          childLimit: Schema.optionalWith(field(QueryInt(0, 500), "How many child symbols to list; child_count is the true total (default 50)."), {
            default: () => 50
          }),
          distributionLimit: Schema.optionalWith(
            field(QueryInt(0, 500), "How many art units of the routing distribution to list; unique_art_units is the true total (default 20)."),
            { default: () => 20 }
          )
        })
      )
      .addSuccess(CpcLookup)
      .addError(Coded.notFound)
      .annotate(OpenApi.Summary, "CPC scheme lookup with empirical art-unit routing")
      .annotate(Access, metered("lookup_cpc_code", CACHE_DAY, "lookup_cpc_code"))
  )
  .add(
    HttpApiEndpoint.get("classification", "/patent-intel/classification/:number")
      .setPath(
        Schema.Struct({
          number: field(
            Matching(/^\d{7,12}$/, "must be 7-12 digits"),
            "Publication or application number (digits only): tried as a publication number first, then as an application number."
          )
        })
      )
      .addSuccess(Classification)
      .addError(Coded.notFound)
      .annotate(OpenApi.Summary, "CPC classification of a publication or application number")
      .annotate(Access, metered("get_patent_classification", CACHE_DAY, "get_patent_classification"))
  )
  .add(
    HttpApiEndpoint.get("artUnit", "/patent-intel/art-unit/:artUnit")
      .setPath(Schema.Struct({ artUnit: field(ArtUnit, "USPTO art unit to profile, e.g. 2863.") }))
      .addSuccess(ArtUnitProfile)
      .addError(Coded.notFound)
      .annotate(OpenApi.Summary, "Art-unit profile")
      .annotate(Access, metered("get_art_unit_profile", CACHE_DAY, "get_art_unit_profile"))
  )
  .add(
    HttpApiEndpoint.get("examiners", "/patent-intel/examiners")
      .setUrlParams(
        Schema.Struct({
          name: Schema.optional(
            field(
              Text(2, 80),
              "Examiner surname, or the start of the surname-first full name (e.g. smith, or smith john); anchored matching only. With neither name nor artUnit the result is empty."
            )
          ),
          artUnit: Schema.optional(field(ArtUnit, "Only examiners of this art unit.")),
          limit: Schema.optionalWith(field(QueryInt(1, 100), "How many examiners to return at most (default 20)."), { default: () => 20 })
        })
      )
      .addSuccess(ExaminerSearchResult)
      .annotate(OpenApi.Summary, "Examiner search by surname prefix or art unit")
      .annotate(Access, metered("find_examiner", CACHE_DAY, "find_examiner"))
  )
  .add(
    HttpApiEndpoint.get("examiner", "/patent-intel/examiner/:examiner")
      .setPath(Schema.Struct({ examiner: field(Text(2, 120), "Examiner id (as examiner search returns it) or surname-first full name.") }))
      .setUrlParams(
        Schema.Struct({
          include: Schema.optional(
            field(
              Text(0, 1000),
              "Comma-separated names of withheld sections to add: behavioral_patterns, rejection_analysis (large), applications_with_interviews, applications_with_rcex, by_sequence_length, document_code_breakdown. Unknown names are ignored."
            )
          )
        })
      )
      .addSuccess(ExaminerProfile)
      .addError(Coded.notFound)
      .annotate(OpenApi.Summary, "Examiner profile and statistics")
      .annotate(Access, metered("get_examiner_profile", CACHE_DAY, "get_examiner_profile"))
  )
  .addError(Coded.validation)
  .addError(Coded.corpus)
  .annotate(RouteFamily, "coded")
  .annotate(OpenApi.Description, "Prosecution intelligence: CPC routing, classification, art units, examiners")
  .middleware(Admission)
  .prefix("/api/v1") {}
