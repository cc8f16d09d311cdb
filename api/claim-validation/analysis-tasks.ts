/**
 * The CPU-bound claim analyses, as tasks a worker thread runs (analysis-worker.mjs loads this
 * file): an antecedent check of a claim set, the support chart of a claim set against paragraphs,
 * and the grading of terms against an ancestor's paragraphs. Inputs and results cross the thread
 * boundary by structured clone, so they are plain data (Maps included).
 */
import { checkAntecedentBasis, type Severity } from "../../core/claims/antecedent/index.ts"
import { gradeTermsIn, mapClaimSupport } from "../../core/claims/support/map.ts"
import { paragraphsOfSections, type SuppliedSection } from "../../core/claims/support/specification.ts"
import type { SpecParagraph } from "../../core/claims/support/types.ts"

export interface AntecedentTask {
  readonly claims: ReadonlyArray<{ readonly number: number; readonly text: string }>
  readonly options: { readonly minSeverity: Severity; readonly includeSuppressed: boolean }
}

export const antecedent = (task: AntecedentTask) => checkAntecedentBasis(task.claims, task.options)

export interface SupportTask {
  readonly claims: ReadonlyArray<{ readonly number?: number; readonly text: string }>
  /** Paragraphs already cut, or supplied sections to cut first (the cutting is part of the work). */
  readonly paragraphs?: ReadonlyArray<SpecParagraph>
  readonly sections?: ReadonlyArray<SuppliedSection>
}

export const supportChart = (task: SupportTask) => {
  const paragraphs = task.paragraphs ?? paragraphsOfSections(task.sections ?? [])
  return { mapped: mapClaimSupport(task.claims, paragraphs), paragraphCount: paragraphs.length }
}

export interface GradeTask {
  readonly terms: ReadonlyArray<{ readonly term: string; readonly words: ReadonlyArray<string> }>
  readonly paragraphs: ReadonlyArray<SpecParagraph>
}

export const gradeTerms = (task: GradeTask) => gradeTermsIn(task.terms, task.paragraphs)

/** What the worker exports, by task name (the pool checks names against this). */
export const analysisTasks = { antecedent, supportChart, gradeTerms } as const
export type AnalysisTaskName = keyof typeof analysisTasks
