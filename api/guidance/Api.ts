/** Examination guidance (SPEC 4.6): all metered, cached for a day; errors `{error, code, timestamp}`. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { DeclaredStruct, Unspecified } from "../domain/open-struct.ts"
import { atLeastOneOf, field, Matching, QueryInt } from "../domain/rules.ts"
import { Coded } from "../http/envelopes.ts"
import { Admission } from "../http/security/Api.ts"
import { Access, CACHE_DAY, metered, RouteFamily } from "../http/route-meta.ts"

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

const Nullable = Schema.NullOr(Schema.String)
const Content = DeclaredStruct({
  text: Schema.String,
  subsections: Unspecified.annotations({ description: "The section's subsections (headings and their text)" })
})

export const MpepSection = DeclaredStruct({
  sectionId: Schema.String,
  title: Schema.String,
  chapter: Nullable,
  revision: Nullable,
  topicCategory: Nullable,
  content: Content,
  keyRules: Schema.Array(Schema.String),
  examinerActions: Schema.Array(Schema.String),
  legalReferences: Unspecified.annotations({ description: "Statutes, rules and cases the section cites, with mention counts" }),
  crossReferences: Schema.Array(Schema.String).annotations({ description: "Ids of the MPEP sections it refers to" }),
  technologyDomains: Schema.Array(Schema.String),
  enrichedSummary: Unspecified.annotations({ description: "A generated summary (method, text, sentences), or null" })
}).annotations({ identifier: "MpepSection" })

export const EpoSection = DeclaredStruct({
  sectionId: Schema.String,
  reference: Nullable.annotations({ description: "The reference as the Guidelines print it" }),
  title: Schema.String,
  part: Nullable,
  chapter: Nullable,
  content: Content,
  keyRules: Schema.Array(Schema.String),
  examinerActions: Schema.Array(Schema.String),
  citations: Unspecified.annotations({ description: "Articles, rules and decisions the section cites, with mention counts" }),
  parentSection: Nullable,
  childSections: Schema.Array(Schema.String),
  sourceUrl: Nullable
}).annotations({ identifier: "EpoSection" })

export const FormParagraph = DeclaredStruct({
  code: Schema.String,
  title: Nullable,
  template: Nullable.annotations({ description: "Text with placeholders [1], [2]" }),
  brackets: Unspecified.annotations({ description: "The placeholders: count and items" }),
  statute: Nullable,
  statuteShort: Nullable,
  rejectionType: Nullable,
  category: Nullable,
  isAIA: Schema.Boolean,
  preAIAEquivalent: Nullable,
  mpepSection: Nullable,
  examinerNotes: Schema.Array(Schema.String),
  mustFollow: Schema.Array(Schema.String).annotations({ description: "Paragraphs that must precede it" }),
  relatedParagraphs: Unspecified,
  truncated_at_source: Schema.Boolean.annotations({ description: "True: the stored text ends before the paragraph does; treat as partial" })
}).annotations({ identifier: "FormParagraph" })
export const FormParagraphList = Schema.Struct({
  results: Schema.Array(FormParagraph),
  count: Schema.Number,
  filter: DeclaredStruct({
    limit: Schema.optional(Schema.Number),
    rejectionType: Schema.optional(Schema.String),
    mpepSection: Schema.optional(Schema.String),
    matched: Schema.optional(Schema.NullOr(Unspecified)).annotations({ description: "The expansion of rejectionType: labels and statutes" }),
    note: Schema.optional(Schema.String).annotations({ description: "The vocabulary, when rejectionType was not recognised (zero results)" }),
    totalMatches: Schema.optional(Schema.Number)
  }).annotations({ description: "The filters applied" })
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
export const DesignCodeEntry = DeclaredStruct({
  code: Schema.String,
  descriptions: Schema.Array(Schema.String),
  major: Nullable,
  sub: Nullable,
  level: Nullable,
  majorCode: Nullable,
  subCode: Nullable,
  guidelines: Schema.Array(Schema.String),
  excludes: Schema.Array(Schema.String)
}).annotations({ identifier: "DesignCode" })

export class GuidanceApi extends HttpApiGroup.make("guidance")
  .add(
    HttpApiEndpoint.get("mpep", "/guidance/mpep/:sectionId")
      .setPath(Schema.Struct({ sectionId: field(MpepSectionId, "MPEP section id exactly as printed, e.g. 2173.05(e): dots and parentheses are part of the id.") }))
      .addSuccess(MpepSection)
      .addError(Coded.notFound)
      .annotate(OpenApi.Summary, "MPEP section")
      .annotate(Access, metered("get_mpep_section", CACHE_DAY, "get_mpep_section"))
  )
  .add(
    HttpApiEndpoint.get("epo", "/guidance/epo/:sectionId")
      .setPath(Schema.Struct({ sectionId: field(EpoSectionId, "EPO Guidelines reference, part-chapter-section, e.g. G-VII-5.1.") }))
      .addSuccess(EpoSection)
      .addError(Coded.notFound)
      .annotate(OpenApi.Summary, "EPO Guidelines section")
      .annotate(Access, metered("get_epo_guideline", CACHE_DAY, "get_epo_guideline"))
  )
  .add(
    HttpApiEndpoint.get("formParagraph", "/guidance/form-paragraph/:code")
      .setPath(Schema.Struct({ code: field(FormParagraphCode, "Form paragraph number, e.g. 7.34.01; a leading ¶ is accepted and ignored.") }))
      .addSuccess(FormParagraph)
      .addError(Coded.notFound)
      .annotate(OpenApi.Summary, "Office-action form paragraph")
      .annotate(Access, metered("get_form_paragraph", CACHE_DAY, "get_form_paragraph"))
  )
  .add(
    HttpApiEndpoint.get("formParagraphs", "/guidance/form-paragraphs")
      .setUrlParams(
        Schema.Struct({
          rejectionType: Schema.optional(
            field(
              RejectionType,
              "A statute (102, 103, 112(b), 101, 121, or a CFR rule) or a label (obviousness, anticipation, indefiniteness, enablement, written_description, means_plus_function, abstract_idea, double_patenting, restriction, allowance, drawing_objection); expanded to both vocabularies. One of rejectionType or mpepSection is required."
            )
          ),
          mpepSection: Schema.optional(
            field(MpepSectionId, "Only paragraphs tied to this MPEP section, e.g. 2173.05(e). One of rejectionType or mpepSection is required.")
          ),
          limit: Schema.optionalWith(field(QueryInt(1, 100), "How many paragraphs to return at most (default 25)."), { default: () => 25 })
        }).pipe(
          Schema.filter((q) => q.rejectionType !== undefined || q.mpepSection !== undefined || "rejectionType or mpepSection: supply at least one of them", {
            jsonSchema: atLeastOneOf("rejectionType", "mpepSection")
          })
        )
      )
      .addSuccess(FormParagraphList)
      .annotate(OpenApi.Summary, "Find form paragraphs by statute, rejection label or MPEP section")
      .annotate(Access, metered("find_form_paragraphs", CACHE_DAY, "find_form_paragraphs"))
  )
  .add(
    HttpApiEndpoint.get("graph", "/guidance/graph/:nodeId")
      .setPath(
        Schema.Struct({
          nodeId: field(GraphNodeId, "Guidance node: mpep- or epo- followed by the section id (e.g. mpep-2173.05(e), epo-G-VII-5.1); the prefix selects the corpus.")
        })
      )
      .setUrlParams(
        Schema.Struct({
          limit: Schema.optionalWith(field(QueryInt(1, 200), "How many edges to list per direction; truncated says whether more exist (default 50)."), {
            default: () => 50
          })
        })
      )
      .addSuccess(GuidanceGraph)
      .addError(Coded.notFound)
      .annotate(OpenApi.Summary, "Citation graph among MPEP and EPO sections")
      .annotate(Access, metered("get_guidance_graph", CACHE_DAY, "get_guidance_graph"))
  )
  .add(
    HttpApiEndpoint.get("designCode", "/guidance/design-code/:code")
      .setPath(Schema.Struct({ code: field(DesignCode, "Design search code, e.g. 01.01 or 21.01.01.") }))
      .addSuccess(DesignCodeEntry)
      .addError(Coded.notFound)
      .annotate(OpenApi.Summary, "Design search code")
      .annotate(Access, metered("get_design_code", CACHE_DAY, "get_design_code"))
  )
  .addError(Coded.validation)
  .addError(Coded.corpus)
  .annotate(RouteFamily, "coded")
  .annotate(OpenApi.Description, "Examination guidance: MPEP, EPO Guidelines, their citation graph, form paragraphs, design codes")
  .middleware(Admission)
  .prefix("/api/v1") {}
