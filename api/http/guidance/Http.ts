/** Guidance handlers: the guidance datasets are not built yet (503 CORPUS_UNAVAILABLE). */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CorpusUnavailable, NotFound } from "../../domain/errors.ts"
import { PatentApi } from "../Api.ts"

const unavailable = (dataset: string) =>
  Effect.fail(new CorpusUnavailable({ message: `the ${dataset} dataset is not available on this deployment` }))

export const GuidanceLive = HttpApiBuilder.group(PatentApi, "guidance", (handlers) =>
  handlers
    .handle("mpep", () => unavailable("MPEP"))
    .handle("epo", () => unavailable("EPO Guidelines"))
    .handle("formParagraph", () => unavailable("form-paragraph"))
    .handle("formParagraphs", () => unavailable("form-paragraph"))
    .handle("graph", ({ path: { nodeId } }) =>
      // Without an mpep-/epo- prefix no corpus can hold the node.
      /^(mpep|epo)-/.test(nodeId)
        ? unavailable("guidance graph")
        : Effect.fail(new NotFound({ message: `no guidance node ${nodeId}: ids start with mpep- or epo-` }))
    )
    .handle("designCode", () => unavailable("design-code"))
)
