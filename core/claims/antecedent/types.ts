/** Result shapes of the antecedent-basis check (SPEC 2.6); the route layer adds `source` / `appNum`. */

export type Severity = "high" | "medium" | "low"

/**
 * Defect families. `no-antecedent-basis` covers a definite recitation with no earlier indefinite
 * one in the claim or its parents (low when the words are there under other wording, medium when
 * the term is recited elsewhere in the set, e.g. only in a sibling claim, high otherwise).
 */
export type IssueType =
  | "no-antecedent-basis"
  | "double-inclusion"
  | "plural-singular-mismatch"
  | "improper-dependency"
  | "ambiguous-reference"
  | "preamble-only-basis"
  | "missing-article"
  | "modified-reference"

/**
 * Rules under which an implicit-basis candidate (MPEP 2173.05(e)) is suppressed. `formal-claim`:
 * a design or plant claim in formal terms ("The ornamental design for a bottle, as shown"), which
 * names the article shown rather than reciting elements.
 */
/* `superlative`: "the endpoint having the highest audio activity level" picks a member by a measure; it does not point back. */
export type SuppressionRule =
  | "inherent-attribute"
  | "user-style"
  | "well-known-definite"
  | "claim-reference"
  | "step-reference"
  | "verb-nominalization"
  | "role-designation"
  | "formal-claim"
  | "superlative"

export interface AntecedentIssue {
  readonly claimNumber: number
  /** Normalised term: lower case, as written, without its determiner. */
  readonly term: string
  /** The term as written: `text.slice(start, end)`. */
  readonly display: string
  readonly type: IssueType
  readonly severity: Severity
  /** Character offsets into the claim text as given. */
  readonly start: number
  readonly end: number
  readonly snippet: string
  /**
   * Listed at the `low` floor but not a defect an examiner would raise: the basis is in the
   * preamble only, or the term names the result of a recited step ("receiving inputs … the
   * received inputs", "determining a characteristic … the determined characteristic"). Present
   * only when true; the severity stays `low`.
   */
  readonly informational?: true
}

export interface SuppressedCandidate extends AntecedentIssue {
  readonly rule: SuppressionRule
}

export interface ClaimReport {
  readonly number: number
  readonly isIndependent: boolean
  readonly dependsOn: ReadonlyArray<number>
  readonly introducedTerms: ReadonlyArray<string>
  readonly issues: ReadonlyArray<AntecedentIssue>
}

export interface DependencyInfo {
  readonly claimNumber: number
  /** Claims named in the text, as written (including improper ones). */
  readonly dependsOn: ReadonlyArray<number>
  /** Claims whose recitations this claim inherits: its whole valid dependency chain. */
  readonly chain: ReadonlyArray<number>
  readonly valid: boolean
}

export interface AntecedentStats {
  readonly claimCount: number
  readonly independentCount: number
  readonly issueCount: number
  readonly claimsWithIssues: number
  readonly bySeverity: { readonly high: number; readonly medium: number; readonly low: number }
  /** Of the `low` findings, those marked informational. */
  readonly informational: number
  readonly byType: Readonly<Record<string, number>>
}

export interface AntecedentResult {
  readonly available: true
  readonly issues: ReadonlyArray<AntecedentIssue>
  readonly claims: ReadonlyArray<ClaimReport>
  readonly dependencies: ReadonlyArray<DependencyInfo>
  readonly stats: AntecedentStats
  readonly suppressed?: ReadonlyArray<SuppressedCandidate>
}

export interface AntecedentOptions {
  readonly minSeverity?: Severity
  readonly includeSuppressed?: boolean
}
