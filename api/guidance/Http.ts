/** Guidance handlers: MPEP and EPO sections, form paragraphs, the guidance graph, design codes. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { GuidanceService } from "./GuidanceService.ts"
import { PatentApi } from "../Api.ts"

export const GuidanceLive = HttpApiBuilder.group(PatentApi, "guidance", (handlers) =>
  handlers
    .handle("mpep", ({ path }) => Effect.flatMap(GuidanceService, (s) => s.getMpepSection(path.sectionId)))
    .handle("epo", ({ path }) => Effect.flatMap(GuidanceService, (s) => s.getEpoGuideline(path.sectionId)))
    .handle("formParagraph", ({ path }) => Effect.flatMap(GuidanceService, (s) => s.getFormParagraph(path.code)))
    .handle("formParagraphs", ({ urlParams }) => Effect.flatMap(GuidanceService, (s) => s.findFormParagraphs(urlParams)))
    .handle("graph", ({ path, urlParams }) => Effect.flatMap(GuidanceService, (s) => s.getGuidanceGraph(path.nodeId, urlParams.limit)))
    .handle("designCode", ({ path }) => Effect.flatMap(GuidanceService, (s) => s.getDesignCode(path.code)))
)
