/**
 * Written-description support grades (SPEC 2.7) and the records a claim chart is drawn from.
 * Grades are ordered: a term takes the strongest grade any of its locations earns, so the order
 * below is the order of precedence.
 */

export const GRADES = [
  "FORMALLY_DEFINED",
  "CLAIM_DEFINED",
  "ENUMERATED",
  "EMBODIMENT",
  "FUNCTIONAL",
  "DESCRIBED",
  "UNDESCRIBED"
] as const
export type Grade = (typeof GRADES)[number]

/** Lower is stronger. */
export const gradeRank = (g: Grade): number => GRADES.indexOf(g)
export const stronger = (a: Grade, b: Grade): Grade => (gradeRank(a) <= gradeRank(b) ? a : b)

/** How the claim term was found in the text: the phrase as lemmas, as stems, with words between, or spread over a sentence. */
export type MatchKind = "exact" | "lemma" | "stem" | "gapped" | "scattered"

/** One paragraph of a specification, as the warehouse stores it or as cut from a supplied section. */
export interface SpecParagraph {
  /** Section heading or supplied section name ("DETAILED DESCRIPTION"). */
  readonly section: string
  readonly sectionKind: SectionKind
  /** Paragraph number as printed ("0012"), or its 1-based position in a supplied section. */
  readonly paragraph: string
  readonly text: string
  /** Where the paragraph starts in the supplied section text (0 for warehouse rows). */
  readonly sectionOffset: number
}

export type SectionKind =
  | "cross-reference"
  | "field"
  | "background"
  | "summary"
  | "drawings"
  | "detailed-description"
  | "definitions"
  | "examples"
  | "abstract"
  | "claims"
  | "other"

/** A place in the specification where a claim term appears, with the grade it earns there. */
export interface SupportLocation {
  readonly section: string
  readonly sectionKind: SectionKind
  readonly paragraph: string
  /** Character offsets of the matched words in the paragraph text. */
  readonly start: number
  readonly end: number
  readonly sectionOffset: number
  readonly snippet: string
  readonly grade: Exclude<Grade, "UNDESCRIBED" | "CLAIM_DEFINED">
  /** The words that earned the grade ("as used herein", "such as", "12", "configured to"); absent for DESCRIBED. */
  readonly cue?: string
  readonly match: MatchKind
}

export interface TermSupport {
  /** Normalised term: lemmatised key words ("locking lever"). */
  readonly term: string
  /** The term as written in the claim: `claimText.slice(start, end)`. */
  readonly display: string
  readonly start: number
  readonly end: number
  readonly grade: Grade
  /** Strongest grade from the specification alone (the claim's own definition aside). */
  readonly specificationGrade: Grade
  /** The claim words that define the term, when the grade is CLAIM_DEFINED. */
  readonly claimCue?: string
  /** The claim whose words define it (the term's own claim, or a later "wherein the … is …" claim). */
  readonly definedInClaim?: number
  /** How many locations matched in all; `support` keeps the strongest few. */
  readonly locationCount: number
  readonly support: ReadonlyArray<SupportLocation>
}

export interface ClaimSupport {
  readonly number: number
  readonly isIndependent: boolean
  readonly dependsOn: ReadonlyArray<number>
  readonly terms: ReadonlyArray<TermSupport>
}

export type GradeCounts = { readonly [G in Grade]: number }

export interface SupportMap {
  readonly claims: ReadonlyArray<ClaimSupport>
  readonly grades: GradeCounts
  readonly stats: {
    readonly claimCount: number
    readonly termCount: number
    readonly paragraphCount: number
    readonly undescribedCount: number
    readonly supportedShare: number
  }
}

export const emptyCounts = (): { [G in Grade]: number } =>
  Object.fromEntries(GRADES.map((g) => [g, 0])) as { [G in Grade]: number }
