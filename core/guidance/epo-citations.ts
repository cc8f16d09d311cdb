/**
 * What an EPO Guidelines section cites: EPC Articles ("Art. 54(2)", "Articles 52 to 57"),
 * Implementing Regulations ("Rule 43(1)", "R. 137(3)"), Boards of Appeal decisions
 * ("T 641/00", "G 1/19") and other Guidelines sections (the ingest cross_refs).
 */
import { epoIdParts } from "./ids.ts"

export interface EpoCitation {
  readonly type: "article" | "rule" | "decision" | "section"
  readonly ref: string
  readonly mentions: number
}

const PROVISION = String.raw`(\d{1,3}[a-z]?)((?:\(\d{1,2}[a-z]?\))*(?:\([a-z]\))?)`
const ARTICLE = new RegExp(String.raw`\b(?:Art(?:icles?|s?\.)\s*)${PROVISION}`, "g")
const RULE = new RegExp(String.raw`\b(?:Rules?|R\.)\s*${PROVISION}`, "g")
const DECISION = /\b([TGJRDW])\s?(\d{1,4})\/(\d{2})\b/g

/** "G-VII-5.1" → "G-VII, 5.1", the form the Guidelines print. */
export const publishedEpoRef = (id: string): string => {
  const { part, chapter, section } = epoIdParts(id)
  if (part === "General") return section ? `General Part, ${section}` : "General Part"
  return chapter ? (section ? `${part}-${chapter}, ${section}` : `${part}-${chapter}`) : part
}

export const epoCitationsOf = (text: string, crossRefs: ReadonlyArray<string>): EpoCitation[] => {
  const t = text.replace(/\u00a0/g, " ").replace(/[\u2010-\u2015]/g, "-")
  const found: Array<{ at: number; type: EpoCitation["type"]; ref: string }> = []
  for (const m of t.matchAll(ARTICLE)) found.push({ at: m.index, type: "article", ref: `Art. ${m[1]}${m[2]} EPC` })
  for (const m of t.matchAll(RULE)) found.push({ at: m.index, type: "rule", ref: `Rule ${m[1]}${m[2]} EPC` })
  for (const m of t.matchAll(DECISION)) found.push({ at: m.index, type: "decision", ref: `${m[1]} ${m[2]}/${m[3]}` })
  found.sort((a, b) => a.at - b.at)
  const out = new Map<string, { type: EpoCitation["type"]; ref: string; mentions: number }>()
  const add = (type: EpoCitation["type"], ref: string) => {
    const key = `${type}|${ref}`
    const seen = out.get(key)
    if (seen) seen.mentions++
    else out.set(key, { type, ref, mentions: 1 })
  }
  for (const f of found) add(f.type, f.ref)
  for (const id of crossRefs) add("section", id)
  return [...out.values()]
}
