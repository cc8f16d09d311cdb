/**
 * Claim parsing shared by ingest and the claim checkers: numbered claim text → claims, and one
 * claim → status, dependencies, preamble / transition / body and element boundaries. Every span
 * is a pair of character offsets into the claim text as given, so callers can slice the original.
 */
import { type ClaimReference, findClaimReferences } from "./dependencies.ts"

export interface Span {
  readonly start: number
  readonly end: number
}

export interface ClaimInput {
  readonly number?: number
  readonly text: string
}

/** Amendment status markers of a claim listing ("(Currently Amended)", "(Canceled)"). */
export type ClaimStatus = "original" | "amended" | "previously-presented" | "new" | "canceled" | "withdrawn"

export interface ParsedClaim {
  readonly number: number
  readonly text: string
  readonly status?: ClaimStatus
  /** Canceled claims carry no limitations; a dependency on one is improper. */
  readonly canceled: boolean
  /** Where the claim proper starts, after a leading number and status marker. */
  readonly contentStart: number
  /** Claim numbers this claim refers to, ascending (may include itself or later claims: improper). */
  readonly dependsOn: ReadonlyArray<number>
  readonly references: ReadonlyArray<ClaimReference>
  readonly isIndependent: boolean
  /** Independent: the text before the transition. Dependent: "The method of claim 1". */
  readonly preamble: Span
  readonly transition?: Span & { readonly phrase: string }
  readonly body: Span
  /** Body elements, split at semicolons, colons, line breaks and ", a …" lists (empty when not asked for). */
  readonly elements: ReadonlyArray<Span>
}

const STATUS = /^\s*\(\s*(original|currently amended|amended|previously presented|new|canceled|cancelled|withdrawn(?:[^)]*)?|previously amended)\s*\)\s*/i

const statusOf = (marker: string): ClaimStatus => {
  const m = marker.toLowerCase()
  if (m.startsWith("cancel")) return "canceled"
  if (m.startsWith("withdrawn")) return "withdrawn"
  if (m === "original") return "original"
  if (m === "new") return "new"
  if (m === "previously presented") return "previously-presented"
  return "amended"
}

/** "any one of the preceding claims": every earlier claim. */
const PRECEDING = /\b(?:any|one|either)\s+(?:one\s+)?(?:of\s+)?(?:the\s+)?(?:preceding|previous|foregoing|above)\s+claims?\b|\bany\s+preceding\s+claim\b/i

const CLAIM_WORD = /claim/i

const INDEPENDENT_TRANSITION =
  /\b(?:comprising|comprises|comprised of|consisting essentially of|consisting of|consists of|including|includes|having|characteri[sz]ed (?:in|by)(?: that)?|the improvement comprising|which comprises)\b/gi

const DEPENDENT_TRANSITION =
  /^[\s,]*(?:(?:and\s+)?wherein|whereby|in which|further comprising|further including|further comprises|further includes|comprising|including|characteri[sz]ed in that|which further comprises|that further comprises)\b/i

const ELEMENT_BREAK = /[;:\n]+/g
const LIST_BREAK = /,\s*(?:and\s+|or\s+)?(?=(?:a|an|at least one|one or more|a plurality of|two or more)\s)/gi

/** Split the body into elements; trim separators and leading "and"/"or". */
const splitElements = (text: string, body: Span): Span[] => {
  const raw: Span[] = []
  const segment = text.slice(body.start, body.end)
  const breaks = /[;:\n]/.test(segment) ? ELEMENT_BREAK : LIST_BREAK
  let last = 0
  for (const m of segment.matchAll(breaks)) {
    raw.push({ start: body.start + last, end: body.start + m.index })
    last = m.index + m[0].length
  }
  raw.push({ start: body.start + last, end: body.end })
  const out: Span[] = []
  for (const s of raw) {
    let a = s.start
    let b = s.end
    const piece = text.slice(a, b)
    const lead = /^[\s,]*(?:(?:and|or)\s+)?/i.exec(piece)
    a += lead ? lead[0].length : 0
    const trail = /[\s,.]*(?:\s(?:and|or))?[\s,.]*$/i.exec(text.slice(a, b))
    b -= trail ? trail[0].length : 0
    if (b > a) out.push({ start: a, end: b })
  }
  return out
}

/** Parse one claim. `number` comes from the caller (position in the set when not given). */
export const parseClaim = (input: ClaimInput, number: number, options: { readonly elements?: boolean } = {}): ParsedClaim => {
  const text = input.text
  let contentStart = 0
  const lead = /^\s*(?:\d{1,4}\s*[.)]\s*(?=\S))?/.exec(text)
  if (lead) contentStart = lead[0].length
  let status: ClaimStatus | undefined
  const marker = STATUS.exec(text.slice(contentStart))
  if (marker) {
    status = statusOf(marker[1].replace(/\s+/g, " "))
    contentStart += marker[0].length
  }
  const rest = text.slice(contentStart)
  const canceled = status === "canceled" || /^\s*(?:\(?\s*(?:canceled|cancelled|deleted)\s*\)?\s*\.?\s*)$/i.test(rest)

  const references = findClaimReferences(text).filter((r) => r.start >= contentStart)
  const deps = new Set<number>()
  for (const r of references) for (const n of r.numbers) deps.add(n)
  // Both forms end in "claim(s)": a claim that never says the word (most independent ones) is not searched for them.
  const preceding = CLAIM_WORD.test(rest) ? PRECEDING.exec(rest) : null
  if (preceding) for (let n = 1; n < number; n++) deps.add(n)
  const dependsOn = [...deps].sort((a, b) => a - b)
  const isIndependent = dependsOn.length === 0

  let preamble: Span
  let transition: (Span & { phrase: string }) | undefined
  if (!isIndependent) {
    // The dependent preamble runs to the end of the first claim reference ("The method of claim 1").
    const firstRef = references[0]
    const refEnd = firstRef ? firstRef.end : preceding ? contentStart + preceding.index + preceding[0].length : contentStart
    preamble = { start: contentStart, end: refEnd }
    const t = DEPENDENT_TRANSITION.exec(text.slice(refEnd))
    if (t) {
      const phrase = t[0].replace(/^[\s,]+/, "")
      const start = refEnd + t[0].length - phrase.length
      transition = { start, end: refEnd + t[0].length, phrase: phrase.toLowerCase().replace(/\s+/g, " ") }
    }
  } else {
    INDEPENDENT_TRANSITION.lastIndex = contentStart
    let chosen: RegExpExecArray | undefined
    for (let m = INDEPENDENT_TRANSITION.exec(text); m !== null; m = INDEPENDENT_TRANSITION.exec(text)) {
      if (!chosen) chosen = m
      // A transition followed by a colon is the real one even when an earlier word looked like one.
      if (/^\s*:/.test(text.slice(m.index + m[0].length))) {
        chosen = m
        break
      }
      if (m.index - contentStart > 600) break
    }
    if (chosen) {
      transition = { start: chosen.index, end: chosen.index + chosen[0].length, phrase: chosen[0].toLowerCase().replace(/\s+/g, " ") }
      preamble = { start: contentStart, end: chosen.index }
    } else preamble = { start: contentStart, end: contentStart }
  }
  const bodyStart = transition ? transition.end : preamble.end
  const afterColon = /^\s*:?\s*/.exec(text.slice(bodyStart))
  const body = { start: bodyStart + (afterColon ? afterColon[0].length : 0), end: endBeforeTrailingStops(text) }
  const elements = options.elements !== false && body.end > body.start ? splitElements(text, body) : []
  return {
    number,
    text,
    ...(status ? { status } : {}),
    canceled,
    contentStart,
    dependsOn,
    references,
    isIndependent,
    preamble: { start: preamble.start, end: Math.max(preamble.start, trimEnd(text, preamble.end, preamble.start)) },
    ...(transition ? { transition } : {}),
    body: { start: Math.min(body.start, Math.max(body.end, body.start)), end: Math.max(body.start, body.end) },
    elements
  }
}

const TRAILING_STOP = /[\s.]/

/** Length of the text less trailing whitespace and full stops (`text.replace(/[\s.]+$/, "").length`, without running a pattern over the whole text). */
const endBeforeTrailingStops = (text: string): number => {
  let e = text.length
  while (e > 0 && TRAILING_STOP.test(text[e - 1])) e--
  return e
}

const trimEnd = (text: string, end: number, floor: number) => {
  let e = end
  while (e > floor && /[\s,]/.test(text[e - 1])) e--
  return e
}

/** Parse a claim set; a missing number is filled from the array position (1-based). */
export const parseClaims = (inputs: ReadonlyArray<ClaimInput>, options: { readonly elements?: boolean } = {}): ParsedClaim[] =>
  inputs.map((c, i) => parseClaim(c, c.number ?? i + 1, options))

/** One claim found in numbered claim text: its number, its text (without the number) and where it sat. */
export interface NumberedClaim {
  readonly number: number
  readonly text: string
  /** Offset of the claim text in the source. */
  readonly offset: number
}

/**
 * Split numbered claim text ("1. A door … 2. The door of claim 1 …") into claims. Numbers must
 * run in sequence (1, 2, 3 …), which keeps "claim 2." inside a claim from starting a new one;
 * markers at line starts are preferred, inline markers ("… frame. 2. The …") are the fallback.
 * Text before the first claim ("What is claimed is:") is dropped.
 */
export const splitNumberedClaims = (source: string): NumberedClaim[] => {
  // Reissue listings mark claims ".[.1." (deleted) and ".Iadd.17." (added).
  const byLines = scan(source, /(?:^|\n)[ \t]*(?:\.\[\.|\.Iadd\.)?(?:\d{1,4}\s*[-–]\s*)?(\d{1,4})\s*[.)][ \t]*/g)
  const inline = scan(source, /(?:^|[\s])(?:\d{1,4}\s*[-–]\s*)?(\d{1,4})\s*[.)]\s+(?=[A-Z("'])/g)
  const markers = byLines.length >= inline.length ? byLines : inline
  const out: NumberedClaim[] = []
  for (let i = 0; i < markers.length; i++) {
    const m = markers[i]
    const end = i + 1 < markers.length ? markers[i + 1].at : source.length
    const raw = source.slice(m.textStart, end)
    const trimmed = raw.replace(/\s+$/, "")
    const lead = raw.length - raw.replace(/^\s+/, "").length
    out.push({ number: m.number, text: trimmed.slice(lead), offset: m.textStart + lead })
  }
  return out
}

interface Marker {
  readonly number: number
  /** Where the marker starts (the previous claim ends here). */
  readonly at: number
  readonly textStart: number
}

const scan = (source: string, re: RegExp): Marker[] => {
  const found: Marker[] = []
  let expected = 0
  for (const m of source.matchAll(re)) {
    const range = /(\d{1,4})\s*[-–]\s*(\d{1,4})/.exec(m[0])
    const first = range ? Number(range[1]) : Number(m[1])
    const last = range ? Math.max(first, Number(range[2])) : first
    if (found.length > 0 && first !== expected) continue
    const at = m.index + (m[0].length - m[0].replace(/^\s+/, "").length)
    found.push({ number: first, at, textStart: m.index + m[0].length })
    expected = last + 1
  }
  return found
}
