/** Patent space (SPEC 4.2): payloads returned directly; errors `{error, code, timestamp}`. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ApplicationNumber } from "../domain/ids.ts"
import { DeclaredStruct } from "../domain/open-struct.ts"
import { atLeastOneOf, BodyInt, CpcSection, field, Matching, QueryInt, QueryNumber, Text } from "../domain/rules.ts"
import { WhitespaceVoid } from "./atlas.ts"
import { Coded } from "../http/envelopes.ts"
import { Admission } from "../http/security/Api.ts"
import { Access, CACHE_DAY, CACHE_HALF_HOUR, free, metered, NO_STORE, RouteFamily } from "../http/route-meta.ts"

const AppNum = ApplicationNumber(7, 12)

export const Point = DeclaredStruct({
  appNum: Schema.String,
  x: Schema.Number,
  y: Schema.Number,
  z: Schema.Number,
  section: Schema.optional(Schema.NullOr(Schema.String)),
  artUnit: Schema.optional(Schema.NullOr(Schema.String)),
  filingDate: Schema.optional(Schema.NullOr(Schema.String)),
  score: Schema.optional(Schema.Number),
  examiner: Schema.optional(Schema.Boolean),
  title: Schema.optional(Schema.NullOr(Schema.String))
}).annotations({ identifier: "Point" })

const Landing = Schema.Struct({ x: Schema.Number, y: Schema.Number, z: Schema.Number })

export const NeighborhoodResponse = Schema.Struct({
  appNum: Schema.String,
  self: Schema.NullOr(Point),
  neighbors: Schema.Array(Point),
  count: Schema.Number,
  timestamp: Schema.String
})

export const CitationsResponse = Schema.Struct({
  appNum: Schema.String,
  points: Schema.Array(Point),
  count: Schema.Number,
  citedTotal: Schema.Number,
  notIndexed: Schema.Number,
  timestamp: Schema.String
})

export const LocateRequest = Schema.Struct({
  query: Schema.optional(
    field(Text(8, 4000), "Free text (a claim, an abstract, a description of an idea) to place in the patent space. One of query or appNum is required; query wins when both are given.")
  ),
  appNum: Schema.optional(
    field(
      AppNum,
      "Application to place, by its stored vector or else its own abstract and first claim; it is excluded from neighbors. One of query or appNum is required."
    )
  ),
  topK: Schema.optionalWith(field(BodyInt(1, 100), "How many nearest neighbours to return, by cosine similarity (default 20)."), { default: () => 20 })
}).pipe(
  Schema.filter((b) => b.query !== undefined || b.appNum !== undefined || "query or appNum: supply at least one of them", {
    jsonSchema: atLeastOneOf("query", "appNum")
  }),
  Schema.annotations({ identifier: "LocateRequest", description: "Supply query or appNum; query wins when both are given" })
)

export const LocateResponse = Schema.Struct({
  landing: Landing,
  self: Schema.optional(Point),
  neighbors: Schema.Array(Point),
  count: Schema.Number,
  located_by: Schema.Literal("stored_vector", "re_encoded_text", "query_text"),
  note: Schema.optional(Schema.String),
  timestamp: Schema.String
})

export const WhitespaceResponse = Schema.Struct({
  voids: Schema.Array(WhitespaceVoid),
  count: Schema.Number,
  total: Schema.Number,
  timestamp: Schema.String
})

export const PointsResponse = Schema.Struct({
  points: Schema.Array(Point),
  count: Schema.Number,
  truncated: Schema.Boolean,
  timestamp: Schema.String
})

export class PatentMapApi extends HttpApiGroup.make("patent-map")
  .add(
    HttpApiEndpoint.get("neighborhood", "/patent-map/patent/:appNum")
      .setPath(Schema.Struct({ appNum: field(AppNum, "Application whose neighbours in the shared 3D frame are returned (digits only).") }))
      .setUrlParams(
        Schema.Struct({
          topK: Schema.optionalWith(field(QueryInt(1, 100), "How many nearest neighbours to return, ordered by cosine similarity to the application (default 20)."), {
            default: () => 20
          })
        })
      )
      .addSuccess(NeighborhoodResponse)
      .addError(Coded.notIndexed)
      .addError(Coded.upstream)
      .annotate(OpenApi.Summary, "Neighbours of an application in the shared 3D frame")
      .annotate(Access, metered("get_patent_neighborhood", CACHE_DAY, "get_patent_neighborhood"))
  )
  .add(
    HttpApiEndpoint.get("citations", "/patent-map/patent/:appNum/citations")
      .setPath(Schema.Struct({ appNum: field(AppNum, "Application whose cited prior art is resolved to positions in the shared frame (digits only).") }))
      .setUrlParams(
        Schema.Struct({
          year: Schema.optional(field(QueryInt(1970, 2035), "Filing year of the citing application, when known: narrows the lookup and makes it cheaper."))
        })
      )
      .addSuccess(CitationsResponse)
      .addError(Coded.upstream)
      .annotate(OpenApi.Summary, "Cited prior art resolved to positions")
      .annotate(Access, metered("get_patent_citations", CACHE_DAY, "get_patent_citations"))
  )
  .add(
    HttpApiEndpoint.post("locate", "/patent-map/locate")
      .setPayload(LocateRequest)
      .addSuccess(LocateResponse)
      .addError(Coded.notFound)
      .addError(Coded.upstream)
      .addError(Coded.noCoordinates)
      .annotate(OpenApi.Summary, "Place free text or an application in the patent space")
      .annotate(Access, metered("locate_in_patent_space", NO_STORE, "locate_in_patent_space"))
  )
  .add(
    HttpApiEndpoint.get("whitespace", "/patent-map/whitespace")
      .setUrlParams(
        Schema.Struct({
          limit: Schema.optionalWith(field(QueryInt(1, 500), "How many voids to return, highest opportunity first; total still counts every match (default 100)."), {
            default: () => 100
          }),
          section: Schema.optional(field(CpcSection, "Only voids in this CPC section.")),
          minOpportunity: Schema.optionalWith(field(QueryNumber(0, 1), "Drop voids whose opportunity score (0 to 1) is below this (default 0)."), {
            default: () => 0
          })
        })
      )
      .addSuccess(WhitespaceResponse)
      .addError(Coded.notFound)
      .addError(Coded.upstream)
      .annotate(OpenApi.Summary, "Ranked atlas of gaps ('whitespace')")
      .annotate(Access, free("find_whitespace", CACHE_HALF_HOUR, "find_whitespace"))
  )
  .add(
    HttpApiEndpoint.get("points", "/patent-map/points")
      .setUrlParams(
        Schema.Struct({
          limit: Schema.optionalWith(
            field(
              QueryInt(100, 50000),
              "How many background points to return. The sample pages the index in stored order: deterministic, not random, not representative (default 10000)."
            ),
            { default: () => 10000 }
          ),
          section: Schema.optional(field(CpcSection, "Only points in this CPC section.")),
          artUnit: Schema.optional(field(Matching(/^\d{1,4}$/, "must be an art-unit prefix of 1-4 digits"), "Only points whose art unit starts with these digits."))
        })
      )
      .addSuccess(PointsResponse)
      .addError(Coded.upstream)
      .annotate(OpenApi.Summary, "Sampled background point cloud")
      .annotate(Access, metered("get_patent_points", CACHE_HALF_HOUR))
  )
  .addError(Coded.validation)
  .annotate(RouteFamily, "coded")
  .annotate(OpenApi.Description, "The shared 3D patent space: neighbours, citations, locate, whitespace, points")
  .middleware(Admission)
  .prefix("/api/v1") {}
