/**
 * Written-description support mapping (SPEC 2.7, 4.3; tool `map_claim_support`): claim terms
 * graded against supplied sections or the filed specification, and, with the continuity walk,
 * against every ancestor the continuity table names, reporting what no ancestor supports as new
 * matter. "No text on file" is an answer (available: false, or an ancestor with textAvailable:
 * false), never NotFound; only a failed pull is an error.
 */
import { Effect } from "effect"
import type { Mapped } from "../../core/claims/support/map.ts"
import { findNewMatter } from "../../core/claims/support/new-matter.ts"
import type { SuppliedSection } from "../../core/claims/support/specification.ts"
import type { Grade, SpecParagraph } from "../../core/claims/support/types.ts"
import { ArtifactStore } from "../artifacts/ArtifactStore.ts"
import { Settings } from "../config.ts"
import { BackendFailed, type CorpusUnavailable } from "../domain/errors.ts"
import { AnalysisPool } from "./AnalysisPool.ts"
import { SpecificationOcr } from "./ocr.ts"
import type { ClaimSupportResult } from "./support-schema.ts"
import { filedClaims, filedSpecification, knownApplications, type ParentLink, parentsOf } from "./warehouse.ts"

export interface SupportRequestInput {
  readonly claims: ReadonlyArray<{ readonly number?: number | undefined; readonly text: string }>
  readonly sections?: ReadonlyArray<SuppliedSection> | undefined
  readonly appNum?: string | undefined
  readonly includeParents: boolean
  readonly maxAncestors: number
  readonly ocr: boolean
}

export interface FiledSupportOptions {
  readonly parents: boolean
  readonly maxAncestors: number
  readonly ocr: boolean
}

type Ancestor = NonNullable<ClaimSupportResult["ancestors"]>[number]
type ChartClaims = NonNullable<ClaimSupportResult["claims"]>

const PROVISIONAL = /^6[0-3]\d{6}$/

/** Ancestors breadth first (parents, then grandparents …), each once, at most `max`. */
const walkParents = (store: ArtifactStore, appNum: string, max: number) =>
  Effect.gen(function* () {
    const found: Array<ParentLink & { depth: number }> = []
    const seen = new Set<string>([appNum, appNum.padStart(8, "0")])
    let frontier = [appNum]
    let depth = 0
    let truncated = false
    while (frontier.length > 0 && !truncated && depth < 12) {
      depth++
      const links = yield* parentsOf(store, frontier)
      const next: string[] = []
      for (const l of links) {
        if (seen.has(l.parent)) continue
        if (found.length >= max) {
          truncated = true
          break
        }
        seen.add(l.parent)
        found.push({ ...l, depth })
        next.push(l.parent)
      }
      frontier = next
    }
    return { found, truncated }
  })

export class ClaimSupportService extends Effect.Service<ClaimSupportService>()("api/ClaimSupportService", {
  effect: Effect.gen(function* () {
    const store = yield* ArtifactStore
    const settings = yield* Settings
    const ocrReader = yield* SpecificationOcr
    const analyses = yield* AnalysisPool

    /** Read one ancestor: its filed text, else OCR when asked for and switched on. */
    const readAncestor = (link: ParentLink & { depth: number }, known: ReadonlySet<string>, ocrOn: boolean) =>
      Effect.gen(function* () {
        const paragraphs = yield* filedSpecification(store, link.parent)
        const base = {
          appNum: link.parent,
          childAppNum: link.child,
          relation: link.relation,
          depth: link.depth,
          filingDate: link.filingDate,
          inCorpus: known.has(link.parent)
        }
        if (paragraphs.length > 0) return { base, paragraphs, source: "warehouse" as const, applied: false }
        const imageOnly = link.relation === "PRO" || PROVISIONAL.test(link.parent)
        const missing = known.has(link.parent)
          ? "the corpus has a record of this application but no specification text"
          : "this application is not in the corpus"
        if (!ocrOn) {
          const hint = imageOnly ? "; provisional filings are usually image-only and need OCR (ocr=1 with OCR_ENABLED)" : ""
          return { base, paragraphs, source: "none" as const, applied: false, reason: "no-text-in-corpus" as const, detail: `${missing}${hint}` }
        }
        const outcome = yield* ocrReader.read(link.parent)
        if (outcome.status === "read" && outcome.paragraphs.length > 0) return { base, paragraphs: outcome.paragraphs, source: "ocr" as const, applied: true }
        return {
          base,
          paragraphs,
          source: "none" as const,
          applied: outcome.status === "read",
          reason: outcome.status === "no-images" ? ("ocr-no-images" as const) : ("ocr-failed" as const),
          detail: `${missing}; ${outcome.status === "read" ? "OCR read no text" : outcome.detail}`
        }
      })

    /** The chart for the application, plus the walk when asked for. */
    const chart = (
      claims: SupportRequestInput["claims"],
      text: { readonly paragraphs: ReadonlyArray<SpecParagraph> } | { readonly sections: ReadonlyArray<SuppliedSection> },
      source: "request" | "warehouse",
      appNum: string | undefined,
      walk: { requested: boolean; maxAncestors: number; ocr: boolean }
    ): Effect.Effect<ClaimSupportResult, CorpusUnavailable | BackendFailed> =>
      Effect.gen(function* () {
        const t0 = Date.now()
        const charted = yield* analyses.run("supportChart", { claims: claims.map((c, i) => ({ number: c.number ?? i + 1, text: c.text })), ...text })
        const mapped: Mapped = charted.mapped
        const ocrState = {
          requested: walk.ocr,
          enabled: settings.ocrEnabled,
          applied: false,
          ...(walk.ocr && !settings.ocrEnabled ? { note: "OCR is switched off on this server (OCR_ENABLED); the request for OCR was ignored" } : {})
        }
        const runWalk = walk.requested && appNum !== undefined
        let ancestors: Ancestor[] | undefined
        let newMatter: ClaimSupportResult["newMatter"]
        let perTerm: Map<string, Array<{ appNum: string; grade: Grade; paragraph?: string }>> | undefined
        let walkState: NonNullable<ClaimSupportResult["walk"]> = {
          requested: walk.requested,
          ran: false,
          maxAncestors: walk.maxAncestors,
          ancestorsFound: 0,
          truncated: false,
          ...(walk.requested && appNum === undefined ? { note: "the continuity walk needs appNum; it was ignored" } : {})
        }
        if (runWalk) {
          const { found, truncated } = yield* walkParents(store, appNum, walk.maxAncestors)
          const known = yield* knownApplications(store, found.map((f) => f.parent))
          const ocrOn = walk.ocr && settings.ocrEnabled
          const readings = yield* Effect.forEach(found, (l) => readAncestor(l, known, ocrOn))
          const terms = mapped.claims.flatMap((c) => c.terms.map((t) => ({ ...t, claimNumber: c.number })))
          const supportedHere = new Set(terms.filter((t) => t.specificationGrade !== "UNDESCRIBED").map((t) => t.term))
          perTerm = new Map()
          const termWords = terms.map((t) => ({ term: t.term, words: t.words }))
          const graded = yield* Effect.forEach(readings, (r) =>
            Effect.map(
              r.paragraphs.length > 0
                ? analyses.run("gradeTerms", { terms: termWords, paragraphs: r.paragraphs })
                : Effect.succeed(new Map<string, { grade: Grade; location?: { paragraph: string } }>()),
              (grades) => {
                for (const [term, g] of grades) {
                  const list = perTerm!.get(term) ?? []
                  list.push({ appNum: r.base.appNum, grade: g.grade, ...(g.location ? { paragraph: g.location.paragraph } : {}) })
                  perTerm!.set(term, list)
                }
                return { r, grades }
              }
            )
          )
          ancestors = graded.map(({ r, grades }): Ancestor => {
            const available = r.paragraphs.length > 0
            const missing = available ? [...supportedHere].filter((t) => (grades.get(t)?.grade ?? "UNDESCRIBED") === "UNDESCRIBED") : []
            return {
              ...r.base,
              textAvailable: available,
              ...("reason" in r && r.reason ? { reason: r.reason, detail: r.detail } : {}),
              source: r.source,
              paragraphCount: r.paragraphs.length,
              termsChecked: available ? grades.size : 0,
              supportedTerms: available ? [...grades.values()].filter((g) => g.grade !== "UNDESCRIBED").length : 0,
              missingTerms: missing
            }
          })
          ocrState.applied = readings.some((r) => r.applied)
          newMatter = findNewMatter(
            terms,
            graded.map(({ r, grades }) => ({
              appNum: r.base.appNum,
              textAvailable: r.paragraphs.length > 0,
              grades: new Map([...grades].map(([k, v]) => [k, v.grade]))
            })),
            appNum
          )
          walkState = { ...walkState, ran: true, ancestorsFound: found.length, truncated }
        }
        const claimsOut: ChartClaims = mapped.claims.map((c) => ({
          number: c.number,
          isIndependent: c.isIndependent,
          dependsOn: c.dependsOn,
          terms: c.terms.map(({ words: _, ...t }) => (perTerm ? { ...t, ancestors: perTerm.get(t.term) ?? [] } : t))
        }))
        return {
          available: true,
          source,
          ...(appNum !== undefined ? { appNum } : {}),
          claims: claimsOut,
          grades: mapped.grades,
          walk: walkState,
          ...(ancestors ? { ancestors, newMatter: newMatter ?? [] } : {}),
          ocr: ocrState,
          stats: { ...mapped.stats, ...(newMatter ? { newMatterCount: newMatter.length } : {}), ms: Date.now() - t0 }
        }
      })

    const unavailable = (source: "request" | "warehouse", appNum: string | undefined, reason: "no-claims" | "no-specification"): ClaimSupportResult => ({
      available: false,
      source,
      ...(appNum !== undefined ? { appNum } : {}),
      reason
    })

    /**
     * POST /claim-validation/support. Supplied sections are analysed as given (no warehouse read
     * unless the walk runs); otherwise the filed specification of appNum is pulled. Any failure is
     * the analysis failing (500): the POST has no upstream error of its own.
     */
    const mapSupport = (input: SupportRequestInput): Effect.Effect<ClaimSupportResult, BackendFailed> =>
      Effect.gen(function* () {
        const supplied = input.sections !== undefined && input.sections.length > 0
        const walk = { requested: input.includeParents, maxAncestors: input.maxAncestors, ocr: input.ocr }
        if (supplied) return yield* chart(input.claims, { sections: input.sections! }, "request", input.appNum, walk)
        if (input.appNum === undefined) return yield* new BackendFailed({ message: "neither sections nor appNum was supplied" })
        const paragraphs = yield* filedSpecification(store, input.appNum)
        if (paragraphs.length === 0) return unavailable("warehouse", input.appNum, "no-specification")
        return yield* chart(input.claims, { paragraphs }, "warehouse", input.appNum, walk)
      }).pipe(
        Effect.catchTag("CorpusUnavailable", (e) => Effect.fail(new BackendFailed({ message: `specification pull failed: ${e.message}` }))),
        Effect.withSpan("ClaimSupportService.mapSupport", { captureStackTrace: false })
      )

    /** GET /claim-validation/support/{appNum}: filed claims against the filed specification; the walk runs unless parents is false. */
    const mapSupportForApplication = (
      appNum: string,
      options: FiledSupportOptions
    ): Effect.Effect<ClaimSupportResult, CorpusUnavailable | BackendFailed> =>
      Effect.gen(function* () {
        const claims = yield* filedClaims(store, appNum)
        if (claims.length === 0) return unavailable("warehouse", appNum, "no-claims")
        const paragraphs = yield* filedSpecification(store, appNum)
        if (paragraphs.length === 0) return unavailable("warehouse", appNum, "no-specification")
        return yield* chart(claims, { paragraphs }, "warehouse", appNum, { requested: options.parents, maxAncestors: options.maxAncestors, ocr: options.ocr })
      }).pipe(Effect.withSpan("ClaimSupportService.mapSupportForApplication", { captureStackTrace: false }))

    return { mapSupport, mapSupportForApplication } as const
  }),
  dependencies: [SpecificationOcr.Default, AnalysisPool.Default]
}) {}
