/** Guidance handlers: MPEP and EPO sections, form paragraphs, the guidance graph, design codes. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { NotFound } from "../../domain/errors.ts"
import { GuidanceService } from "../../guidance/GuidanceService.ts"
import { PatentApi } from "../Api.ts"

export const GuidanceLive = HttpApiBuilder.group(PatentApi, "guidance", (handlers) =>
  handlers
    .handle("mpep", ({ path }) => Effect.flatMap(GuidanceService, (s) => s.getMpepSection(path.sectionId)))
    .handle("epo", ({ path }) => Effect.flatMap(GuidanceService, (s) => s.getEpoGuideline(path.sectionId)))
    .handle("formParagraph", ({ path }) => Effect.flatMap(GuidanceService, (s) => s.getFormParagraph(path.code)))
    .handle("formParagraphs", ({ urlParams }) => Effect.flatMap(GuidanceService, (s) => s.findFormParagraphs(urlParams)))
    .handle("graph", ({ path, urlParams }) =>
      // Without an mpep-/epo- prefix no corpus can hold the node (SPEC 4.6: 404, whatever is served).
      /^(mpep|epo)-/.test(path.nodeId)
        ? Effect.flatMap(GuidanceService, (s) => s.getGuidanceGraph(path.nodeId, urlParams.limit))
        : Effect.fail(new NotFound({ message: `no guidance node ${path.nodeId}: ids start with mpep- or epo-` }))
    )
    .handle("designCode", ({ path }) => Effect.flatMap(GuidanceService, (s) => s.getDesignCode(path.code)))
)
