/** Prosecution-intelligence handlers: the datasets are not built yet (503 CORPUS_UNAVAILABLE). */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CorpusUnavailable } from "../../domain/errors.ts"
import { PatentApi } from "../Api.ts"

const unavailable = (dataset: string) =>
  Effect.fail(new CorpusUnavailable({ message: `the ${dataset} dataset is not available on this deployment` }))

export const PatentIntelLive = HttpApiBuilder.group(PatentApi, "patent-intel", (handlers) =>
  handlers
    .handle("cpc", () => unavailable("CPC routing"))
    .handle("classification", () => unavailable("classification"))
    .handle("artUnit", () => unavailable("art-unit"))
    .handle("examiners", () => unavailable("examiner"))
    .handle("examiner", () => unavailable("examiner"))
)
