/**
 * Durable, exact request counters per key lineage and UTC day (months are sums of days).
 *
 * Exactness: check-and-increment is one synchronous step on the single Node thread, so 200
 * concurrent requests against a quota of 100 admit exactly 100.
 * Durability: each admission appends one line to the journal; the caller awaits the fsync of
 * that line before its request proceeds, so an answered metered request is always on disk.
 * Concurrent admissions share one write + fdatasync (group commit).
 *
 * Files in STATE_DIR/quota/: `snapshot.json` {generation, days} and `journal.<generation>.log`.
 * On open the journals at or above the snapshot's generation are replayed (a torn last line is
 * ignored: its request never got past the fsync), folded into a new snapshot at generation + 1
 * (temp, fsync, rename) and only then are older journals deleted — a crash at any point leaves a
 * state that replays to the same counts. No database: a journal and a rename are all this needs.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { dayOf, monthOf, nextDayStart, nextMonthStart } from "./windows.ts"

type Days = Map<string, Map<string, number>> // lineage → day → count

interface Snapshot {
  readonly generation: number
  readonly days: Record<string, Record<string, number>>
}

export interface Limits {
  readonly daily: number
  readonly monthly: number
}

export type Admission =
  | { readonly admitted: true; readonly durable: Promise<void> }
  | { readonly admitted: false; readonly limit: "daily" | "monthly"; readonly quota: number; readonly used: number; readonly resetsAt: string }

export interface Usage {
  readonly day: string
  readonly today: number
  readonly month: string
  readonly thisMonth: number
}

/** Days older than this are dropped at compaction: no window reaches back further. */
const KEEP_DAYS = 62

const journalName = (generation: number) => `journal.${generation}.log`

const readState = async (dir: string) => {
  const snapshot: Snapshot = await fs
    .readFile(path.join(dir, "snapshot.json"), "utf8")
    .then((t) => JSON.parse(t) as Snapshot)
    .catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return { generation: 0, days: {} }
      throw e
    })
  const days: Days = new Map(Object.entries(snapshot.days).map(([l, d]) => [l, new Map(Object.entries(d))]))
  const journals = (await fs.readdir(dir).catch(() => [] as Array<string>))
    .map((f) => /^journal\.(\d+)\.log$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null && Number(m[1]) >= snapshot.generation)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b)
  for (const generation of journals) {
    const text = await fs.readFile(path.join(dir, journalName(generation)), "utf8")
    const complete = text.slice(0, text.lastIndexOf("\n") + 1)
    for (const line of complete.split("\n")) {
      const [lineage, day] = line.split("\t")
      if (!lineage || !/^\d{4}-\d{2}-\d{2}$/.test(day ?? "")) continue
      bump(days, lineage, day)
    }
  }
  const maxGeneration = Math.max(snapshot.generation, ...journals)
  return { days, maxGeneration }
}

const bump = (days: Days, lineage: string, day: string) => {
  let perDay = days.get(lineage)
  if (!perDay) days.set(lineage, (perDay = new Map()))
  perDay.set(day, (perDay.get(day) ?? 0) + 1)
}

const usageOf = (days: Days, lineage: string, nowMs: number): Usage => {
  const day = dayOf(nowMs)
  const month = monthOf(day)
  let thisMonth = 0
  for (const [d, n] of days.get(lineage) ?? []) if (monthOf(d) === month) thisMonth += n
  return { day, today: days.get(lineage)?.get(day) ?? 0, month, thisMonth }
}

export class QuotaLedger {
  private pending: Array<string> = []
  private waiters: Array<{ resolve: () => void; reject: (e: unknown) => void }> = []
  private flushing = false
  /** Month totals kept incrementally so admission does not sum days. */
  private readonly months = new Map<string, number>()

  private constructor(
    private readonly days: Days,
    private readonly journal: fs.FileHandle
  ) {
    for (const [lineage, perDay] of days) for (const [d, n] of perDay) {
      const k = `${lineage}\t${monthOf(d)}`
      this.months.set(k, (this.months.get(k) ?? 0) + n)
    }
  }

  /** Recovers the counters, compacts them into a new snapshot and opens a fresh journal. */
  static async open(dir: string, nowMs = Date.now()): Promise<QuotaLedger> {
    await fs.mkdir(dir, { recursive: true })
    const { days, maxGeneration } = await readState(dir)
    const cutoff = dayOf(nowMs - KEEP_DAYS * 86_400_000)
    const kept: Snapshot["days"] = {}
    for (const [lineage, perDay] of days) {
      for (const [d, n] of perDay) if (d >= cutoff) (kept[lineage] ??= {})[d] = n
    }
    const generation = maxGeneration + 1
    const temp = path.join(dir, `snapshot.json.${process.pid}.tmp`)
    const out = await fs.open(temp, "w")
    try {
      await out.writeFile(JSON.stringify({ generation, days: kept } satisfies Snapshot))
      await out.sync()
    } finally {
      await out.close()
    }
    await fs.rename(temp, path.join(dir, "snapshot.json"))
    const dirHandle = await fs.open(dir, "r")
    await dirHandle.sync().finally(() => dirHandle.close())
    for (const f of await fs.readdir(dir)) {
      const m = /^journal\.(\d+)\.log$/.exec(f)
      if (m && Number(m[1]) < generation) await fs.rm(path.join(dir, f), { force: true })
    }
    const journal = await fs.open(path.join(dir, journalName(generation)), "a")
    const days2: Days = new Map(Object.entries(kept).map(([l, d]) => [l, new Map(Object.entries(d))]))
    return new QuotaLedger(days2, journal)
  }

  /** Read-only view for the key CLI while a server may be appending. */
  static async readUsage(dir: string, nowMs = Date.now()): Promise<(lineage: string) => Usage> {
    const { days } = await readState(dir)
    return (lineage) => usageOf(days, lineage, nowMs)
  }

  usage(lineage: string, nowMs: number): Usage {
    return usageOf(this.days, lineage, nowMs)
  }

  /** Checks both windows and counts the request in the same synchronous step. */
  admit(lineage: string, limits: Limits, nowMs: number): Admission {
    const day = dayOf(nowMs)
    const monthKey = `${lineage}\t${monthOf(day)}`
    const today = this.days.get(lineage)?.get(day) ?? 0
    const thisMonth = this.months.get(monthKey) ?? 0
    if (today >= limits.daily) {
      return { admitted: false, limit: "daily", quota: limits.daily, used: today, resetsAt: nextDayStart(nowMs).toISOString() }
    }
    if (thisMonth >= limits.monthly) {
      return { admitted: false, limit: "monthly", quota: limits.monthly, used: thisMonth, resetsAt: nextMonthStart(nowMs).toISOString() }
    }
    bump(this.days, lineage, day)
    this.months.set(monthKey, thisMonth + 1)
    return { admitted: true, durable: this.append(`${lineage}\t${day}\n`) }
  }

  private append(line: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push(line)
      this.waiters.push({ resolve, reject })
      if (!this.flushing) void this.flush()
    })
  }

  private async flush() {
    this.flushing = true
    while (this.pending.length > 0) {
      const lines = this.pending.splice(0)
      const waiters = this.waiters.splice(0)
      try {
        await this.journal.write(lines.join(""))
        await this.journal.datasync()
        for (const w of waiters) w.resolve()
      } catch (e) {
        for (const w of waiters) w.reject(e)
      }
    }
    this.flushing = false
  }

  async close() {
    while (this.flushing) await new Promise((r) => setTimeout(r, 1))
    await this.journal.close()
  }

}
