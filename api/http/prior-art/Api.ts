/** Prior-art search and claims lookup (SPEC 4.1): `{success, data}` envelope. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { BodyBool, BodyInt, DateBound, ListOf, Matching, OneOf, rule, Text } from "../../domain/rules.ts"
import { CpcSubclass } from "../../domain/ids.ts"
import { OpenStruct, Unspecified } from "../../domain/open-struct.ts"
import { PriorArt } from "../envelopes.ts"
import { Access, metered, NO_STORE, RouteFamily } from "../route-meta.ts"

const filled = (s: string | undefined) => s !== undefined && s.trim().length > 0

/** Claim text: 10-20000 characters; an empty string counts as not supplied. */
const ClaimText = rule(
  Schema.String.pipe(
    Schema.filter((s) => s.length <= 20000 && (s.trim().length === 0 || s.trim().length >= 10), { jsonSchema: { maxLength: 20000 } })
  ),
  "must be a string of 10-20000 characters"
)

export const PriorArtSearchRequest = Schema.Struct({
  claims: Schema.optional(ClaimText),
  abstract: Schema.optional(Text(0, 10000)),
  count: Schema.optionalWith(BodyInt(1, 100), { default: () => 50 }),
  useReranking: Schema.optionalWith(BodyBool, { default: () => false }),
  includeClaims: Schema.optionalWith(BodyBool, { default: () => false }),
  hyde: Schema.optionalWith(BodyBool, { default: () => false }),
  hybrid: Schema.optionalWith(BodyBool, { default: () => false }),
  forceReprocess: Schema.optionalWith(BodyBool, { default: () => false }),
  filedBefore: Schema.optional(DateBound),
  filedAfter: Schema.optional(DateBound),
  cpc3: Schema.optional(ListOf(CpcSubclass, 0, 200, "CPC subclasses")),
  country: Schema.optional(Matching(/^[A-Za-z]{2}$/, "must be a two-letter country code"))
}).pipe(
  Schema.filter((b) => filled(b.claims) || filled(b.abstract) || "claims or abstract: supply at least one of them, not empty"),
  Schema.annotations({ identifier: "PriorArtSearchRequest", description: "Supply claims or abstract (or both); an empty string counts as not supplied" })
)

export const PriorArtClaimsRequest = Schema.Struct({
  appNumbers: ListOf(Matching(/^\d{1,20}$/, "must be a string of digits"), 1, 25, "application numbers"),
  format: Schema.optionalWith(OneOf("parsed", "raw"), { default: () => "parsed" as const }),
  independentOnly: Schema.optionalWith(BodyBool, { default: () => false })
}).annotations({ identifier: "PriorArtClaimsRequest" })

const Specification = OpenStruct({
  application_number: Schema.String,
  title: Schema.optional(Schema.NullOr(Schema.String)),
  abstract: Schema.optional(Schema.NullOr(Schema.String)),
  claims: Schema.optional(Unspecified),
  title_source: Schema.optional(Schema.String),
  matched_legs: Schema.optional(Schema.Number)
})

export const PriorArtSearchResponse = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Struct({
    specifications: Schema.Array(Specification),
    metadata: OpenStruct({
      requested_count: Schema.Number,
      returned_count: Schema.Number,
      cached_count: Schema.Number,
      newly_processed_count: Schema.Number,
      cache_hit_rate: Schema.Number,
      processing_time_seconds: Schema.Number,
      ocr_cost: Schema.Number,
      model_cost: Schema.Number,
      total_cost: Schema.Number,
      request_id: Schema.String,
      timestamp: Schema.String,
      context_coverage: Unspecified,
      hyde: Schema.optional(Unspecified),
      filter: Schema.optional(Unspecified)
    })
  })
}).annotations({ identifier: "PriorArtSearchResponse" })

export const PriorArtClaimsResponse = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Struct({
    specifications: Schema.Array(Specification),
    metadata: OpenStruct({
      requested: Schema.Number,
      returned: Schema.Number,
      not_found: Schema.Array(Schema.String),
      lookup_ms: Schema.Number,
      request_id: Schema.String,
      claims_withheld: Schema.Number
    })
  })
}).annotations({ identifier: "PriorArtClaimsResponse" })

export class PriorArtApi extends HttpApiGroup.make("prior-art")
  .add(
    HttpApiEndpoint.post("search", "/prior-art")
      .setPayload(PriorArtSearchRequest)
      .addSuccess(PriorArtSearchResponse)
      .addError(PriorArt.invalid)
      .addError(PriorArt.failed)
      .annotate(OpenApi.Summary, "Search prior art for a claim or abstract")
      .annotate(Access, metered("search_prior_art", NO_STORE, "search_prior_art"))
  )
  .add(
    HttpApiEndpoint.post("claims", "/prior-art/claims")
      .setPayload(PriorArtClaimsRequest)
      .addSuccess(PriorArtClaimsResponse)
      .addError(PriorArt.invalid)
      .addError(PriorArt.failed)
      .annotate(OpenApi.Summary, "Fetch claim text for chosen applications")
      .annotate(Access, metered("get_patent_claims", NO_STORE, "get_patent_claims"))
  )
  .annotate(RouteFamily, "prior-art")
  .annotate(OpenApi.Description, "Prior-art search over the application corpus; `{success, data}` envelope")
  .prefix("/api/v1") {}
