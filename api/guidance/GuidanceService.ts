/**
 * Examination guidance (SPEC 2.10, 4.6) over the guidance stage's tables: MPEP and EPO
 * Guidelines sections, form paragraphs (lookup and search), the citation graph among sections,
 * and design search codes. Methods take the routes' decoded inputs and return the success
 * bodies; unknown ids fail with NotFound, a version without the tables with CorpusUnavailable.
 */
import { Effect } from "effect"
import { ArtifactStore } from "../artifacts/ArtifactStore.ts"
import { getDesignCode } from "./design-code.ts"
import { getEpoGuideline } from "./epo-section.ts"
import { getFormParagraph } from "./form-paragraph.ts"
import { findFormParagraphs, type FormParagraphSearch } from "./form-paragraph-search.ts"
import { getGuidanceGraph } from "./guidance-graph.ts"
import { getMpepSection } from "./mpep-section.ts"

export type { FormParagraphSearch } from "./form-paragraph-search.ts"

export class GuidanceService extends Effect.Service<GuidanceService>()("api/GuidanceService", {
  effect: Effect.gen(function* () {
    const { query } = yield* ArtifactStore
    return {
      /** GET /guidance/mpep/{sectionId} (tool get_mpep_section). */
      getMpepSection: (sectionId: string) => getMpepSection(query, sectionId).pipe(Effect.withSpan("Guidance.getMpepSection")),
      /** GET /guidance/epo/{sectionId} (tool get_epo_guideline). */
      getEpoGuideline: (sectionId: string) => getEpoGuideline(query, sectionId).pipe(Effect.withSpan("Guidance.getEpoGuideline")),
      /** GET /guidance/form-paragraph/{code} (tool get_form_paragraph). */
      getFormParagraph: (code: string) => getFormParagraph(query, code).pipe(Effect.withSpan("Guidance.getFormParagraph")),
      /** GET /guidance/form-paragraphs (tool find_form_paragraphs). */
      findFormParagraphs: (search: FormParagraphSearch) => findFormParagraphs(query, search).pipe(Effect.withSpan("Guidance.findFormParagraphs")),
      /** GET /guidance/graph/{nodeId}?limit (tool get_guidance_graph). */
      getGuidanceGraph: (nodeId: string, limit = 50) => getGuidanceGraph(query, nodeId, limit).pipe(Effect.withSpan("Guidance.getGuidanceGraph")),
      /** GET /guidance/design-code/{code} (tool get_design_code). */
      getDesignCode: (code: string) => getDesignCode(query, code).pipe(Effect.withSpan("Guidance.getDesignCode"))
    } as const
  })
}) {}
