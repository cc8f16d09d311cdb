/** Prosecution-intelligence handlers: CPC routing, classification, art units, examiners. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { PatentIntelService } from "./PatentIntelService.ts"
import { PatentApi } from "../Api.ts"

export const PatentIntelLive = HttpApiBuilder.group(PatentApi, "patent-intel", (handlers) =>
  handlers
    .handle("cpc", ({ path, urlParams }) =>
      Effect.flatMap(PatentIntelService, (s) =>
        s.lookupCpcCode(path.code, { childLimit: urlParams.childLimit, distributionLimit: urlParams.distributionLimit })
      )
    )
    .handle("classification", ({ path }) => Effect.flatMap(PatentIntelService, (s) => s.getPatentClassification(path.number)))
    .handle("artUnit", ({ path }) => Effect.flatMap(PatentIntelService, (s) => s.getArtUnitProfile(path.artUnit)))
    .handle("examiners", ({ urlParams }) =>
      Effect.flatMap(PatentIntelService, (s) => s.findExaminer({ name: urlParams.name, artUnit: urlParams.artUnit, limit: urlParams.limit }))
    )
    .handle("examiner", ({ path, urlParams }) =>
      Effect.flatMap(PatentIntelService, (s) => s.getExaminerProfile(path.examiner, urlParams.include ?? ""))
    )
)
