/** Prior-art handlers. The search index and claims lookup are not built yet: both answer the family's 500. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CorpusUnavailable } from "../../domain/errors.ts"
import { PatentApi } from "../Api.ts"

const indexUnavailable = Effect.fail(new CorpusUnavailable({ message: "the search index is not available on this deployment" }))

export const PriorArtLive = HttpApiBuilder.group(PatentApi, "prior-art", (handlers) =>
  handlers.handle("search", () => indexUnavailable).handle("claims", () => indexUnavailable)
)
