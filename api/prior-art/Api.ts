/** Prior-art search and claims lookup (SPEC 4.1): `{success, data}` envelope. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { atLeastOneOf, BodyBool, BodyInt, DateBound, field, ListOf, Matching, OneOf, rule, Text } from "../domain/rules.ts"
import { CpcSubclass } from "../domain/ids.ts"
import { DeclaredStruct, Unspecified } from "../domain/open-struct.ts"
import { PriorArt } from "../http/envelopes.ts"
import { Admission } from "../http/security/Api.ts"
import { Access, metered, NO_STORE, RouteFamily } from "../http/route-meta.ts"

const filled = (s: string | undefined) => s !== undefined && s.trim().length > 0

/** Claim text: 10-20000 characters; an empty string counts as not supplied. */
const ClaimText = rule(
  Schema.String.pipe(
    Schema.filter((s) => s.length <= 20000 && (s.trim().length === 0 || s.trim().length >= 10), { jsonSchema: { maxLength: 20000 } })
  ),
  "must be a string of 10-20000 characters"
)

export const PriorArtSearchRequest = Schema.Struct({
  claims: Schema.optional(
    field(ClaimText, "Claim text to search prior art for; independent claim 1 works best. One of claims or abstract is required (an empty string counts as not supplied).")
  ),
  abstract: Schema.optional(
    field(
      Text(0, 10000),
      "Abstract text to search prior art for. One of claims or abstract is required; supplying both matches the indexed representation (abstract, a separator token, first claim)."
    )
  ),
  count: Schema.optionalWith(field(BodyInt(1, 100), "Number of references to return, ranked (default 50)."), { default: () => 50 }),
  useReranking: Schema.optionalWith(
    field(BodyBool, "Rerank the top candidates with the late-interaction reranker: slower, more precise; needs the reranker loaded (warm-up with rerank) (default false)."),
    { default: () => false }
  ),
  includeClaims: Schema.optionalWith(
    field(
      BodyBool,
      "Add the full claims and abstract to each result; otherwise fetch them with POST /prior-art/claims (tool get_patent_claims). While false a title comes from the vector index (title_source `namespace`) and may name an unrelated patent (default false)."
    ),
    { default: () => false }
  ),
  hyde: Schema.optionalWith(
    field(
      BodyBool,
      "Query rewriting: a model drafts a hypothetical abstract and first claim, and that text is searched instead of the query; adds about 2 s; the generated text is returned in metadata.hyde (default false)."
    ),
    { default: () => false }
  ),
  hybrid: Schema.optionalWith(
    field(
      BodyBool,
      "Hybrid retrieval: also rank titles and abstracts lexically and fuse that ranking with the dense and citation-graph retrievers; each result gains matched_legs, how many of the three found it (default false)."
    ),
    { default: () => false }
  ),
  forceReprocess: Schema.optionalWith(
    field(BodyBool, "Bypass and overwrite every cache layer; incurs real inference spend on every call (default false)."),
    { default: () => false }
  ),
  filedBefore: Schema.optional(
    field(
      DateBound,
      "Only references filed before this date (a reference filed on it is excluded). Some backends store only the filing year, so a mid-year bound may admit later filings of the same year."
    )
  ),
  filedAfter: Schema.optional(field(DateBound, "Only references filed after this date (a reference filed on it is excluded).")),
  cpc3: Schema.optional(
    field(
      ListOf(CpcSubclass, 0, 200, "CPC subclasses"),
      "Only references carrying one of these CPC subclasses (e.g. G06F, H04L). References without CPC data (about 35% of the index) are excluded, not ranked lower."
    )
  ),
  country: Schema.optional(field(Matching(/^[A-Za-z]{2}$/, "must be a two-letter country code"), "Only references from this country (e.g. US)."))
}).pipe(
  Schema.filter((b) => filled(b.claims) || filled(b.abstract) || "claims or abstract: supply at least one of them, not empty", {
    jsonSchema: atLeastOneOf("claims", "abstract")
  }),
  Schema.annotations({ identifier: "PriorArtSearchRequest", description: "Supply claims or abstract (or both); an empty string counts as not supplied" })
)

export const PriorArtClaimsRequest = Schema.Struct({
  appNumbers: field(
    ListOf(Matching(/^\d{1,20}$/, "must be a string of digits"), 1, 25, "application numbers"),
    "Applications whose claims to fetch: the application_number values a search returns. Applications with no row are listed in metadata.not_found."
  ),
  format: Schema.optionalWith(
    field(OneOf("parsed", "raw"), "`parsed` returns numbered claims; `raw` also adds the unparsed claim text as a section, roughly doubling the response (default parsed)."),
    { default: () => "parsed" as const }
  ),
  independentOnly: Schema.optionalWith(
    field(BodyBool, "Return only independent claims; how many were dropped is reported in metadata.claims_withheld (default false)."),
    { default: () => false }
  )
}).annotations({ identifier: "PriorArtClaimsRequest" })

const Title = Schema.NullOr(Schema.String)
const Rank = Schema.NullOr(Schema.Number)

/** A claim as the claims lookup (and a search with includeClaims) returns it. */
const ParsedClaim = Schema.Struct({
  number: Schema.Number,
  text: Schema.String,
  is_independent: Schema.Boolean,
  depends_on: Schema.Array(Schema.Number).annotations({ description: "Numbers of the claims this one depends on" })
}).annotations({ identifier: "ParsedClaim" })

/**
 * One ranked reference of a prior-art search (SPEC 2.3). Search answers are kept in the durable
 * result cache and served again by later versions of this service, so only the application
 * number is required: an answer cached before a field existed is still served as it was.
 */
const SearchResult = DeclaredStruct({
  application_number: Schema.String,
  title: Schema.optional(Title),
  title_source: Schema.optional(
    Schema.String.annotations({
      description: "`namespace` while includeClaims is false: the title came from the vector index and may name an unrelated patent"
    })
  ),
  abstract: Schema.optional(Title).annotations({ description: "With includeClaims" }),
  claims: Schema.optional(Schema.Array(ParsedClaim)).annotations({ description: "With includeClaims" }),
  description_text: Schema.optional(Schema.Null).annotations({ description: "Always null: results carry no specification body" }),
  rank: Schema.optional(Schema.Number),
  score: Schema.optional(Schema.Number).annotations({
    description:
      "The score the ranking is by, falling with rank: the fusion's score of the retrievers' evidence; with useReranking, the reciprocal-rank fusion of that order and the reranker's (1 / (60 + rank) each)"
  }),
  similarity: Schema.optional(Rank).annotations({ description: "Cosine similarity of the reference's vector to the query, where it has one (the citation graph's finds included)" }),
  ranks: Schema.optional(
    DeclaredStruct({ dense: Rank, citations: Rank, lexical: Rank, rerank: Schema.optional(Rank) }).annotations({
      description: "The reference's rank in each retriever (null where that retriever did not find it)"
    })
  ),
  rerank_score: Schema.optional(Rank).annotations({ description: "With useReranking" }),
  matched_legs: Schema.optional(Schema.Number).annotations({ description: "With hybrid: how many of the three retrievers found the result" }),
  filing_date: Schema.optional(Schema.NullOr(Schema.String)),
  country: Schema.optional(Schema.NullOr(Schema.String)),
  cpc_subclasses: Schema.optional(Schema.Array(Schema.String))
}).annotations({ identifier: "PriorArtReference" })

/** One application of a claims lookup (SPEC 2.4). */
const ClaimsEntry = DeclaredStruct({
  application_number: Schema.String,
  title: Title,
  title_source: Schema.String.annotations({ description: "`application`: the title is the application's own" }),
  abstract: Title,
  claims: Schema.Array(ParsedClaim),
  claim_count: Schema.Number.annotations({ description: "Claims on file, before independentOnly" }),
  independent_claim_count: Schema.Number,
  claims_raw: Schema.optional(Schema.String).annotations({ description: "With format raw: the unparsed claim text" })
}).annotations({ identifier: "ClaimsLookupEntry" })

export const PriorArtSearchResponse = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Struct({
    specifications: Schema.Array(SearchResult),
    metadata: DeclaredStruct({
      requested_count: Schema.Number,
      returned_count: Schema.Number,
      cached_count: Schema.Number,
      newly_processed_count: Schema.Number,
      cache_hit_rate: Schema.Number,
      processing_time_seconds: Schema.Number,
      ocr_cost: Schema.Number,
      model_cost: Schema.Number,
      total_cost: Schema.Number.annotations({ description: "What the call actually spent, in USD" }),
      request_id: Schema.String,
      timestamp: Schema.String,
      context_coverage: DeclaredStruct({
        title: Schema.Number,
        abstract: Schema.Number,
        claims: Schema.Number,
        description_text: Schema.Number
      }).annotations({ description: "How many results carried each part, so a thin answer can be told from a failed lookup" }),
      hyde: Schema.optional(
        DeclaredStruct({
          text: Schema.String,
          abstract: Schema.String,
          claim: Schema.String,
          generator: Schema.String.annotations({ description: "`extractive` or `llm:<model>`" }),
          sources: Schema.optional(Schema.Array(Schema.String)),
          note: Schema.optional(Schema.String)
        })
      ).annotations({ description: "With hyde: the generated text that was searched instead of the query, and what produced it" }),
      filter: Schema.optional(Unspecified).annotations({ description: "Which date and other filters were actually applied" }),
      retrieval: Schema.optional(Unspecified).annotations({
        description: "Retriever counts, fusion, query feedback, reranking depth and the artifact version searched"
      }),
      cache: Schema.optional(Unspecified).annotations({ description: "Cache outcome per layer (hit, miss or bypass)" })
    })
  })
}).annotations({ identifier: "PriorArtSearchResponse" })

export const PriorArtClaimsResponse = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Struct({
    specifications: Schema.Array(ClaimsEntry),
    metadata: DeclaredStruct({
      requested: Schema.Number,
      returned: Schema.Number,
      not_found: Schema.Array(Schema.String),
      lookup_ms: Schema.Number,
      request_id: Schema.String,
      claims_withheld: Schema.Number,
      format: Schema.Literal("parsed", "raw"),
      independent_only: Schema.Boolean
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
  .middleware(Admission)
  .prefix("/api/v1") {}
