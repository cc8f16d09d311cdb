/** Antecedent-basis checking of claim sets (§112(b)): the public entry point. */
export { checkAntecedentBasis } from "./check.ts"
export type * from "./types.ts"
