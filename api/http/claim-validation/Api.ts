/** Claim validation under §112 (SPEC 4.3): payloads returned directly; errors `{error}` alone. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ApplicationNumber } from "../../domain/ids.ts"
import { ClaimSupportResult } from "../../claim-validation/support-schema.ts"
import { BodyBool, BodyInt, ListOf, QueryBool, QueryInt, Severity, Text } from "../../domain/rules.ts"
import { ClaimValidation } from "../envelopes.ts"
import { Access, CACHE_DAY, free, metered, NO_STORE, RouteFamily, withBodyLimit } from "../route-meta.ts"

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

/**
 * The antecedent POST carries claims alone: a body over 4 MiB cannot be a legal claim set of
 * ordinary text (1M characters, with room for escapes and multi-byte letters), so it is refused
 * (413) from its Content-Length, before a byte of it is parsed.
 */
export const ANTECEDENT_BODY_BYTES = 4 * 1024 * 1024

/** Antecedent check entries: `{number?, text}` or a bare string; unusable entries are skipped. */
export const AntecedentClaim = Schema.Union(ClaimText, Schema.Struct({ number: Schema.optional(ClaimNumber), text: ClaimText }))

const claimTextOf = (c: typeof AntecedentClaim.Type) => (typeof c === "string" ? c : c.text)
const totalChars = (texts: ReadonlyArray<string>) => texts.reduce((n, t) => n + t.length, 0)
const claimSetBudget = `the claims together must hold at most ${MAX_CLAIM_SET_CHARS} characters`

const usableText = (c: typeof AntecedentClaim.Type) => (typeof c === "string" ? c : c.text).trim().length >= 10

export const AntecedentRequest = Schema.Struct({
  claims: ListOf(AntecedentClaim, 0, 300, "claims"),
  minSeverity: Schema.optionalWith(Severity, { default: () => "low" as const }),
  includeSuppressed: Schema.optionalWith(BodyBool, { default: () => false })
}).pipe(
  Schema.filter((b) => b.claims.some(usableText) || { path: ["claims"], message: "no claim carried usable text (each claim needs at least 10 characters)" }),
  Schema.filter((b) => totalChars(b.claims.map(claimTextOf)) <= MAX_CLAIM_SET_CHARS || { path: ["claims"], message: claimSetBudget }),
  Schema.annotations({
    identifier: "AntecedentRequest",
    description: `At least one claim must carry 10 or more characters of text; shorter entries are skipped. Budgets: each claim at most ${MAX_CLAIM_CHARS} characters, ${claimSetBudget}`
  })
)

export const SupportClaim = Schema.Struct({ number: Schema.optional(ClaimNumber), text: Text(10, MAX_CLAIM_CHARS) })
export const SupportSection = Schema.Struct({
  type: Schema.optional(Text(0, 200)),
  name: Schema.optional(Text(0, 500)),
  text: Text(1, MAX_SECTION_CHARS)
})
const specificationBudget = `the sections together must hold at most ${MAX_SPECIFICATION_CHARS} characters`

export const SupportRequest = Schema.Struct({
  claims: ListOf(SupportClaim, 1, 300, "claims"),
  sections: Schema.optional(ListOf(SupportSection, 0, 60, "sections")),
  appNum: Schema.optional(AppNum),
  includeParents: Schema.optionalWith(BodyBool, { default: () => false }),
  maxAncestors: Schema.optionalWith(BodyInt(0, 12), { default: () => 6 }),
  ocr: Schema.optionalWith(BodyBool, { default: () => false })
}).pipe(
  Schema.filter((b) => (b.sections !== undefined && b.sections.length > 0) || b.appNum !== undefined || "sections or appNum: supply at least one of them"),
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
      .setPath(Schema.Struct({ appNum: AppNum }))
      .setUrlParams(
        Schema.Struct({
          minSeverity: Schema.optionalWith(Severity, { default: () => "low" as const }),
          includeSuppressed: Schema.optionalWith(QueryBool, { default: () => false })
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
      .setPath(Schema.Struct({ appNum: AppNum }))
      .setUrlParams(
        Schema.Struct({
          parents: Schema.optionalWith(QueryBool, { default: () => true }),
          maxAncestors: Schema.optionalWith(QueryInt(0, 12), { default: () => 6 }),
          ocr: Schema.optionalWith(QueryBool, { default: () => false })
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
  .prefix("/api/v1") {}
