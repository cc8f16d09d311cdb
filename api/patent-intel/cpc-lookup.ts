/**
 * CPC lookup (SPEC 2.9): the scheme entry and its children from the CPC title list, and the
 * empirical art-unit routing the prosecution stage measured for the symbol.
 */
import { Effect } from "effect"
import { normalizeCpcSymbol } from "../../core/guidance/ids.ts"
import { type CorpusUnavailable, NotFound } from "../domain/errors.ts"
import type { CpcIndex } from "./cpc-index.ts"

export interface CpcLookupOptions {
  readonly childLimit: number
  readonly distributionLimit: number
}

/** The symbol as stored: spaces and leading zeros of the main group dropped ("H04L 9/0643" → "H04L9/0643"). */
export const cpcKey = (raw: string) => normalizeCpcSymbol(raw) ?? raw.replace(/[\s\u00a0]+/g, "").toUpperCase()

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.trunc(n)))

export const lookupCpcCode = (index: Effect.Effect<CpcIndex, CorpusUnavailable>, raw: string, options: CpcLookupOptions) =>
  Effect.gen(function* () {
    const code = cpcKey(raw)
    const childLimit = clamp(options.childLimit, 0, 500)
    const distributionLimit = clamp(options.distributionLimit, 0, 500)
    const { scheme, children, routing } = yield* index
    const s = scheme.get(code)
    const r = routing.get(code)
    const allChildren = children.get(code) ?? []
    if (!s && !r && allChildren.length === 0)
      return yield* Effect.fail(new NotFound({ message: `CPC symbol ${code} is neither in the CPC scheme nor routed to any art unit` }))
    return {
      code,
      scheme: s ? { code: s.code, title: s.title ?? "", level: s.level ?? 0, parent: s.parent } : null,
      art_units: r
        ? {
            level: r.level,
            total_count: r.total_count,
            unique_art_units: r.unique_art_units,
            top_art_unit: r.top_art_unit,
            top_art_unit_probability: r.top_art_unit_probability,
            entropy: r.entropy,
            distribution: r.distribution.slice(0, distributionLimit),
            distribution_truncated: r.distribution.length > distributionLimit
          }
        : null,
      children: allChildren.slice(0, childLimit).map((c) => ({ code: c.code, title: c.title, level: c.level })),
      child_count: allChildren.length
    }
  })
