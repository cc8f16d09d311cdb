/** Claim-validation handlers: antecedent basis (supplied and filed claims); support mapping. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { AntecedentService } from "./AntecedentService.ts"
import { ClaimSupportService } from "./ClaimSupportService.ts"
import { UpstreamUnavailable } from "../domain/errors.ts"
import { PatentApi } from "../Api.ts"

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
    .handle("supportCheck", ({ payload }) => Effect.flatMap(ClaimSupportService, (s) => s.mapSupport(payload)))
    .handle("supportFiled", ({ path, urlParams }) =>
      Effect.flatMap(ClaimSupportService, (s) =>
        s.mapSupportForApplication(path.appNum, { parents: urlParams.parents, maxAncestors: urlParams.maxAncestors, ocr: urlParams.ocr })
      ).pipe(Effect.catchTag("CorpusUnavailable", (e) => Effect.fail(new UpstreamUnavailable({ message: `specification pull failed: ${e.message}` }))))
    )
)
