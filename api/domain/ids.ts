/** Identifiers of the patent domain as they appear in paths and bodies (digits-only strings). */
import { Schema } from "effect"
import { Matching } from "./rules.ts"

export const ApplicationNumber = (min: number, max: number) =>
  Matching(new RegExp(`^\\d{${min},${max}}$`), `must be ${min}-${max} digits`).pipe(Schema.brand("ApplicationNumber"))
export type ApplicationNumber = Schema.Schema.Type<ReturnType<typeof ApplicationNumber>>

export const ArtUnit = Matching(/^\d{3,4}$/, "must be 3-4 digits").pipe(Schema.brand("ArtUnit"))
export type ArtUnit = typeof ArtUnit.Type

/** A section letter A-H or Y followed by up to 18 digits, capitals and `/` (e.g. H04L9/32). */
export const CpcSymbol = Matching(
  /^[A-HY][0-9A-Z/]{0,18}$/,
  "must be a CPC symbol: a letter A-H or Y followed by up to 18 digits, capital letters or /"
).pipe(Schema.brand("CpcSymbol"))
export type CpcSymbol = typeof CpcSymbol.Type

/** CPC subclass such as G06F. */
export const CpcSubclass = Matching(/^[A-HY]\d{2}[A-Z]$/, "must be a CPC subclass such as G06F").pipe(
  Schema.brand("CpcSubclass")
)
