/** Prosecution intelligence (SPEC 4.5): all metered, cached for a day; errors `{error, code, timestamp}`. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ArtUnit, CpcSymbol } from "../../domain/ids.ts"
import { OpenStruct, Unspecified } from "../../domain/open-struct.ts"
import { Matching, QueryInt, Text } from "../../domain/rules.ts"
import { Coded } from "../envelopes.ts"
import { Access, CACHE_DAY, metered, RouteFamily } from "../route-meta.ts"

export const CpcLookup = OpenStruct({
  code: Schema.String,
  scheme: Schema.NullOr(OpenStruct({ code: Schema.String, title: Schema.String, level: Schema.Number, parent: Schema.NullOr(Schema.String) })),
  art_units: Schema.NullOr(
    OpenStruct({
      level: Schema.Unknown,
      total_count: Schema.Number,
      unique_art_units: Schema.Number,
      top_art_unit: Schema.NullOr(Schema.String),
      top_art_unit_probability: Schema.Number,
      entropy: Schema.Number,
      distribution: Schema.Array(Schema.Struct({ au: Schema.String, count: Schema.Number, probability: Schema.Number }))
    })
  ),
  children: Schema.Array(OpenStruct({ code: Schema.String, title: Schema.NullOr(Schema.String), level: Schema.Unknown })),
  child_count: Schema.Number
}).annotations({ identifier: "CpcLookup" })

export const Classification = OpenStruct({
  publication_number: Schema.NullOr(Schema.String),
  application_number: Schema.NullOr(Schema.String),
  kind_code: Schema.NullOr(Schema.String),
  main_cpc: Schema.NullOr(Schema.String),
  main_cpc_title: Schema.NullOr(Schema.String),
  inventive_cpcs: Schema.Array(Unspecified),
  additional_cpcs: Schema.Array(Unspecified)
}).annotations({ identifier: "Classification" })

export const ArtUnitProfile = OpenStruct({
  art_unit: Schema.String,
  technology_center: Schema.NullOr(Schema.String),
  title: Schema.NullOr(Schema.String),
  examiners: Schema.Array(Unspecified),
  examiner_count: Schema.Number,
  statistics: Schema.NullOr(Unspecified)
}).annotations({ identifier: "ArtUnitProfile" })

export const ExaminerSummary = Schema.Struct({
  examiner_id: Schema.String,
  full_name: Schema.String,
  art_unit: Schema.NullOr(Schema.String),
  technology_center: Schema.NullOr(Schema.String)
})

export const ExaminerSearchResult = Schema.Struct({ count: Schema.Number, examiners: Schema.Array(ExaminerSummary) })

export const ExaminerProfile = OpenStruct({
  examiner_id: Schema.String,
  full_name: Schema.String,
  sections_available: Schema.Array(Schema.String),
  sections_included: Schema.Array(Schema.String)
}).annotations({ identifier: "ExaminerProfile" })

export class PatentIntelApi extends HttpApiGroup.make("patent-intel")
  .add(
    HttpApiEndpoint.get("cpc", "/patent-intel/cpc/:code")
      .setPath(Schema.Struct({ code: CpcSymbol }))
      .setUrlParams(
        Schema.Struct({
          childLimit: Schema.optionalWith(QueryInt(0, 500), { default: () => 50 }),
          distributionLimit: Schema.optionalWith(QueryInt(0, 500), { default: () => 20 })
        })
      )
      .addSuccess(CpcLookup)
      .addError(Coded.notFound)
      .annotate(OpenApi.Summary, "CPC scheme lookup with empirical art-unit routing")
      .annotate(Access, metered("lookup_cpc_code", CACHE_DAY, "lookup_cpc_code"))
  )
  .add(
    HttpApiEndpoint.get("classification", "/patent-intel/classification/:number")
      .setPath(Schema.Struct({ number: Matching(/^\d{7,12}$/, "must be 7-12 digits") }))
      .addSuccess(Classification)
      .addError(Coded.notFound)
      .annotate(OpenApi.Summary, "CPC classification of a publication or application number")
      .annotate(Access, metered("get_patent_classification", CACHE_DAY, "get_patent_classification"))
  )
  .add(
    HttpApiEndpoint.get("artUnit", "/patent-intel/art-unit/:artUnit")
      .setPath(Schema.Struct({ artUnit: ArtUnit }))
      .addSuccess(ArtUnitProfile)
      .addError(Coded.notFound)
      .annotate(OpenApi.Summary, "Art-unit profile")
      .annotate(Access, metered("get_art_unit_profile", CACHE_DAY, "get_art_unit_profile"))
  )
  .add(
    HttpApiEndpoint.get("examiners", "/patent-intel/examiners")
      .setUrlParams(
        Schema.Struct({
          name: Schema.optional(Text(2, 80)),
          artUnit: Schema.optional(ArtUnit),
          limit: Schema.optionalWith(QueryInt(1, 100), { default: () => 20 })
        })
      )
      .addSuccess(ExaminerSearchResult)
      .annotate(OpenApi.Summary, "Examiner search by surname prefix or art unit")
      .annotate(Access, metered("find_examiner", CACHE_DAY, "find_examiner"))
  )
  .add(
    HttpApiEndpoint.get("examiner", "/patent-intel/examiner/:examiner")
      .setPath(Schema.Struct({ examiner: Text(2, 120) }))
      .setUrlParams(Schema.Struct({ include: Schema.optional(Text(0, 1000)) }))
      .addSuccess(ExaminerProfile)
      .addError(Coded.notFound)
      .annotate(OpenApi.Summary, "Examiner profile and statistics")
      .annotate(Access, metered("get_examiner_profile", CACHE_DAY, "get_examiner_profile"))
  )
  .addError(Coded.validation)
  .addError(Coded.corpus)
  .annotate(RouteFamily, "coded")
  .annotate(OpenApi.Description, "Prosecution intelligence: CPC routing, classification, art units, examiners")
  .prefix("/api/v1") {}
