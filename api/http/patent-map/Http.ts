/** Patent-space handlers. The vector index and the atlas are not built yet. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { NotFound, UpstreamUnavailable } from "../../domain/errors.ts"
import { PatentApi } from "../Api.ts"

const indexUnavailable = Effect.fail(new UpstreamUnavailable({ message: "the vector index is not available on this deployment" }))

export const PatentMapLive = HttpApiBuilder.group(PatentApi, "patent-map", (handlers) =>
  handlers
    .handle("neighborhood", () => indexUnavailable)
    .handle("citations", () => indexUnavailable)
    .handle("locate", () => indexUnavailable)
    .handle("whitespace", () => Effect.fail(new NotFound({ message: "the whitespace atlas is not built" })))
    .handle("points", () => indexUnavailable)
)
