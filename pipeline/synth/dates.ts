/**
 * Calendar arithmetic on day numbers (days since 1970-01-01, UTC). Documents carry dates as
 * integers so ordering and offsets are exact and cheap; strings are made once per distinct day.
 */

/** Day number of a calendar date. */
export const dayOf = (y: number, m: number, d: number): number => Math.floor(Date.UTC(y, m - 1, d) / 86_400_000)

/** 0 = Sunday … 6 = Saturday. */
export const weekday = (day: number): number => (((day + 4) % 7) + 7) % 7

export const TUESDAY = 2
export const THURSDAY = 4

/** The first given weekday on or after `day` (grants issue on Tuesdays, publications on Thursdays). */
export const onOrAfter = (day: number, wd: number): number => day + ((wd - weekday(day) + 7) % 7)

/** The next business day on or after `day` (the Office records nothing on weekends). */
export const businessDay = (day: number): number => {
  const wd = weekday(day)
  return wd === 6 ? day + 2 : wd === 0 ? day + 1 : day
}

interface Civil {
  readonly y: number
  readonly m: number
  readonly d: number
}

/** Howard Hinnant's days→civil algorithm. */
const civil = (z0: number): Civil => {
  const z = z0 + 719468
  const era = Math.floor(z / 146097)
  const doe = z - era * 146097
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1
  const m = mp < 10 ? mp + 3 : mp - 9
  return { y: yoe + era * 400 + (m <= 2 ? 1 : 0), m, d }
}

const p2 = (n: number): string => (n < 10 ? "0" + n : String(n))

const cache = new Map<number, Civil>()
const civilOf = (day: number): Civil => {
  let c = cache.get(day)
  if (c === undefined) {
    c = civil(day)
    if (cache.size < 200_000) cache.set(day, c)
  }
  return c
}

export const yearOf = (day: number): number => civilOf(day).y

/** 20180926 — USPTO XML dates. */
export const ymd = (day: number): string => {
  const c = civilOf(day)
  return `${c.y}${p2(c.m)}${p2(c.d)}`
}

/** 20180900 — month-precision dates of cited documents, as in us-citation. */
export const ym00 = (day: number): string => {
  const c = civilOf(day)
  return `${c.y}${p2(c.m)}00`
}

/** 2018-09-26 */
export const isoDate = (day: number): string => {
  const c = civilOf(day)
  return `${c.y}-${p2(c.m)}-${p2(c.d)}`
}

/** 09-26-2018 — PEDS continuity and assignment dates. */
export const mdy = (day: number): string => {
  const c = civilOf(day)
  return `${p2(c.m)}-${p2(c.d)}-${c.y}`
}

/** 180926 — weekly bulk file names (ipg180925.xml). */
export const yymmdd = (day: number): string => ymd(day).slice(2)

export const MONTH = 30.4375
