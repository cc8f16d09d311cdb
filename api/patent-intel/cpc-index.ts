/**
 * The CPC scheme and the art-unit routing of the served version, held in memory and read by
 * symbol. Both are bounded by the CPC scheme (about 261,000 symbols), not by the number of
 * applications, so a lookup costs the same for the sample and for the national corpus; the two
 * tables are read once per version (about a second) instead of being scanned four times a request.
 */
import { Effect } from "effect"
import type { ArtifactStore } from "../artifacts/ArtifactStore.ts"
import type { CorpusUnavailable } from "../domain/errors.ts"
import { num, str } from "./stored.ts"

export interface SchemeEntry {
  readonly code: string
  readonly title: string | null
  readonly level: number | null
  readonly parent: string | null
}

export interface RoutingEntry {
  readonly level: number | null
  readonly total_count: number
  readonly unique_art_units: number
  readonly top_art_unit: string | null
  readonly top_art_unit_probability: number
  readonly entropy: number
  readonly distribution: ReadonlyArray<{ readonly au: string; readonly count: number; readonly probability: number }>
}

export interface CpcIndex {
  /** The scheme entry of a symbol (lowest level when the list repeats one). */
  readonly scheme: ReadonlyMap<string, SchemeEntry>
  /** Children of a symbol in scheme order. */
  readonly children: ReadonlyMap<string, ReadonlyArray<SchemeEntry>>
  readonly routing: ReadonlyMap<string, RoutingEntry>
}

const MAIN_GROUP = /^[A-HY][0-9]{2}[A-Z]([0-9]+)\//

/**
 * Scheme order: main groups by number (H04L1/00 before H04L12/00), symbols without a main group
 * first; below a main group the subgroup digits are a decimal fraction, so the text order of the
 * symbols is the scheme order (the same order the SQL this replaces produced).
 */
const schemeOrder = (a: SchemeEntry, b: SchemeEntry) => {
  const ga = MAIN_GROUP.exec(a.code)?.[1]
  const gb = MAIN_GROUP.exec(b.code)?.[1]
  if (ga === undefined && gb !== undefined) return -1
  if (gb === undefined && ga !== undefined) return 1
  if (ga !== undefined && gb !== undefined && Number(ga) !== Number(gb)) return Number(ga) - Number(gb)
  return a.code < b.code ? -1 : a.code > b.code ? 1 : 0
}

export const loadCpcIndex = (store: ArtifactStore): Effect.Effect<CpcIndex, CorpusUnavailable> =>
  Effect.gen(function* () {
    const [schemeRows, routingRows] = yield* Effect.all(
      [
        store.query(`SELECT symbol, title, level, parent FROM cpc_scheme ORDER BY symbol, level`, [], ["cpc_scheme"]),
        store.query(
          `SELECT symbol, level, total_count, unique_art_units, top_art_unit, top_art_unit_probability, entropy, distribution FROM cpc_routing`,
          [],
          ["cpc_routing"]
        )
      ],
      { concurrency: 2 }
    )
    const scheme = new Map<string, SchemeEntry>()
    const children = new Map<string, Array<SchemeEntry>>()
    for (const r of schemeRows) {
      const entry: SchemeEntry = { code: String(r.symbol), title: str(r.title), level: r.level === null ? null : num(r.level), parent: str(r.parent) }
      if (!scheme.has(entry.code)) scheme.set(entry.code, entry)
      if (entry.parent !== null) {
        const list = children.get(entry.parent)
        if (list) list.push(entry)
        else children.set(entry.parent, [entry])
      }
    }
    for (const list of children.values()) list.sort(schemeOrder)
    const routing = new Map<string, RoutingEntry>()
    for (const r of routingRows) {
      const symbol = String(r.symbol)
      if (routing.has(symbol)) continue
      routing.set(symbol, {
        level: r.level === null ? null : num(r.level),
        total_count: num(r.total_count),
        unique_art_units: num(r.unique_art_units),
        top_art_unit: str(r.top_art_unit),
        top_art_unit_probability: num(r.top_art_unit_probability),
        entropy: num(r.entropy),
        distribution: ((r.distribution ?? []) as Array<Record<string, unknown>>).map((d) => ({ au: String(d.au), count: num(d.count), probability: num(d.probability) }))
      })
    }
    return { scheme, children, routing }
  }).pipe(Effect.withSpan("CpcIndex.load", { captureStackTrace: false }))

