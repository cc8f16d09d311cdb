/**
 * What a void is about, from the art around it: its CPC section and bordering subclasses with
 * their scheme titles, the temporal profile, exemplars, active assignees and a summary sentence.
 * The summary is a template filled from the bordering CPC titles and the exemplars' titles (no
 * language model is involved); `summarySource` says so in every void.
 */
import { RECENT_YEARS } from "./opportunity.ts"

export interface BorderingArt {
  readonly appNum: string
  readonly distance: number
  readonly x: number
  readonly y: number
  readonly z: number
  readonly title: string | null
  readonly filingYear: number | null
  readonly section: string | null
  readonly subclass: string | null
  readonly assignees: ReadonlyArray<string>
}

export const SUMMARY_SOURCE = "template over the bordering CPC subclass titles and the nearest exemplars' titles"
const EXEMPLARS = 5
const CPC_CODES = 6
const ASSIGNEES = 5

const tally = (values: ReadonlyArray<string | null>) => {
  const counts = new Map<string, number>()
  for (const v of values) if (v) counts.set(v, (counts.get(v) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
}

/** CPC titles are upper-case with parenthesised references; a summary wants the plain phrase. */
const plainTitle = (title: string) => {
  let t = title.replace(/\{|\}/g, "")
  // References nest: "(… A62D1/00 (A62C))"; strip innermost first.
  while (/\([^()]*\)/.test(t)) t = t.replace(/\([^()]*\)/g, "")
  t = t.split(";")[0].replace(/\s+/g, " ").trim().replace(/[,.]$/, "")
  return t === t.toUpperCase() ? t.toLowerCase() : t
}

const mid = (values: number[]) => {
  if (!values.length) return null
  const s = [...values].sort((a, b) => a - b)
  return s[Math.floor((s.length - 1) / 2)]
}

export const describeVoid = (art: ReadonlyArray<BorderingArt>, cpcTitles: ReadonlyMap<string, string>, latestYear: number, corpusRecentShare: number) => {
  const sections = tally(art.map((a) => a.section))
  const withCpc = art.filter((a) => a.subclass).length
  const borderingCpc = tally(art.map((a) => a.subclass))
    .slice(0, CPC_CODES)
    .map(([code, n]) => ({ code, fraction: Math.round((n / Math.max(1, withCpc)) * 1000) / 1000, title: cpcTitles.get(code) ?? null }))
  const years = art.map((a) => a.filingYear).filter((y): y is number => y !== null)
  const recent = years.filter((y) => y > latestYear - RECENT_YEARS).length
  const recentShare = years.length ? recent / years.length : 0
  const medianFilingYear = mid(years)
  // Hot: the neighbourhood's recent filings grow at least 1.5× as fast as the corpus's, on at least 3 filings.
  const hot = recent >= 3 && recentShare >= 1.5 * corpusRecentShare
  const exemplars = art.slice(0, EXEMPLARS).map((a) => ({
    appNum: a.appNum,
    title: a.title,
    distance: Math.round(a.distance * 10_000) / 10_000,
    x: a.x,
    y: a.y,
    z: a.z,
    section: a.section,
    filingYear: a.filingYear
  }))
  const assignees = tally(art.flatMap((a) => [...new Set(a.assignees)])).slice(0, ASSIGNEES).map(([name, applications]) => ({ name, applications }))

  const fields = borderingCpc.filter((c) => c.title).slice(0, 2).map((c) => `${plainTitle(c.title!)} (${c.code})`)
  const examples = exemplars.map((e) => e.title).filter((t): t is string => !!t).slice(0, 3).map((t) => `"${t}"`)
  const summary =
    (fields.length ? `Little art lies between ${fields.join(" and ")}` : "Little art lies in this region") +
    (examples.length ? `; the nearest applications claim ${examples.join(", ")}, but nothing sits in the gap among them.` : ".") +
    (medianFilingYear ? ` The surrounding art has a median filing year of ${medianFilingYear}${hot ? " and is growing fast" : ""}.` : "")

  return {
    section: sections[0]?.[0] ?? null,
    borderingCpc,
    temporal: { medianFilingYear, recentShare: Math.round(recentShare * 1000) / 1000, recentYears: RECENT_YEARS, hot },
    exemplars,
    assignees,
    summary,
    summarySource: SUMMARY_SOURCE
  }
}
