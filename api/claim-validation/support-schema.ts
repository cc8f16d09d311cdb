/**
 * Response body of the support endpoints (SPEC 2.7, 4.3; the spec leaves the shape open, 2.11).
 * Shaped for a claim chart: one row per claim term with its grade and the specification passages
 * that support it, one column per ancestor when the continuity walk ran, and new-matter findings.
 */
import { Schema } from "effect"
import { GRADES } from "../../core/claims/support/types.ts"

export const SupportGrade = Schema.Literal(...GRADES).annotations({
  identifier: "SupportGrade",
  description:
    "Strongest support found, strongest first: FORMALLY_DEFINED (\"as used herein\", \"means\", \"is defined as\", \"refers to\"), " +
    "CLAIM_DEFINED (the claim language bounds the term: \"selected from the group consisting of\", \"wherein the X is a …\"), " +
    "ENUMERATED (\"such as\", \"e.g.\", \"including A, B and C\"), EMBODIMENT (reference numeral, \"in one embodiment\", a figure), " +
    "FUNCTIONAL (\"configured to\", \"for …ing\"), DESCRIBED (mentioned without any of these), UNDESCRIBED (not found: the written-description warning)"
})

export const SectionKind = Schema.Literal(
  "cross-reference", "field", "background", "summary", "drawings", "detailed-description", "definitions", "examples", "abstract", "claims", "other"
)

export const MatchKind = Schema.Literal("exact", "lemma", "stem", "gapped", "scattered").annotations({
  description: "exact: the words as written; lemma: singular/plural forms; stem: word stems; gapped: in order with a few words between or ordinals dropped; scattered: all words in one sentence (never carries a cue)"
})

export const SupportLocation = Schema.Struct({
  section: Schema.String.annotations({ description: "Section heading, or the supplied section's name / type" }),
  sectionKind: SectionKind,
  paragraph: Schema.String.annotations({ description: "Printed paragraph number (\"0012\"), or the 1-based paragraph position in a supplied section" }),
  start: Schema.Number.annotations({ description: "Character offset of the matched words in the paragraph text" }),
  end: Schema.Number,
  sectionOffset: Schema.Number.annotations({ description: "Offset of the paragraph in the supplied section text (0 for filed specifications)" }),
  snippet: Schema.String,
  grade: SupportGrade,
  cue: Schema.optional(Schema.String.annotations({ description: "The words that earned the grade (\"as used herein\", \"such as\", \"12\", \"configured to\")" })),
  match: MatchKind
}).annotations({ identifier: "SupportLocation" })

export const AncestorTermSupport = Schema.Struct({
  appNum: Schema.String,
  grade: SupportGrade,
  paragraph: Schema.optional(Schema.String)
})

export const ChartTerm = Schema.Struct({
  term: Schema.String.annotations({ description: "Normalised term (lemmatised key words)" }),
  display: Schema.String.annotations({ description: "The term as written: claim text from start to end" }),
  start: Schema.Number.annotations({ description: "Character offsets into the claim text as given" }),
  end: Schema.Number,
  grade: SupportGrade,
  specificationGrade: SupportGrade.annotations({ description: "Grade from the specification alone, leaving the claim's own definition aside" }),
  claimCue: Schema.optional(Schema.String),
  definedInClaim: Schema.optional(Schema.Number),
  locationCount: Schema.Number,
  support: Schema.Array(SupportLocation).annotations({ description: "Strongest locations first (at most 5)" }),
  ancestors: Schema.optional(Schema.Array(AncestorTermSupport).annotations({ description: "Grade in each readable ancestor, when the walk ran" }))
}).annotations({ identifier: "SupportChartTerm" })

export const ChartClaim = Schema.Struct({
  number: Schema.Number,
  isIndependent: Schema.Boolean,
  dependsOn: Schema.Array(Schema.Number),
  terms: Schema.Array(ChartTerm).annotations({ description: "Terms this claim adds; terms recited by its parents are charted under the parent" })
}).annotations({ identifier: "SupportChartClaim" })

export const GradeCounts = Schema.Struct({
  FORMALLY_DEFINED: Schema.Number,
  CLAIM_DEFINED: Schema.Number,
  ENUMERATED: Schema.Number,
  EMBODIMENT: Schema.Number,
  FUNCTIONAL: Schema.Number,
  DESCRIBED: Schema.Number,
  UNDESCRIBED: Schema.Number
})

export const AncestorUnavailableReason = Schema.Literal("no-text-in-corpus", "ocr-no-images", "ocr-failed").annotations({
  description: "no-text-in-corpus: the corpus holds no specification for it (OCR not requested, or switched off); ocr-no-images: OCR was allowed but the served version holds no page images of it; ocr-failed: OCR could not run (Tesseract missing or failing; the detail says which) or read no text"
})

export const SupportAncestor = Schema.Struct({
  appNum: Schema.String,
  childAppNum: Schema.String.annotations({ description: "The application that claims benefit of it" }),
  relation: Schema.String.annotations({ description: "CON, DIV, CIP, PRO (provisional), REI or OTHER, as the continuity table records it" }),
  depth: Schema.Number.annotations({ description: "1 for a direct parent" }),
  filingDate: Schema.NullOr(Schema.String),
  inCorpus: Schema.Boolean.annotations({ description: "The application has a record in the corpus" }),
  textAvailable: Schema.Boolean,
  reason: Schema.optional(AncestorUnavailableReason),
  detail: Schema.optional(Schema.String),
  source: Schema.Literal("warehouse", "ocr", "none"),
  paragraphCount: Schema.Number,
  termsChecked: Schema.Number,
  supportedTerms: Schema.Number,
  missingTerms: Schema.Array(Schema.String).annotations({ description: "Terms supported in the application but not found here (empty when the text was not available: nothing was checked)" })
}).annotations({ identifier: "SupportAncestor" })

export const NewMatterFinding = Schema.Struct({
  claimNumber: Schema.Number.annotations({ description: "First claim charting the term" }),
  claimNumbers: Schema.Array(Schema.Number),
  term: Schema.String,
  display: Schema.String,
  grade: SupportGrade.annotations({ description: "Its grade in the application" }),
  supportedIn: Schema.String.annotations({ description: "The application number, or `request` for supplied sections without appNum" }),
  notSupportedIn: Schema.Array(Schema.String).annotations({ description: "Readable ancestors that do not support it" }),
  unreadable: Schema.Array(Schema.String).annotations({ description: "Ancestors whose text was not available; they contribute nothing" }),
  conclusive: Schema.Boolean.annotations({ description: "True when every walked ancestor was readable" })
}).annotations({ identifier: "NewMatterFinding" })

export const ContinuityWalk = Schema.Struct({
  requested: Schema.Boolean,
  ran: Schema.Boolean,
  maxAncestors: Schema.Number,
  ancestorsFound: Schema.Number,
  truncated: Schema.Boolean.annotations({ description: "More ancestors exist beyond maxAncestors" }),
  note: Schema.optional(Schema.String)
})

export const OcrState = Schema.Struct({
  requested: Schema.Boolean,
  enabled: Schema.Boolean.annotations({ description: "Server-side switch (OCR_ENABLED); when off a request for OCR is ignored, not refused" }),
  applied: Schema.Boolean.annotations({ description: "OCR actually read at least one ancestor" }),
  note: Schema.optional(Schema.String)
})

export const SupportStats = Schema.Struct({
  claimCount: Schema.Number,
  termCount: Schema.Number,
  paragraphCount: Schema.Number,
  undescribedCount: Schema.Number,
  supportedShare: Schema.Number.annotations({ description: "Share of terms not UNDESCRIBED (0-1)" }),
  newMatterCount: Schema.optional(Schema.Number),
  ms: Schema.Number
})

export const ClaimSupportResult = Schema.Struct({
  available: Schema.Boolean.annotations({ description: "Branch on it first: false when the filed claims or specification are not on file" }),
  source: Schema.Literal("request", "warehouse").annotations({ description: "request: supplied sections; warehouse: the filed specification" }),
  appNum: Schema.optional(Schema.String),
  reason: Schema.optional(Schema.Literal("no-claims", "no-specification")),
  claims: Schema.optional(Schema.Array(ChartClaim)),
  grades: Schema.optional(GradeCounts),
  walk: Schema.optional(ContinuityWalk),
  ancestors: Schema.optional(Schema.Array(SupportAncestor)),
  newMatter: Schema.optional(Schema.Array(NewMatterFinding)),
  ocr: Schema.optional(OcrState),
  stats: Schema.optional(SupportStats)
}).annotations({
  identifier: "ClaimSupportResult",
  description: "Per-term support grades with locations (a claim chart); ancestor and new-matter records when the continuity walk ran"
})
export type ClaimSupportResult = typeof ClaimSupportResult.Type
