/**
 * Examination guidance (SPEC 2.10, 4.6) over the guidance stage's tables: MPEP and EPO
 * Guidelines sections, form paragraphs (lookup and search), the citation graph among sections,
 * and design search codes. Methods take the routes' decoded inputs and return the success
 * bodies; unknown ids fail with NotFound, a version without the tables with CorpusUnavailable.
 *
 * Each table is bounded by its manual, not by the corpus, so it is held in memory for the
 * served version (read once, at start when preloading) and a request is a lookup by key.
 */
import { Effect } from "effect"
import { ArtifactStore } from "../artifacts/ArtifactStore.ts"
import { Settings } from "../config.ts"
import { getDesignCode, loadDesignCodes } from "./design-code.ts"
import { getEpoGuideline, loadEpoSections } from "./epo-section.ts"
import { getFormParagraph, loadFormParagraphs } from "./form-paragraph.ts"
import { findFormParagraphs, type FormParagraphSearch } from "./form-paragraph-search.ts"
import { getGuidanceGraph, loadGuidanceGraph } from "./guidance-graph.ts"
import { getMpepSection, loadMpepSections } from "./mpep-section.ts"
import { heldTable } from "../artifacts/held.ts"

export type { FormParagraphSearch } from "./form-paragraph-search.ts"

export class GuidanceService extends Effect.Service<GuidanceService>()("api/GuidanceService", {
  effect: Effect.gen(function* () {
    const store = yield* ArtifactStore
    const { preloadSearch: preload } = yield* Settings
    const { query } = store
    const mpep = yield* heldTable(store, { tables: ["mpep_guidance"], preload, describe: (m) => `${m.size} MPEP sections` }, loadMpepSections(query))
    const epo = yield* heldTable(store, { tables: ["epo_guidance"], preload, describe: (m) => `${m.size} EPO Guidelines sections` }, loadEpoSections(query))
    const formParagraphs = yield* heldTable(
      store,
      { tables: ["form_paragraph_details"], preload, describe: (f) => `${f.byCode.size} form paragraphs` },
      loadFormParagraphs(query)
    )
    const graph = yield* heldTable(
      store,
      { tables: ["guidance_nodes", "guidance_edges"], preload, describe: (g) => `Guidance graph of ${g.nodes.size} nodes` },
      loadGuidanceGraph(query)
    )
    const designCodes = yield* heldTable(store, { tables: ["design_code_entries"], preload, describe: (d) => `${d.size} design codes` }, loadDesignCodes(query))
    return {
      /** GET /guidance/mpep/{sectionId} (tool get_mpep_section). */
      getMpepSection: (sectionId: string) => getMpepSection(mpep, sectionId).pipe(Effect.withSpan("Guidance.getMpepSection", { captureStackTrace: false })),
      /** GET /guidance/epo/{sectionId} (tool get_epo_guideline). */
      getEpoGuideline: (sectionId: string) => getEpoGuideline(epo, sectionId).pipe(Effect.withSpan("Guidance.getEpoGuideline", { captureStackTrace: false })),
      /** GET /guidance/form-paragraph/{code} (tool get_form_paragraph). */
      getFormParagraph: (code: string) => getFormParagraph(formParagraphs, code).pipe(Effect.withSpan("Guidance.getFormParagraph", { captureStackTrace: false })),
      /** GET /guidance/form-paragraphs (tool find_form_paragraphs). */
      findFormParagraphs: (search: FormParagraphSearch) => findFormParagraphs(formParagraphs, search).pipe(Effect.withSpan("Guidance.findFormParagraphs", { captureStackTrace: false })),
      /** GET /guidance/graph/{nodeId}?limit (tool get_guidance_graph). */
      getGuidanceGraph: (nodeId: string, limit = 50) => getGuidanceGraph(graph, nodeId, limit).pipe(Effect.withSpan("Guidance.getGuidanceGraph", { captureStackTrace: false })),
      /** GET /guidance/design-code/{code} (tool get_design_code). */
      getDesignCode: (code: string) => getDesignCode(designCodes, code).pipe(Effect.withSpan("Guidance.getDesignCode", { captureStackTrace: false }))
    } as const
  })
}) {}
