/**
 * Prosecution intelligence (SPEC 2.9, 4.5) over the prosecution stage's tables: CPC lookup with
 * empirical art-unit routing, classification of a number, art-unit profiles, examiner search and
 * examiner profiles. Methods return the success bodies; unknown records fail with NotFound and a
 * version without the tables with CorpusUnavailable (both rendered by the route layer).
 */
import { Effect } from "effect"
import { ArtifactStore } from "../artifacts/ArtifactStore.ts"
import { heldTable } from "../artifacts/held.ts"
import { Settings } from "../config.ts"
import { loadCpcIndex } from "./cpc-index.ts"
import { getArtUnitProfile } from "./art-unit-profile.ts"
import { getPatentClassification } from "./classification.ts"
import { lookupCpcCode, type CpcLookupOptions } from "./cpc-lookup.ts"
import { getExaminerProfile } from "./examiner-profile.ts"
import { examinerSearch, type ExaminerSearch } from "./examiner-search.ts"
import { recordLookup } from "./stored.ts"

export { parseInclude } from "./examiner-profile.ts"

export class PatentIntelService extends Effect.Service<PatentIntelService>()("api/PatentIntelService", {
  effect: Effect.gen(function* () {
    const store = yield* ArtifactStore
    const settings = yield* Settings
    const query = store.query
    const records = recordLookup(store)
    // Loaded once per served version; a failed load is retried by the next lookup.
    const cpcIndex = yield* heldTable(
      store,
      { tables: ["cpc_scheme", "cpc_routing"], preload: settings.preloadSearch, describe: (i) => `CPC scheme index (${i.scheme.size} symbols, ${i.routing.size} routed)` },
      loadCpcIndex(store)
    )
    const findExaminer = yield* examinerSearch(store, settings.preloadSearch)
    return {
      /** GET /patent-intel/cpc/{code} (tool lookup_cpc_code). */
      lookupCpcCode: (code: string, options: CpcLookupOptions = { childLimit: 50, distributionLimit: 20 }) =>
        lookupCpcCode(cpcIndex, code, options).pipe(Effect.withSpan("PatentIntel.lookupCpcCode", { captureStackTrace: false })),
      /** GET /patent-intel/classification/{number} (tool get_patent_classification). */
      getPatentClassification: (number: string) =>
        getPatentClassification(query, records, cpcIndex, number).pipe(Effect.withSpan("PatentIntel.getPatentClassification", { captureStackTrace: false })),
      /** GET /patent-intel/art-unit/{artUnit} (tool get_art_unit_profile). */
      getArtUnitProfile: (artUnit: string) => getArtUnitProfile(query, records, artUnit).pipe(Effect.withSpan("PatentIntel.getArtUnitProfile", { captureStackTrace: false })),
      /** GET /patent-intel/examiners (tool find_examiner). */
      findExaminer: (search: ExaminerSearch) => findExaminer(search).pipe(Effect.withSpan("PatentIntel.findExaminer", { captureStackTrace: false })),
      /** GET /patent-intel/examiner/{examiner} (tool get_examiner_profile); `include` is the raw query value or a list of names. */
      getExaminerProfile: (examiner: string, include: string | ReadonlyArray<string> = []) =>
        getExaminerProfile(query, records, examiner, include).pipe(Effect.withSpan("PatentIntel.getExaminerProfile", { captureStackTrace: false }))
    } as const
  })
}) {}
