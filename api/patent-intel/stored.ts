/**
 * Reading the prosecution stage's tables: JSON sections are stored as JSON text, counts come back
 * from DuckDB as bigint, and one stored figure (the average number of independent claims) is only
 * served where it can be trusted.
 */
import { Effect, Option } from "effect"
import type { ArtifactStore } from "../artifacts/ArtifactStore.ts"
import type { CorpusUnavailable } from "../domain/errors.ts"

/** ArtifactStore.query: parameterised SQL ($1, $2 …) over the served version's tables. */
export type Query = ArtifactStore["query"]

export type Json = Record<string, unknown>

/**
 * One record by key from a serving record file (core/serving): Some(read) when the served version
 * has the file, None when it predates the serving stage and the caller must use SQL.
 */
export type RecordLookup = <R = Json>(name: string, key: string) => Option.Option<Effect.Effect<R | undefined, CorpusUnavailable>>

export const recordLookup =
  (store: ArtifactStore): RecordLookup =>
  <R>(name: string, key: string) =>
    Option.map(store.records<R>(name), (file) => Effect.map(store.readRecords(file, [key]), (found) => found.get(key)))

/** The record when the version has the file, else the first row of the SQL fallback. */
export const recordOr = <R>(lookup: Option.Option<Effect.Effect<R | undefined, CorpusUnavailable>>, fallback: () => Effect.Effect<ReadonlyArray<R>, CorpusUnavailable>) =>
  Option.getOrElse(lookup, () => Effect.map(fallback(), (rows) => rows[0]))

/** A JSON text column as a value; SQL NULL (a section never computed) stays null. */
export const parseStored = (text: unknown): unknown => (text === null || text === undefined ? null : JSON.parse(String(text)))

export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v)

export const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v))

export const num = (v: unknown): number => (typeof v === "bigint" ? Number(v) : Number(v ?? 0))

const AVG_FIELD = "claims_analysis.independentClaimsStats.avgIndependentClaims"

/**
 * `claims_analysis` with `independentClaimsStats.avgIndependentClaims` set to null, with a note,
 * when the stored value cannot be right: a claim set has at least one independent claim and no
 * more independent claims than claims. The stage already nulls values it knows to be unreliable
 * (and notes why); this guards the figure against anything it missed. A withheld entry is added
 * to `dataQuality.withheld` when given.
 */
export const guardClaimsAnalysis = (claims: unknown, dataQuality?: unknown): unknown => {
  if (!isObject(claims) || !isObject(claims.independentClaimsStats)) return claims
  const stats = claims.independentClaimsStats
  const avg = stats.avgIndependentClaims
  const total = stats.avgClaims
  let reason: string | undefined
  if (typeof avg === "number" && (!Number.isFinite(avg) || avg < 1 || (typeof total === "number" && avg > total)))
    reason = `the stored average (${avg}) is impossible for claim sets with ${typeof total === "number" ? `${total} claims on average` : "these claims"}`
  else if (avg !== null && avg !== undefined && typeof avg !== "number") reason = "the stored average is not a number"
  else if ((avg === null || avg === undefined) && num(stats.n) > 0 && typeof stats.note !== "string")
    reason = "the stored average was withheld as unreliable"
  if (!reason) return claims
  if (isObject(dataQuality) && Array.isArray(dataQuality.withheld) && typeof avg === "number")
    dataQuality.withheld.push({ field: AVG_FIELD, reason })
  const note = typeof stats.note === "string" ? `${stats.note}; ${reason}` : reason
  return { ...claims, independentClaimsStats: { ...stats, avgIndependentClaims: null, note } }
}

/** Technology center of an art unit as the stage derives it ("2863" → "2800"). */
export const technologyCenterOf = (artUnit: string | null) => (artUnit && /^\d{3,4}$/.test(artUnit) ? `${artUnit.slice(0, 2)}00` : null)

export { variantArtUnitSql } from "../../core/prosecution/sections.ts"
