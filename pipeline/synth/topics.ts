/**
 * Topics: a bounded, seed-chosen set of CPC subgroups, read by streaming the official CPC title
 * lists. Each topic carries its own title and its ancestors' titles (subclass, main group, parent
 * subgroups), which is where every generated title, abstract and claim gets its words, so documents
 * of one topic share vocabulary and documents of one subclass overlap. Topics are kept in scheme
 * order, so a subclass's topics are one contiguous range: the "nearby" topics for citations.
 */
import { createReadStream } from "node:fs"
import { readdir } from "node:fs/promises"
import path from "node:path"
import { createInterface } from "node:readline"
import { createGunzip } from "node:zlib"
import { artUnitFor } from "./art-units.ts"
import { hash2, hashString, unit } from "./random.ts"
import { escapeXml } from "./xml.ts"

export interface CpcParts {
  readonly section: string
  readonly klass: string
  readonly subclass: string
  readonly mainGroup: string
  readonly subgroup: string
}

export interface Topic extends CpcParts {
  readonly index: number
  /** "H01B1/122" as in the title list. */
  readonly symbol: string
  /** "H01B 1/122" as in <classification-cpc-text>. */
  readonly cpcText: string
  /** Cleaned titles: own, then parent subgroups upward, then main group, then subclass. */
  readonly titles: readonly string[]
  /** A noun phrase naming the topic, e.g. "Conductors or conductive bodies mainly consisting of metals". */
  readonly subject: string
  /** XML-escaped: the subject in lower case, title fragments, and content words (most specific first). */
  readonly xSubject: string
  readonly xPhrases: readonly string[]
  readonly xWords: readonly string[]
  readonly artUnit: number
  /** Topics [familyStart, familyEnd) share this topic's subclass. */
  readonly familyStart: number
  readonly familyEnd: number
  /** Indexing (2000-series) codes of the subclass, used as additional CPC. */
  readonly indexingCodes: readonly string[]
  readonly weight: number
}

export interface TopicSet {
  readonly topics: readonly Topic[]
  /** Cumulative weights, for drawing a document's topic. */
  readonly cumulative: Float64Array
  readonly artUnits: readonly number[]
}

const STOP = new Set(
  ("with from their being other such said specially adapted characterised characterized using used thereof therefor " +
    "therein wherein which where when than into onto this that these those having means details general arrangements " +
    "arrangement combined combination provided particular kind kinds type types form forms more than only each also " +
    "within without between including include includes comprising based related relating according specific purposes " +
    "purpose like similar apparatus method methods devices device systems system elements element features parts " +
    "mainly otherwise consisting consist consists provided non-mineral respect respectively thereby whereby " +
    "containing contain contains under inside over onto making").split(" ")
)

const cleanTitle = (raw: string): string => {
  let s = raw.replace(/\[IMAGE[^\]]*\]/g, "").replace(/[{}]/g, "")
  for (let k = 0; k < 3; k++) s = s.replace(/\s*\([^()]*\)/g, "")
  return s.replace(/\s+/g, " ").replace(/[\s;,:.]+$/, "").trim()
}

/** Leading words that make a title fragment a continuation rather than a noun phrase. */
const LEADING = /^(?:with|by|for|in|of|on|at|to|from|or|and|the|a|an|using|being|having|comprising|containing|which|wherein|mainly|specially|adapted|characterised|characterized|e\.g\.|i\.e\.)\s+/i

const nounPhrase = (p: string): string => {
  let q = p.trim()
  for (let prev = ""; prev !== q; ) {
    prev = q
    q = q.replace(LEADING, "")
  }
  return q
}

const firstSegment = (t: string): string => t.split(/;|, e\.g\.| e\.g\./)[0].trim()

const HEAD_CUT = /\s(characterised|characterized|specially|in which|wherein|adapted|for use|not otherwise)\b.*$/

const words = (t: string): string[] => (t.toLowerCase().match(/[a-z][a-z-]{3,}/g) ?? []).filter((w) => !STOP.has(w) && !w.endsWith("-"))

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1)

const subjectOf = (own: string, mainGroup: string): string => {
  const o = firstSegment(own)
  const startsUpper = /^[A-Z]/.test(o)
  let s = startsUpper ? o : `${firstSegment(mainGroup).replace(HEAD_CUT, "")} ${o}`
  const w = s.split(" ")
  if (w.length > 14) s = w.slice(0, 14).join(" ")
  return capitalize(s.replace(/[\s,;:]+$/, ""))
}

const cpcParts = (symbol: string): CpcParts => {
  const slash = symbol.indexOf("/")
  return {
    section: symbol.slice(0, 1),
    klass: symbol.slice(1, 3),
    subclass: symbol.slice(3, 4),
    mainGroup: symbol.slice(4, slash),
    subgroup: symbol.slice(slash + 1)
  }
}

export const cpcTextOf = (symbol: string): string => `${symbol.slice(0, 4)} ${symbol.slice(4)}`

/** A normal deviate from two hashes (topic popularity is log-normal: a few topics are busy). */
const gaussian = (h1: number, h2: number): number => Math.sqrt(-2 * Math.log(1 - unit(h1))) * Math.cos(2 * Math.PI * unit(h2))

interface Candidate {
  symbol: string
  titles: string[]
  subclass: string
}

export interface TopicOptions {
  readonly seed: number
  /** Folder holding cpc-section-?_*.txt.gz. */
  readonly cpcDir: string
  /** About how many topics to keep. */
  readonly target?: number
}

const SUBCLASS_SHARE = 0.4
const SUBGROUPS_IN_SCHEME = 159_000 // non-indexing subgroups in sections A–H of the 2025.05 scheme

/** Streams the CPC title lists and keeps a seed-chosen, bounded set of subgroups. */
export const loadTopics = async (options: TopicOptions): Promise<TopicSet> => {
  const { seed, cpcDir } = options
  const target = options.target ?? 4000
  const keepSubgroup = Math.min(1, target / (SUBGROUPS_IN_SCHEME * SUBCLASS_SHARE))
  const files = (await readdir(cpcDir)).filter((f) => /^cpc-section-[A-H]_.*\.txt(\.gz)?$/.test(f)).sort()
  if (files.length === 0) throw new Error(`no CPC title lists (cpc-section-?_*.txt.gz) in ${cpcDir}`)

  const candidates: Candidate[] = []
  const indexing = new Map<string, string[]>()
  for (const file of files) {
    const full = path.join(cpcDir, file)
    const input = file.endsWith(".gz") ? createReadStream(full).pipe(createGunzip()) : createReadStream(full)
    let subclass = ""
    let subclassTitle = ""
    let keepSubclass = false
    const levels: string[] = []
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      const [symbol, level, rawTitle = ""] = line.replace(/\r$/, "").split("\t")
      if (!symbol) continue
      if (level === "") {
        if (symbol.length === 4) {
          subclass = symbol
          subclassTitle = cleanTitle(rawTitle).toLowerCase()
          keepSubclass = unit(hash2(seed, hashString(symbol))) < SUBCLASS_SHARE
        }
        continue
      }
      if (!keepSubclass) continue
      const depth = Number(level)
      const title = cleanTitle(rawTitle)
      levels[depth] = title
      levels.length = depth + 1
      const mainGroupNumber = Number(symbol.slice(4, symbol.indexOf("/")))
      if (mainGroupNumber >= 2000) {
        const list = indexing.get(subclass) ?? []
        if (list.length < 6 && unit(hash2(seed ^ 0x2545f491, hashString(symbol))) < 0.05) list.push(symbol)
        indexing.set(subclass, list)
        continue
      }
      if (depth < 1 || title.length < 3) continue
      if (unit(hash2(seed, hashString(symbol))) >= keepSubgroup) continue
      const titles = [title]
      for (let d = depth - 1; d >= 0; d--) if (levels[d]) titles.push(levels[d])
      titles.push(subclassTitle)
      candidates.push({ symbol, titles, subclass })
    }
  }

  const topics: Topic[] = []
  let familyStart = 0
  for (let k = 0; k < candidates.length; k++) {
    const c = candidates[k]
    if (k > 0 && candidates[k - 1].subclass !== c.subclass) familyStart = k
    let familyEnd = k + 1
    while (familyEnd < candidates.length && candidates[familyEnd].subclass === c.subclass) familyEnd++
    const mainGroupTitle = c.titles[c.titles.length - 2]
    const subject = subjectOf(c.titles[0], mainGroupTitle)
    const phrases = new Set<string>()
    for (const t of c.titles) for (const p of t.split(/;|,|\be\.g\.|\bi\.e\./)) {
      const q = nounPhrase(p).toLowerCase()
      if (q.length >= 4 && q.length <= 80 && !STOP.has(q) && q !== "general" && q !== "in general") phrases.add(q)
    }
    const ws = [...new Set(c.titles.flatMap(words))]
    const h = hashString(c.symbol)
    const mainGroupSymbol = c.symbol.slice(0, c.symbol.indexOf("/"))
    topics.push({
      index: k,
      symbol: c.symbol,
      cpcText: cpcTextOf(c.symbol),
      ...cpcParts(c.symbol),
      titles: c.titles,
      subject,
      xSubject: escapeXml(subject.toLowerCase()),
      xPhrases: [...phrases].map(escapeXml),
      xWords: (ws.length > 0 ? ws : ["assembly"]).map(escapeXml),
      artUnit: artUnitFor(seed, c.subclass, mainGroupSymbol),
      familyStart,
      familyEnd,
      indexingCodes: indexing.get(c.subclass) ?? [],
      weight: Math.exp(1.1 * gaussian(hash2(seed ^ 0x68e31da4, h), hash2(seed ^ 0x1b56c4e9, h)))
    })
  }
  if (topics.length === 0) throw new Error(`no CPC subgroups selected from ${cpcDir}`)

  const cumulative = new Float64Array(topics.length)
  let sum = 0
  for (let k = 0; k < topics.length; k++) cumulative[k] = sum += topics[k].weight
  for (let k = 0; k < topics.length; k++) cumulative[k] /= sum
  const artUnits = [...new Set(topics.map((t) => t.artUnit))].sort((a, b) => a - b)
  return { topics, cumulative, artUnits }
}

/** The topic for a uniform draw u ∈ [0, 1). */
export const topicAt = (set: TopicSet, u: number): number => {
  const c = set.cumulative
  let lo = 0
  let hi = c.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (c[mid] > u) hi = mid
    else lo = mid + 1
  }
  return lo
}
