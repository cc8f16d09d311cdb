/**
 * CPC lookup (SPEC 2.9): the scheme entry and its children from the CPC title list, and the
 * empirical art-unit routing the prosecution stage measured for the symbol.
 */
import { Effect } from "effect"
import { normalizeCpcSymbol } from "../../core/guidance/ids.ts"
import { NotFound } from "../domain/errors.ts"
import { num, str, type Query } from "./stored.ts"

export interface CpcLookupOptions {
  readonly childLimit: number
  readonly distributionLimit: number
}

/** The symbol as stored: spaces and leading zeros of the main group dropped ("H04L 9/0643" → "H04L9/0643"). */
export const cpcKey = (raw: string) => normalizeCpcSymbol(raw) ?? raw.replace(/[\s\u00a0]+/g, "").toUpperCase()

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.trunc(n)))

// Children in scheme order: main groups by number (H04L1/00 before H04L12/00); below a main group
// the subgroup digits are a decimal fraction, so the text order of the symbols is the scheme order.
const childrenSql = `
  SELECT symbol AS code, title, level FROM cpc_scheme WHERE parent = $1
  ORDER BY try_cast(regexp_extract(symbol, '^[A-HY][0-9]{2}[A-Z]([0-9]+)/', 1) AS INTEGER) NULLS FIRST, symbol
  LIMIT $2`

export const lookupCpcCode = (query: Query, raw: string, options: CpcLookupOptions) =>
  Effect.gen(function* () {
    const code = cpcKey(raw)
    const childLimit = clamp(options.childLimit, 0, 500)
    const distributionLimit = clamp(options.distributionLimit, 0, 500)
    const [schemeRows, children, [counted], routingRows] = yield* Effect.all(
      [
        query(`SELECT symbol, title, level, parent FROM cpc_scheme WHERE symbol = $1 ORDER BY level LIMIT 1`, [code], ["cpc_scheme"]),
        childLimit > 0 ? query(childrenSql, [code, childLimit], ["cpc_scheme"]) : Effect.succeed([]),
        query(`SELECT count(*)::INTEGER AS n FROM cpc_scheme WHERE parent = $1`, [code], ["cpc_scheme"]),
        query(
          `SELECT level, total_count, unique_art_units, top_art_unit, top_art_unit_probability, entropy, distribution
           FROM cpc_routing WHERE symbol = $1 LIMIT 1`,
          [code],
          ["cpc_routing"]
        )
      ],
      { concurrency: "unbounded" }
    )
    const childCount = num(counted?.n)
    if (schemeRows.length === 0 && routingRows.length === 0 && childCount === 0)
      return yield* Effect.fail(new NotFound({ message: `CPC symbol ${code} is neither in the CPC scheme nor routed to any art unit` }))

    const s = schemeRows[0]
    const r = routingRows[0]
    const distribution = ((r?.distribution ?? []) as Array<Record<string, unknown>>).map((d) => ({
      au: String(d.au),
      count: num(d.count),
      probability: num(d.probability)
    }))
    return {
      code,
      scheme: s ? { code: String(s.symbol), title: str(s.title) ?? "", level: num(s.level), parent: str(s.parent) } : null,
      art_units: r
        ? {
            level: r.level === null ? null : num(r.level),
            total_count: num(r.total_count),
            unique_art_units: num(r.unique_art_units),
            top_art_unit: str(r.top_art_unit),
            top_art_unit_probability: num(r.top_art_unit_probability),
            entropy: num(r.entropy),
            distribution: distribution.slice(0, distributionLimit),
            distribution_truncated: distribution.length > distributionLimit
          }
        : null,
      children: children.map((c) => ({ code: String(c.code), title: str(c.title), level: c.level === null ? null : num(c.level) })),
      child_count: childCount
    }
  })
