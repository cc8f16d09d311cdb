/**
 * Reference filters (SPEC 4.1) as one predicate over corpus keys.
 *
 * Date bounds name a period: `2015` is the whole year, `2015-06` the whole month. filedBefore
 * excludes references filed on or after the period's first day; filedAfter excludes those filed
 * on or before its last day ("filed after 2015" starts in 2016). References whose filing date
 * is unknown are excluded by either bound: they cannot be shown to satisfy it.
 * cpc3 keeps references carrying at least one of the subclasses; references without CPC data
 * are excluded, not ranked lower. country keeps one publication country.
 */
import type { SearchCorpus } from "./corpus.ts"

export interface ReferenceFilter {
  readonly filedBefore?: string
  readonly filedAfter?: string
  readonly cpc3?: ReadonlyArray<string>
  readonly country?: string
}

const parts = (bound: string) => {
  const [y, m, d] = bound.split("-").map(Number)
  return { y, m, d }
}

/** First day of the period as YYYYMMDD. */
export const periodStart = (bound: string) => {
  const { y, m, d } = parts(bound)
  return y * 10000 + (m ?? 1) * 100 + (d ?? 1)
}

/** Last day of the period as YYYYMMDD. */
export const periodEnd = (bound: string) => {
  const { y, m, d } = parts(bound)
  if (m === undefined) return y * 10000 + 1231
  if (d === undefined) return y * 10000 + m * 100 + new Date(Date.UTC(y, m, 0)).getUTCDate()
  return y * 10000 + m * 100 + d
}

/** YYYYMMDD as YYYY-MM-DD, the form a date bound is written in. */
export const ymd = (n: number) => `${String(Math.floor(n / 10000)).padStart(4, "0")}-${String(Math.floor(n / 100) % 100).padStart(2, "0")}-${String(n % 100).padStart(2, "0")}`

export interface CompiledFilter {
  readonly active: boolean
  readonly accepts: (key: number) => boolean
  /** What was applied, in words a client can check (metadata.filter). */
  readonly applied: Record<string, unknown>
}

export const compileFilter = (corpus: SearchCorpus, f: ReferenceFilter): CompiledFilter => {
  const tests: Array<(key: number) => boolean> = []
  const applied: Record<string, unknown> = {}
  if (f.filedBefore !== undefined) {
    const limit = periodStart(f.filedBefore)
    tests.push((k) => corpus.filed[k] !== 0 && corpus.filed[k] < limit)
    applied.filedBefore = { requested: f.filedBefore, filed_before: ymd(limit), rule: "filing date earlier than this day" }
  }
  if (f.filedAfter !== undefined) {
    const limit = periodEnd(f.filedAfter)
    tests.push((k) => corpus.filed[k] > limit)
    applied.filedAfter = { requested: f.filedAfter, filed_after: ymd(limit), rule: "filing date later than this day" }
  }
  if (f.filedBefore !== undefined || f.filedAfter !== undefined) applied.undated = "excluded"
  if (f.cpc3 !== undefined && f.cpc3.length > 0) {
    const wanted = [...new Set(f.cpc3.map((s) => s.toUpperCase()))].sort()
    const ids = new Set(wanted.map((s) => corpus.subclasses.indexOf(s)).filter((i) => i >= 0))
    tests.push((k) => {
      for (let i = corpus.cpcOffsets[k]; i < corpus.cpcOffsets[k + 1]; i++) if (ids.has(corpus.cpcIds[i])) return true
      return false
    })
    applied.cpc3 = { subclasses: wanted, without_cpc: "excluded", unknown_in_corpus: wanted.filter((s) => !corpus.subclasses.includes(s)) }
  }
  if (f.country !== undefined) {
    const id = corpus.countries.indexOf(f.country.toUpperCase())
    tests.push((k) => corpus.country[k] === id)
    applied.country = f.country.toUpperCase()
  }
  const accepts = tests.length === 0 ? () => true : (k: number) => tests.every((t) => t(k))
  return { active: tests.length > 0, accepts, applied }
}
