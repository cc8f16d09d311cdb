/** Claim validation under §112 (SPEC 4.3): payloads returned directly; errors `{error}` alone. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ApplicationNumber } from "../domain/ids.ts"
import { ClaimSupportResult } from "./support-schema.ts"
import { atLeastOneOf, BodyBool, BodyInt, field, ListOf, QueryBool, QueryInt, Severity, Text } from "../domain/rules.ts"
import { ClaimValidation } from "../http/envelopes.ts"
import { Admission } from "../http/security/Api.ts"
import { Access, CACHE_DAY, free, metered, NO_STORE, RouteFamily, withBodyLimit } from "../http/route-meta.ts"

const AppNum = ApplicationNumber(7, 8)
const ClaimNumber = BodyInt(1, 100000)

/**
 * Text budgets. The longest granted US claims run to a few tens of thousands of characters and
 * whole specifications to a few million; beyond these a request is refused (400 naming the limit)
 * rather than left to occupy an analysis thread for minutes.
 */
export const MAX_CLAIM_CHARS = 100_000
export const MAX_CLAIM_SET_CHARS = 1_000_000
export const MAX_SECTION_CHARS = 2_000_000
export const MAX_SPECIFICATION_CHARS = 4_000_000

const ClaimText = Text(0, MAX_CLAIM_CHARS)

/** What the fields shared by the POST and GET forms do (SPEC 4.3). */
const MIN_SEVERITY =
  "Lowest severity reported: high (no plausible antecedent anywhere in the set), medium, or low (one probably exists under other wording) (default low)."
const INCLUDE_SUPPRESSED = "Also return the implicit-basis candidates (MPEP 2173.05(e)) that were suppressed, each with the rule that suppressed it"
const CONTINUITY_WALK =
  "Walk the continuity chain of parent applications: a term supported in the application but in no ancestor is reported as new matter."
const MAX_ANCESTORS = "Cap on the ancestors the continuity walk checks (default 6)."
const OCR =
  "Allow OCR of image-only filings (most provisionals are image-only); without it an unreadable ancestor contributes nothing, so a term it supports can be reported as new matter. A server-side switch can disable OCR, and then this is ignored"

/**
 * The antecedent POST carries claims alone: a body over 4 MiB cannot be a legal claim set of
 * ordinary text (1M characters, with room for escapes and multi-byte letters), so it is refused
 * (413) from its Content-Length, before a byte of it is parsed.
 */
export const ANTECEDENT_BODY_BYTES = 4 * 1024 * 1024

/** Antecedent check entries: `{number?, text}` or a bare string; unusable entries are skipped. */
export const AntecedentClaim = Schema.Union(
  ClaimText,
  Schema.Struct({
    number: Schema.optional(field(ClaimNumber, "Claim number; a missing number is taken from the claim's position in the list.")),
    text: field(ClaimText, "Claim text without its leading number.")
  })
)

const claimTextOf = (c: typeof AntecedentClaim.Type) => (typeof c === "string" ? c : c.text)
const totalChars = (texts: ReadonlyArray<string>) => texts.reduce((n, t) => n + t.length, 0)
const claimSetBudget = `the claims together must hold at most ${MAX_CLAIM_SET_CHARS} characters`

const usableText = (c: typeof AntecedentClaim.Type) => (typeof c === "string" ? c : c.text).trim().length >= 10

export const AntecedentRequest = Schema.Struct({
  claims: field(
    ListOf(AntecedentClaim, 0, 300, "claims"),
    "The claim set to check, in order: each entry {number?, text} or a bare string of claim text. Entries with under 10 characters of text are skipped."
  ),
  minSeverity: Schema.optionalWith(field(Severity, MIN_SEVERITY), { default: () => "low" as const }),
  includeSuppressed: Schema.optionalWith(field(BodyBool, `${INCLUDE_SUPPRESSED} (default false).`), { default: () => false })
}).pipe(
  Schema.filter((b) => b.claims.some(usableText) || { path: ["claims"], message: "no claim carried usable text (each claim needs at least 10 characters)" }),
  Schema.filter((b) => totalChars(b.claims.map(claimTextOf)) <= MAX_CLAIM_SET_CHARS || { path: ["claims"], message: claimSetBudget }),
  Schema.annotations({
    identifier: "AntecedentRequest",
    description: `At least one claim must carry 10 or more characters of text; shorter entries are skipped. Budgets: each claim at most ${MAX_CLAIM_CHARS} characters, ${claimSetBudget}`
  })
)

export const SupportClaim = Schema.Struct({
  number: Schema.optional(field(ClaimNumber, "Claim number; a missing number is taken from the claim's position in the list.")),
  text: field(Text(10, MAX_CLAIM_CHARS), "Claim text without its leading number; its terms are graded.")
})
export const SupportSection = Schema.Struct({
  type: Schema.optional(field(Text(0, 200), "Kind of section, e.g. description, summary, abstract.")),
  name: Schema.optional(field(Text(0, 500), "Heading of the section, e.g. Detailed description.")),
  text: field(Text(1, MAX_SECTION_CHARS), "The section's text, searched for support of each claim term.")
})
const specificationBudget = `the sections together must hold at most ${MAX_SPECIFICATION_CHARS} characters`

export const SupportRequest = Schema.Struct({
  claims: field(ListOf(SupportClaim, 1, 300, "claims"), "The claims whose terms are graded by their support in the specification; always required."),
  sections: Schema.optional(
    field(
      ListOf(SupportSection, 0, 60, "sections"),
      "Specification text to search for support, each {type?, name?, text}; the analysis then runs on this text alone, with no network. One of sections or appNum is required."
    )
  ),
  appNum: Schema.optional(
    field(
      AppNum,
      "Application whose filed specification is pulled when sections is omitted; needed for the continuity walk. One of sections or appNum is required."
    )
  ),
  includeParents: Schema.optionalWith(
    field(BodyBool, `${CONTINUITY_WALK} Ignored without appNum (default false).`),
    { default: () => false }
  ),
  maxAncestors: Schema.optionalWith(field(BodyInt(0, 12), MAX_ANCESTORS), { default: () => 6 }),
  ocr: Schema.optionalWith(field(BodyBool, `${OCR} (default false).`), { default: () => false })
}).pipe(
  Schema.filter(
    (b) => (b.sections !== undefined && b.sections.length > 0) || b.appNum !== undefined || "sections or appNum: supply at least one of them",
    { jsonSchema: atLeastOneOf("sections", "appNum") }
  ),
  Schema.filter((b) => totalChars(b.claims.map((c) => c.text)) <= MAX_CLAIM_SET_CHARS || { path: ["claims"], message: claimSetBudget }),
  Schema.filter((b) => totalChars((b.sections ?? []).map((s) => s.text)) <= MAX_SPECIFICATION_CHARS || { path: ["sections"], message: specificationBudget }),
  Schema.annotations({
    identifier: "SupportRequest",
    description: `Supply sections (analysed with no network) or appNum (pulls the filed specification; needed for the continuity walk). Budgets: each claim at most ${MAX_CLAIM_CHARS} characters, ${claimSetBudget}; each section at most ${MAX_SECTION_CHARS} characters, ${specificationBudget}`
  })
)

const Severity3 = Schema.Literal("high", "medium", "low")

const Issue = Schema.Struct({
  claimNumber: Schema.Number,
  term: Schema.String,
  display: Schema.String,
  type: Schema.String.annotations({
    description:
      "no-antecedent-basis, double-inclusion, plural-singular-mismatch, improper-dependency, ambiguous-reference, preamble-only-basis, missing-article, modified-reference"
  }),
  severity: Severity3,
  start: Schema.Number.annotations({ description: "Character offset into the claim text (text.slice(start, end) is the term as written)" }),
  end: Schema.Number,
  snippet: Schema.String,
  informational: Schema.optional(Schema.Literal(true)).annotations({
    description: "Listed at the low floor but not a defect: basis only in the preamble, or a term derived from a recited step ('the received rank')"
  })
}).annotations({ identifier: "AntecedentIssue" })

const SuppressedCandidate = Schema.Struct({
  ...Issue.fields,
  rule: Schema.String.annotations({ description: "The MPEP 2173.05(e) implicit-basis rule that suppressed the candidate" })
}).annotations({ identifier: "SuppressedCandidate" })

const ClaimReport = Schema.Struct({
  number: Schema.Number,
  isIndependent: Schema.Boolean,
  dependsOn: Schema.Array(Schema.Number),
  introducedTerms: Schema.Array(Schema.String),
  issues: Schema.Array(Issue)
})

const Dependency = Schema.Struct({
  claimNumber: Schema.Number,
  dependsOn: Schema.Array(Schema.Number),
  chain: Schema.Array(Schema.Number),
  valid: Schema.Boolean
})

const Stats = Schema.Struct({
  claimCount: Schema.Number,
  independentCount: Schema.Number,
  issueCount: Schema.Number,
  claimsWithIssues: Schema.Number,
  bySeverity: Schema.Struct({ high: Schema.Number, medium: Schema.Number, low: Schema.Number }),
  informational: Schema.optional(Schema.Number).annotations({ description: "How many of the low findings are informational" }),
  byType: Schema.Record({ key: Schema.String, value: Schema.Number })
})

export const AntecedentResult = Schema.Struct({
  available: Schema.Boolean.annotations({ description: "Branch on this before reading issues" }),
  source: Schema.Literal("request", "warehouse"),
  appNum: Schema.optional(Schema.String),
  reason: Schema.optional(Schema.Literal("no-claims")),
  issues: Schema.optional(Schema.Array(Issue)),
  claims: Schema.optional(Schema.Array(ClaimReport)),
  dependencies: Schema.optional(Schema.Array(Dependency)),
  stats: Schema.optional(Stats),
  suppressed: Schema.optional(Schema.Array(SuppressedCandidate))
}).annotations({ identifier: "AntecedentResult" })

export const SupportResult = ClaimSupportResult

export class ClaimValidationApi extends HttpApiGroup.make("claim-validation")
  .add(
    HttpApiEndpoint.post("antecedentCheck", "/claim-validation/antecedent-basis")
      .setPayload(AntecedentRequest)
      .addSuccess(AntecedentResult)
      .addError(ClaimValidation.failed)
      .annotate(OpenApi.Summary, "Check antecedent basis in a supplied claim set")
      .annotate(Access, withBodyLimit(free("check_antecedent_basis", NO_STORE, "check_antecedent_basis"), ANTECEDENT_BODY_BYTES))
  )
  .add(
    HttpApiEndpoint.get("antecedentFiled", "/claim-validation/antecedent-basis/:appNum")
      .setPath(
        Schema.Struct({
          appNum: field(AppNum, "Application whose filed claims are checked; with no claims on file the answer is available: false, not 404.")
        })
      )
      .setUrlParams(
        Schema.Struct({
          minSeverity: Schema.optionalWith(field(Severity, MIN_SEVERITY), { default: () => "low" as const }),
          includeSuppressed: Schema.optionalWith(field(QueryBool, `${INCLUDE_SUPPRESSED} (default 0).`), { default: () => false })
        })
      )
      .addSuccess(AntecedentResult)
      .addError(ClaimValidation.pullFailed)
      .annotate(OpenApi.Summary, "Check antecedent basis in the filed claims of an application")
      .annotate(Access, metered("check_antecedent_basis", CACHE_DAY, "check_antecedent_basis"))
  )
  .add(
    HttpApiEndpoint.post("supportCheck", "/claim-validation/support")
      .setPayload(SupportRequest)
      .addSuccess(SupportResult)
      .addError(ClaimValidation.failed)
      .annotate(OpenApi.Summary, "Map claim terms to specification support")
      .annotate(Access, metered("map_claim_support", NO_STORE, "map_claim_support"))
  )
  .add(
    HttpApiEndpoint.get("supportFiled", "/claim-validation/support/:appNum")
      .setPath(Schema.Struct({ appNum: field(AppNum, "Application whose filed claims are graded against its filed specification.") }))
      .setUrlParams(
        Schema.Struct({
          parents: Schema.optionalWith(field(QueryBool, `${CONTINUITY_WALK} Send 0 to skip it (default 1: the walk runs).`), { default: () => true }),
          maxAncestors: Schema.optionalWith(field(QueryInt(0, 12), MAX_ANCESTORS), { default: () => 6 }),
          ocr: Schema.optionalWith(field(QueryBool, `${OCR} (default 0).`), { default: () => false })
        })
      )
      .addSuccess(SupportResult)
      .addError(ClaimValidation.pullFailed)
      .annotate(OpenApi.Summary, "Map filed claim terms to the filed specification, walking the continuity chain")
      .annotate(Access, metered("map_claim_support", CACHE_DAY, "map_claim_support"))
  )
  .addError(ClaimValidation.invalid)
  .annotate(RouteFamily, "claim-validation")
  .annotate(OpenApi.Description, "§112 checks: antecedent basis and written-description support; errors are `{error}`")
  .middleware(Admission)
  .prefix("/api/v1") {}
