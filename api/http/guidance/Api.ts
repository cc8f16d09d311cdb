/** Examination guidance (SPEC 4.6): all metered, cached for a day; errors `{error, code, timestamp}`. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { OpenStruct, Unspecified } from "../../domain/open-struct.ts"
import { Matching, QueryInt } from "../../domain/rules.ts"
import { Coded } from "../envelopes.ts"
import { Access, CACHE_DAY, metered, RouteFamily } from "../route-meta.ts"

export const MpepSectionId = Matching(/^[0-9A-Za-z.()-]{1,40}$/, "must be 1-40 characters from digits, letters, . ( ) -")
export const EpoSectionId = Matching(/^[0-9A-Za-z.-]{1,40}$/, "must be 1-40 characters from digits, letters, . -")
export const FormParagraphCode = Matching(
  /^(?=.*[0-9A-Za-z])[¶§\s0-9A-Za-z.-]{1,24}$/,
  "must be 1-24 characters from the paragraph sign ¶, spaces, digits, letters, . -"
)
const RejectionType = Matching(/^[0-9A-Za-z.()_ -]{1,40}$/, "must be 1-40 characters from digits, letters, . ( ) _ - and spaces")

/**
 * `mpep-…` or `epo-…` selects the corpus. An id with some other `word-` prefix is refused (400);
 * an id with no prefix at all passes and is answered 404 (no node has it).
 */
export const GraphNodeId = Matching(
  /^(?:(?:mpep|epo)-[0-9A-Za-z.()-]{1,40}|(?![A-Za-z]+-)[0-9A-Za-z.()-]{1,40})$/,
  "must be mpep- or epo- followed by 1-40 characters from digits, letters, . ( ) -"
)
export const DesignCode = Matching(/^\d{2}(?:\.\d{2}){0,3}$/, "must be two digits followed by up to three groups of . and two digits")

export const MpepSection = OpenStruct({ sectionId: Schema.String, title: Schema.String, content: Unspecified }).annotations({ identifier: "MpepSection" })
export const EpoSection = OpenStruct({ sectionId: Schema.String, title: Schema.String, content: Unspecified }).annotations({ identifier: "EpoSection" })
export const FormParagraph = OpenStruct({
  code: Schema.String,
  title: Schema.NullOr(Schema.String),
  template: Schema.NullOr(Schema.String),
  truncated_at_source: Schema.Boolean
}).annotations({ identifier: "FormParagraph" })
export const FormParagraphList = Schema.Struct({
  results: Schema.Array(FormParagraph),
  count: Schema.Number,
  filter: OpenStruct({})
})
const Edge = Schema.Struct({ source: Schema.String, target: Schema.String, weight: Schema.Number, type: Schema.String, bidirectional: Schema.Boolean })
export const GuidanceGraph = Schema.Struct({
  node: Schema.Struct({ nodeId: Schema.String, inDegree: Schema.Number, outDegree: Schema.Number, isHub: Schema.Boolean }),
  corpus: Schema.Literal("mpep", "epo"),
  outgoing: Schema.Array(Edge),
  incoming: Schema.Array(Edge),
  truncated: Schema.Struct({ outgoing: Schema.Boolean, incoming: Schema.Boolean }),
  limit: Schema.Number
}).annotations({ identifier: "GuidanceGraph" })
export const DesignCodeEntry = Schema.Struct(
  {
    code: Schema.String,
    descriptions: Schema.Array(Schema.String),
    major: Schema.NullOr(Schema.String),
    sub: Schema.NullOr(Schema.String)
  },
  // Level, guidelines and exclusions follow the four documented fields.
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
).annotations({ identifier: "DesignCode" })

export class GuidanceApi extends HttpApiGroup.make("guidance")
  .add(
    HttpApiEndpoint.get("mpep", "/guidance/mpep/:sectionId")
      .setPath(Schema.Struct({ sectionId: MpepSectionId }))
      .addSuccess(MpepSection)
      .addError(Coded.notFound)
      .annotate(OpenApi.Summary, "MPEP section")
      .annotate(Access, metered("get_mpep_section", CACHE_DAY, "get_mpep_section"))
  )
  .add(
    HttpApiEndpoint.get("epo", "/guidance/epo/:sectionId")
      .setPath(Schema.Struct({ sectionId: EpoSectionId }))
      .addSuccess(EpoSection)
      .addError(Coded.notFound)
      .annotate(OpenApi.Summary, "EPO Guidelines section")
      .annotate(Access, metered("get_epo_guideline", CACHE_DAY, "get_epo_guideline"))
  )
  .add(
    HttpApiEndpoint.get("formParagraph", "/guidance/form-paragraph/:code")
      .setPath(Schema.Struct({ code: FormParagraphCode }))
      .addSuccess(FormParagraph)
      .addError(Coded.notFound)
      .annotate(OpenApi.Summary, "Office-action form paragraph")
      .annotate(Access, metered("get_form_paragraph", CACHE_DAY, "get_form_paragraph"))
  )
  .add(
    HttpApiEndpoint.get("formParagraphs", "/guidance/form-paragraphs")
      .setUrlParams(
        Schema.Struct({
          rejectionType: Schema.optional(RejectionType),
          mpepSection: Schema.optional(MpepSectionId),
          limit: Schema.optionalWith(QueryInt(1, 100), { default: () => 25 })
        }).pipe(
          Schema.filter((q) => q.rejectionType !== undefined || q.mpepSection !== undefined || "rejectionType or mpepSection: supply at least one of them")
        )
      )
      .addSuccess(FormParagraphList)
      .annotate(OpenApi.Summary, "Find form paragraphs by statute, rejection label or MPEP section")
      .annotate(Access, metered("find_form_paragraphs", CACHE_DAY, "find_form_paragraphs"))
  )
  .add(
    HttpApiEndpoint.get("graph", "/guidance/graph/:nodeId")
      .setPath(Schema.Struct({ nodeId: GraphNodeId }))
      .setUrlParams(Schema.Struct({ limit: Schema.optionalWith(QueryInt(1, 200), { default: () => 50 }) }))
      .addSuccess(GuidanceGraph)
      .addError(Coded.notFound)
      .annotate(OpenApi.Summary, "Citation graph among MPEP and EPO sections")
      .annotate(Access, metered("get_guidance_graph", CACHE_DAY, "get_guidance_graph"))
  )
  .add(
    HttpApiEndpoint.get("designCode", "/guidance/design-code/:code")
      .setPath(Schema.Struct({ code: DesignCode }))
      .addSuccess(DesignCodeEntry)
      .addError(Coded.notFound)
      .annotate(OpenApi.Summary, "Design search code")
      .annotate(Access, metered("get_design_code", CACHE_DAY, "get_design_code"))
  )
  .addError(Coded.validation)
  .addError(Coded.corpus)
  .annotate(RouteFamily, "coded")
  .annotate(OpenApi.Description, "Examination guidance: MPEP, EPO Guidelines, their citation graph, form paragraphs, design codes")
  .prefix("/api/v1") {}
