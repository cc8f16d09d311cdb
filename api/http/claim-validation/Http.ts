/** Claim-validation handlers. The checker and the support mapper are not built yet. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { BackendFailed, UpstreamUnavailable } from "../../domain/errors.ts"
import { PatentApi } from "../Api.ts"

const checkUnavailable = Effect.fail(new BackendFailed({ message: "check unavailable on this deployment" }))
const pullUnavailable = Effect.fail(new UpstreamUnavailable({ message: "the claims warehouse is not available on this deployment" }))

export const ClaimValidationLive = HttpApiBuilder.group(PatentApi, "claim-validation", (handlers) =>
  handlers
    .handle("antecedentCheck", () => checkUnavailable)
    .handle("antecedentFiled", () => pullUnavailable)
    .handle("supportCheck", () => Effect.fail(new BackendFailed({ message: "support analysis unavailable on this deployment" })))
    .handle("supportFiled", () => pullUnavailable)
)
