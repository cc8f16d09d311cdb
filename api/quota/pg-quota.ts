/**
 * Quota counters shared by every replica: table `quota_counters` in PostgreSQL, one row per key
 * lineage and UTC month holding the month's count and the count of the latest UTC day in it.
 *
 * Admission is one statement in one round trip, committed on its own: an upsert whose
 * ON CONFLICT … DO UPDATE increments the day and month counts only while both are under the
 * key's limits. PostgreSQL locks the row and evaluates that WHERE against its newest committed
 * version, so concurrent admissions from any number of replicas serialise on the row and exactly
 * `limit` of them succeed. The count is durable when the statement returns, before the request is
 * answered: a replica that dies afterwards leaves every answered request counted.
 *
 * A refusal is not counted; its details (which limit, how much was used) come from a second read.
 */
import type pg from "pg"
import type { Admission, Limits, Usage } from "./ledger.ts"
import { dayOf, monthOf, nextDayStart, nextMonthStart } from "./windows.ts"

export type Outcome = { readonly admitted: true } | Exclude<Admission, { readonly admitted: true }>

/**
 * $1 lineage, $2 month (first day), $3 day, $4 daily limit, $5 monthly limit. A day later than the
 * row's starts the day count afresh; an earlier one (a replica whose clock lags across midnight)
 * counts against the row's newer day, so the day never goes backwards.
 */
const ADMIT = `
  INSERT INTO quota_counters AS q (lineage, month, month_count, day, day_count)
  VALUES ($1, $2::date, 1, $3::date, 1)
  ON CONFLICT (lineage, month) DO UPDATE SET
    month_count = q.month_count + 1,
    day = GREATEST(q.day, EXCLUDED.day),
    day_count = CASE WHEN EXCLUDED.day > q.day THEN 1 ELSE q.day_count + 1 END
  WHERE q.month_count < $5 AND (EXCLUDED.day > q.day OR q.day_count < $4)
  RETURNING month_count`

const READ = `
  SELECT lineage, month_count, to_char(day, 'YYYY-MM-DD') AS day, day_count
  FROM quota_counters WHERE month = $1::date AND ($2::text IS NULL OR lineage = $2)`

interface CounterRow {
  readonly lineage: string
  readonly month_count: string
  readonly day: string
  readonly day_count: string
}

const usageFrom = (row: CounterRow | undefined, nowMs: number): Usage => {
  const day = dayOf(nowMs)
  const month = monthOf(day)
  if (!row) return { day, today: 0, month, thisMonth: 0 }
  return { day, today: row.day === day ? Number(row.day_count) : 0, month, thisMonth: Number(row.month_count) }
}

const firstOfMonth = (nowMs: number) => `${monthOf(dayOf(nowMs))}-01`

export const pgQuota = (pool: pg.Pool) => {
  const read = async (lineage: string | null, nowMs: number) =>
    (await pool.query<CounterRow>(READ, [firstOfMonth(nowMs), lineage])).rows

  return {
    /** Counts the request if both windows have room; a rejection means the database failed. */
    admit: async (lineage: string, limits: Limits, nowMs: number): Promise<Outcome> => {
      const { rowCount } = await pool.query(ADMIT, [lineage, firstOfMonth(nowMs), dayOf(nowMs), limits.daily, limits.monthly])
      if (rowCount === 1) return { admitted: true }
      const usage = usageFrom((await read(lineage, nowMs))[0], nowMs)
      return usage.today >= limits.daily
        ? { admitted: false, limit: "daily", quota: limits.daily, used: usage.today, resetsAt: nextDayStart(nowMs).toISOString() }
        : { admitted: false, limit: "monthly", quota: limits.monthly, used: usage.thisMonth, resetsAt: nextMonthStart(nowMs).toISOString() }
    },
    usage: async (lineage: string, nowMs: number): Promise<Usage> => usageFrom((await read(lineage, nowMs))[0], nowMs),
    /** Every lineage's usage this month, in one read (the key CLI's listing). */
    usageAll: async (nowMs: number): Promise<(lineage: string) => Usage> => {
      const rows = new Map((await read(null, nowMs)).map((r) => [r.lineage, r]))
      return (lineage) => usageFrom(rows.get(lineage), nowMs)
    }
  }
}
