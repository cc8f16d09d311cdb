/**
 * References cited on a grant. Most point at earlier documents of this corpus in the same topic
 * (recent ones more often), some at the same subclass, a few anywhere; the rest at older
 * patents outside the corpus, as real citation lists reach back decades. Every cited document
 * was published before the citing application was filed. Examiners cite fewer, closer documents
 * than applicants do.
 */
import type { Docket } from "./docket.ts"
import { ym00 } from "./dates.ts"
import { docRng, Rng, Stream } from "./random.ts"
import { SURNAMES } from "./names.ts"
import { escapeXml } from "./xml.ts"

export interface Citation {
  readonly number: string
  readonly kind: string
  /** First inventor's surname, XML-escaped, as in <name>. */
  readonly name: string
  /** YYYYMM00 */
  readonly date: string
  readonly byExaminer: boolean
  /** Main CPC of the cited document (examiner citations carry it). */
  readonly cpcText?: string
}

/** The first inventor's surname of application i: the first draw of its family's parties stream. */
export const firstInventorSurname = (docket: Docket, i: number): string =>
  docRng(docket.seed, docket.familyRoot(i), Stream.parties).pick(SURNAMES)

/** Picks an earlier document of topic t published before the citing filing; -1 when none. */
const pickInTopic = (docket: Docket, t: number, lastPublished: number, rng: Rng): number => {
  const start = docket.topicStart[t]
  let lo = start
  let hi = docket.topicStart[t + 1]
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (docket.topicDocs[mid] <= lastPublished) lo = mid + 1
    else hi = mid
  }
  const available = lo - start
  if (available === 0) return -1
  const back = Math.min(available - 1, Math.floor(rng.exponential(Math.max(3, available / 4))))
  return docket.topicDocs[lo - 1 - back]
}

/** An older US patent outside the corpus: numbers and dates follow the real series. */
const legacy = (rng: Rng, byExaminer: boolean, cpcText: string): Citation => {
  const number = 3_000_000 + rng.int(5_300_000) // up to late 2012, before the first filing
  // 3,000,000 issued in 1961, 4,000,000 in 1976, 5,000,000 in 1991, 6,000,000 in 1999, 8,000,000 in 2011.
  const year = number < 4e6 ? 1961 + (number - 3e6) / 66_700 : number < 5e6 ? 1976 + (number - 4e6) / 66_700 : number < 6e6 ? 1991 + (number - 5e6) / 125_000 : 1999 + (number - 6e6) / 166_700
  const month = 1 + rng.int(12)
  const name = rng.pick(SURNAMES) + (rng.chance(0.45) ? " et al." : "")
  return {
    number: String(number),
    kind: number < 6_170_000 ? "A" : rng.chance(0.8) ? "B2" : "B1",
    name: escapeXml(name),
    date: `${Math.floor(year)}${month < 10 ? "0" + month : month}00`,
    byExaminer,
    cpcText
  }
}

/** The references a grant of application i cites, in the order a grant lists them. */
export const citationsFor = (docket: Docket, i: number): Citation[] => {
  const { seed, topics } = docket
  const rng = docRng(seed, i, Stream.citations)
  const filing = docket.filingDay(i)
  const lastPublished = docket.lastPublishedBefore(filing)
  const own = docket.topic[i]
  const topic = topics.topics[own]
  const examinerCount = 2 + Math.min(10, Math.floor(rng.exponential(3)))
  const applicantCount = Math.min(40, Math.floor(rng.exponential(7)))
  const seen = new Set<number>()
  const out: Citation[] = []
  for (let k = 0; k < examinerCount + applicantCount; k++) {
    const byExaminer = k < examinerCount
    if (lastPublished >= 0 && rng.chance(byExaminer ? 0.8 : 0.65)) {
      const u = rng.next()
      const t =
        u < (byExaminer ? 0.82 : 0.7)
          ? own
          : u < 0.95
            ? topic.familyStart + rng.int(topic.familyEnd - topic.familyStart)
            : rng.int(topics.topics.length)
      const j = pickInTopic(docket, t, lastPublished, rng)
      if (j >= 0 && j !== docket.parentOf[i] && !seen.has(j)) {
        seen.add(j)
        const surname = firstInventorSurname(docket, j)
        const name = escapeXml(rng.chance(0.45) ? surname + " et al." : surname)
        const cpcText = topics.topics[docket.topic[j]].cpcText
        const issued = docket.issueDay[j]
        out.push(
          issued > 0 && issued < filing
            ? { number: docket.grantNumber(j)!, kind: "B2", name, date: ym00(issued), byExaminer, cpcText }
            : { number: docket.pubNumber(j), kind: "A1", name, date: ym00(docket.pubDay(j)), byExaminer, cpcText }
        )
        continue
      }
    }
    out.push(legacy(rng, byExaminer, topic.cpcText))
  }
  // Grants list US references by number within each kind: patents first, then publications.
  return out.sort((a, b) => (a.kind === "A1" ? 1 : 0) - (b.kind === "A1" ? 1 : 0) || a.number.length - b.number.length || (a.number < b.number ? -1 : a.number > b.number ? 1 : 0))
}
