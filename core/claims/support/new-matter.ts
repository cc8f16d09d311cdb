/**
 * New matter across a continuity chain: a term the application supports but no readable ancestor
 * does. An unreadable ancestor contributes nothing (SPEC 4.3), so a finding records which
 * ancestors could not be read and is conclusive only when every ancestor was.
 */
import type { Grade } from "./types.ts"

export interface ChartedTerm {
  readonly claimNumber: number
  readonly term: string
  readonly display: string
  readonly specificationGrade: Grade
}

export interface AncestorReading {
  readonly appNum: string
  readonly textAvailable: boolean
  /** term → grade in this ancestor (readable ancestors only). */
  readonly grades: ReadonlyMap<string, Grade>
}

export interface NewMatter {
  readonly claimNumber: number
  readonly claimNumbers: ReadonlyArray<number>
  readonly term: string
  readonly display: string
  readonly grade: Grade
  readonly supportedIn: string
  readonly notSupportedIn: ReadonlyArray<string>
  readonly unreadable: ReadonlyArray<string>
  readonly conclusive: boolean
}

export const findNewMatter = (terms: ReadonlyArray<ChartedTerm>, ancestors: ReadonlyArray<AncestorReading>, supportedIn: string): NewMatter[] => {
  if (ancestors.length === 0) return []
  const readable = ancestors.filter((a) => a.textAvailable)
  const unreadable = ancestors.filter((a) => !a.textAvailable).map((a) => a.appNum)
  const byTerm = new Map<string, { first: ChartedTerm; claims: number[] }>()
  for (const t of terms) {
    if (t.specificationGrade === "UNDESCRIBED") continue
    const seen = byTerm.get(t.term)
    if (seen) {
      if (!seen.claims.includes(t.claimNumber)) seen.claims.push(t.claimNumber)
    } else byTerm.set(t.term, { first: t, claims: [t.claimNumber] })
  }
  const out: NewMatter[] = []
  for (const [term, { first, claims }] of byTerm) {
    const supported = readable.some((a) => (a.grades.get(term) ?? "UNDESCRIBED") !== "UNDESCRIBED")
    if (supported) continue
    out.push({
      claimNumber: first.claimNumber,
      claimNumbers: claims,
      term,
      display: first.display,
      grade: first.specificationGrade,
      supportedIn,
      notSupportedIn: readable.map((a) => a.appNum),
      unreadable,
      conclusive: unreadable.length === 0
    })
  }
  return out
}
