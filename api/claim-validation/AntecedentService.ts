/**
 * Antecedent-basis checks (SPEC 2.6, 4.3): on a supplied claim set (no model, no network) and on
 * the filed claims of an application from the served artifacts. "No claims on file" is an answer
 * (available: false, reason: no-claims), never a 404.
 */
import { Effect, Option } from "effect"
import { type ClaimRecordRow, RECORDS } from "../../core/serving/names.ts"
import type { Severity } from "../../core/claims/antecedent/index.ts"
import { ArtifactStore } from "../artifacts/ArtifactStore.ts"
import { UpstreamUnavailable } from "../domain/errors.ts"
import { AnalysisPool } from "./AnalysisPool.ts"

export interface AntecedentOptions {
  readonly minSeverity: Severity
  readonly includeSuppressed: boolean
}

export type SuppliedClaim = string | { readonly number?: number; readonly text: string }

/** Bare strings and entries without a number take their array position; entries under 10 characters are skipped. */
const normalise = (claims: ReadonlyArray<SuppliedClaim>) =>
  claims
    .map((c, i) => (typeof c === "string" ? { number: i + 1, text: c } : { number: c.number ?? i + 1, text: c.text }))
    .filter((c) => c.text.trim().length >= 10)

/** The filed claims with text, in claim order: the serving record when the version has it, else SQL. */
const filedClaimRows = (store: ArtifactStore, appNum: string) =>
  Option.match(store.records<ReadonlyArray<ClaimRecordRow>>(RECORDS.claims), {
    onSome: (file) =>
      Effect.map(store.readRecords(file, [appNum]), (found) =>
        (found.get(appNum) ?? []).flatMap((c) => (c.text === null ? [] : [{ number: Number(c.claim_num), text: c.text }]))
      ),
    onNone: () =>
      Effect.map(store.query(`SELECT claim_num, text FROM claims WHERE app_num = $1 AND text IS NOT NULL ORDER BY claim_num`, [appNum], ["claims"]), (rows) =>
        rows.map((r) => ({ number: Number(r.claim_num), text: String(r.text) }))
      )
  })

export class AntecedentService extends Effect.Service<AntecedentService>()("api/AntecedentService", {
  effect: Effect.gen(function* () {
    const store = yield* ArtifactStore
    const analyses = yield* AnalysisPool
    const run = (claims: ReadonlyArray<{ number: number; text: string }>, options: AntecedentOptions) =>
      analyses.run("antecedent", { claims, options })
    return {
      checkSupplied: (claims: ReadonlyArray<SuppliedClaim>, options: AntecedentOptions) =>
        Effect.map(run(normalise(claims), options), (result) => ({ ...result, source: "request" as const })),

      checkFiled: (appNum: string, options: AntecedentOptions) =>
        Effect.gen(function* () {
          const rows = yield* filedClaimRows(store, appNum).pipe(Effect.mapError((e) => new UpstreamUnavailable({ message: `claim pull failed: ${e.message}` })))
          if (rows.length === 0) return { appNum, available: false as const, source: "warehouse" as const, reason: "no-claims" as const }
          const result = yield* run(
            rows,
            options
          ).pipe(Effect.mapError((e) => new UpstreamUnavailable({ message: e.message })))
          return { appNum, source: "warehouse" as const, ...result }
        })
    } as const
  }),
  dependencies: [AnalysisPool.Default]
}) {}
