/** Claim-validation handlers: antecedent basis (supplied and filed claims); support mapping. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { AntecedentService } from "../../claim-validation/AntecedentService.ts"
import { BackendFailed, UpstreamUnavailable } from "../../domain/errors.ts"
import { PatentApi } from "../Api.ts"

const pullUnavailable = Effect.fail(new UpstreamUnavailable({ message: "the claims warehouse is not available on this deployment" }))

export const ClaimValidationLive = HttpApiBuilder.group(PatentApi, "claim-validation", (handlers) =>
  handlers
    .handle("antecedentCheck", ({ payload }) =>
      Effect.flatMap(AntecedentService, (s) =>
        s.checkSupplied(payload.claims, { minSeverity: payload.minSeverity, includeSuppressed: payload.includeSuppressed })
      )
    )
    .handle("antecedentFiled", ({ path, urlParams }) =>
      Effect.flatMap(AntecedentService, (s) =>
        s.checkFiled(path.appNum, { minSeverity: urlParams.minSeverity, includeSuppressed: urlParams.includeSuppressed })
      )
    )
    .handle("supportCheck", () => Effect.fail(new BackendFailed({ message: "support analysis unavailable on this deployment" })))
    .handle("supportFiled", () => pullUnavailable)
)
