/**
 * The docket: the few facts about every application that other applications need: its topic,
 * when it issued or was abandoned, its grant number, and its continuation family. Kept in typed
 * arrays (about 26 bytes an application: 26 MB for a million) so documents themselves are never
 * held; each is regenerated from its seed when written.
 *
 * Filing dates, application numbers and publication dates are arithmetic on the index (filing
 * order is index order), so they cost nothing to store and are monotone: "every document published
 * before day d" is a prefix of the index range, found by binary search.
 */
import { dayOf, onOrAfter, THURSDAY, yearOf } from "./dates.ts"
import { prosecute } from "./prosecution.ts"
import { docRng, hash2, Stream } from "./random.ts"
import { topicAt, type TopicSet } from "./topics.ts"

/** USPTO utility filings run near 7,700 a week; smaller corpora are spread over two years. */
const FILINGS_PER_WEEK = 7700
const MIN_WEEKS = 104
/** First filing day: Monday 7 January 2013. */
const FIRST_FILING = dayOf(2013, 1, 7)
/** Publication 18 months after filing. */
const PUBLICATION_DELAY = 547
/** The data snapshot: three years after the last filing, so most applications are disposed of. */
const SNAPSHOT_DELAY = 3 * 365
/** First grant number: US 8,600,000 issued in late 2013. */
const FIRST_GRANT = 8_600_000
/** Application numbers start in series code 13 and rise about 10,000 a week, as the Office's do
 * (the corpus holds only some of the applications numbered in a week). */
const FIRST_APPLICATION = 13_000_001
const NUMBERS_PER_WEEK = 10_000

export type Status = "Patented" | "Abandoned" | "Pending"

export interface DocketData {
  readonly topic: Uint16Array | Uint32Array
  readonly issueDay: Int32Array
  readonly abandonedDay: Int32Array
  readonly grantRank: Int32Array
  readonly issueOrder: Int32Array
  readonly topicStart: Int32Array
  readonly topicDocs: Int32Array
  readonly parentOf: Int32Array
  readonly childOf: Int32Array
}

const shared = (length: number): Int32Array => new Int32Array(new SharedArrayBuffer(4 * Math.max(1, length))).subarray(0, length)

export class Docket {
  readonly n: number
  readonly seed: number
  readonly topics: TopicSet
  readonly weeks: number
  readonly snapshotDay: number
  /** Topic index of each application. */
  readonly topic: Uint16Array | Uint32Array
  /** Issue day (0: not issued by the snapshot). */
  readonly issueDay: Int32Array
  /** Abandonment day (0: not abandoned by the snapshot). */
  readonly abandonedDay: Int32Array
  /** Rank in issue order (-1: not issued); the grant number is FIRST_GRANT + rank. */
  readonly grantRank: Int32Array
  /** Issued applications in issue order. */
  readonly issueOrder: Int32Array
  /** Applications of topic t, ascending: topicDocs[topicStart[t] .. topicStart[t+1]). */
  readonly topicStart: Int32Array
  readonly topicDocs: Int32Array
  /** Continuation family: the parent this application continues, and its (single) continuation. */
  readonly parentOf: Int32Array
  readonly childOf: Int32Array
  private readonly appStride: number
  private readonly pubStride: number
  private readonly firstOfYear = new Map<number, number>()

  constructor(n: number, seed: number, topics: TopicSet, data: DocketData) {
    this.n = n
    this.seed = seed
    this.topics = topics
    this.weeks = Math.max(MIN_WEEKS, Math.ceil(n / FILINGS_PER_WEEK))
    this.snapshotDay = this.filingDay(n - 1) + SNAPSHOT_DELAY
    this.appStride = Math.max(1, Math.floor((NUMBERS_PER_WEEK * this.weeks) / n))
    this.pubStride = Math.max(1, Math.floor(330_000 / Math.max(1, (n * 52) / this.weeks)))
    this.topic = data.topic
    this.issueDay = data.issueDay
    this.abandonedDay = data.abandonedDay
    this.grantRank = data.grantRank
    this.issueOrder = data.issueOrder
    this.topicStart = data.topicStart
    this.topicDocs = data.topicDocs
    this.parentOf = data.parentOf
    this.childOf = data.childOf
  }

  /** The arrays, to hand to worker threads (shared memory, not copied). */
  get data(): DocketData {
    const { topic, issueDay, abandonedDay, grantRank, issueOrder, topicStart, topicDocs, parentOf, childOf } = this
    return { topic, issueDay, abandonedDay, grantRank, issueOrder, topicStart, topicDocs, parentOf, childOf }
  }

  /** Draws every application's topic and prosecution outcome, numbers grants, links continuations. */
  static build(n: number, seed: number, topics: TopicSet): Docket {
    const t = topics.topics.length
    const data: DocketData = {
      topic: t <= 65535 ? new Uint16Array(new SharedArrayBuffer(2 * n)) : new Uint32Array(new SharedArrayBuffer(4 * n)),
      issueDay: shared(n),
      abandonedDay: shared(n),
      grantRank: shared(n).fill(-1),
      issueOrder: shared(0),
      topicStart: shared(t + 1),
      topicDocs: shared(n),
      parentOf: shared(n).fill(-1),
      childOf: shared(n).fill(-1)
    }
    const docket = new Docket(n, seed, topics, data)
    const { topic, topicStart, topicDocs, issueDay, abandonedDay, grantRank } = data
    for (let i = 0; i < n; i++) topic[i] = topicAt(topics, docRng(seed, i, Stream.header).next())
    for (let i = 0; i < n; i++) topicStart[topic[i] + 1]++
    for (let k = 0; k < t; k++) topicStart[k + 1] += topicStart[k]
    const fill = topicStart.slice(0, t)
    for (let i = 0; i < n; i++) topicDocs[fill[topic[i]]++] = i

    let issued = 0
    for (let i = 0; i < n; i++) {
      const o = prosecute(docRng(seed, i, Stream.prosecution), docket.caseOf(i))
      if (o.issueDay > 0 && o.issueDay <= docket.snapshotDay) {
        issueDay[i] = o.issueDay
        issued++
      }
      if (o.abandonedDay > 0 && o.abandonedDay <= docket.snapshotDay) abandonedDay[i] = o.abandonedDay
      docket.linkContinuation(i, o.firstActionDay)
    }

    const order = shared(issued)
    let k = 0
    for (let i = 0; i < n; i++) if (issueDay[i] > 0) order[k++] = i
    order.sort((a, b) => issueDay[a] - issueDay[b] || a - b)
    for (let r = 0; r < issued; r++) grantRank[order[r]] = r
    return new Docket(n, seed, topics, { ...data, issueOrder: order })
  }

  /** What prosecution needs to know about application i. */
  caseOf(i: number): { filingDay: number; pubDay: number; smallEntity: boolean } {
    const h = docRng(this.seed, i, Stream.header)
    h.next() // the topic draw
    return { filingDay: this.filingDay(i), pubDay: this.pubDay(i), smallEntity: h.chance(0.2) }
  }

  /**
   * About one application in five gets a continuation: a later application of the same topic,
   * filed while this one is pending (after its first action), becomes its child.
   */
  private linkContinuation(j: number, firstAction: number): void {
    const rng = docRng(this.seed, j, Stream.continuity)
    if (!rng.chance(0.2)) return
    const end = this.issueDay[j] || this.abandonedDay[j] || this.snapshotDay
    if (end <= firstAction) return
    const from = Math.max(j + 1, this.firstFiledOnOrAfter(firstAction + rng.next() * (end - firstAction)))
    const t = this.topic[j]
    let lo = this.topicStart[t]
    let hi = this.topicStart[t + 1]
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.topicDocs[mid] < from) lo = mid + 1
      else hi = mid
    }
    if (lo >= this.topicStart[t + 1]) return
    const child = this.topicDocs[lo]
    if (this.filingDay(child) >= end || this.parentOf[child] !== -1) return
    this.parentOf[child] = j
    this.childOf[j] = child
  }

  /** Business days spread evenly over the filing weeks, in index order. */
  filingDay(i: number): number {
    const bd = Math.floor((i * this.weeks * 5) / this.n)
    return FIRST_FILING + 7 * Math.floor(bd / 5) + (bd % 5)
  }

  /** Pre-grant publication: the Thursday 18 months after filing. */
  pubDay(i: number): number {
    return onOrAfter(this.filingDay(i) + PUBLICATION_DELAY, THURSDAY)
  }

  /** 8 digits, series code first ("13052945"). */
  appNumber(i: number): string {
    const jitter = this.appStride > 1 ? hash2(this.seed, i) % this.appStride : 0
    return String(FIRST_APPLICATION + i * this.appStride + jitter)
  }

  /** 11 digits: publication year and a sequence rising through the year ("20190124818"). */
  pubNumber(i: number): string {
    const year = yearOf(this.pubDay(i))
    let first = this.firstOfYear.get(year)
    if (first === undefined) {
      let lo = 0
      let hi = this.n
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (yearOf(this.pubDay(mid)) < year) lo = mid + 1
        else hi = mid
      }
      first = lo
      this.firstOfYear.set(year, first)
    }
    return String(year) + String(1 + (i - first) * this.pubStride).padStart(7, "0")
  }

  /** 7 digits, increasing with the issue date; undefined when not issued. */
  grantNumber(i: number): string | undefined {
    const r = this.grantRank[i]
    return r < 0 ? undefined : String(FIRST_GRANT + r)
  }

  /** The status of application i as it stood on `day`. */
  statusOn(i: number, day: number): Status {
    const issued = this.issueDay[i]
    if (issued > 0 && issued <= day) return "Patented"
    const abandoned = this.abandonedDay[i]
    if (abandoned > 0 && abandoned <= day) return "Abandoned"
    return "Pending"
  }

  /** The last application published strictly before `day` (-1: none): prior art is a prefix. */
  lastPublishedBefore(day: number): number {
    let lo = 0
    let hi = this.n
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.pubDay(mid) < day) lo = mid + 1
      else hi = mid
    }
    return lo - 1
  }

  firstFiledOnOrAfter(day: number): number {
    let lo = 0
    let hi = this.n
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.filingDay(mid) < day) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** The first application of a continuation chain. */
  familyRoot(i: number): number {
    let r = i
    for (let guard = 0; guard < 64 && this.parentOf[r] >= 0; guard++) r = this.parentOf[r]
    return r
  }
}
