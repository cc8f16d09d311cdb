/**
 * Field normalisers shared by the JSON readers (ppubs, PEDS, office actions): the same
 * application number, date, examiner name or CPC symbol is spelled several ways across these
 * sources, and the merge can only join them once they are spelled one way.
 */

/** A record the reader cannot use; becomes a `skip` event with this reason. */
export class RecordSkip extends Error {
  constructor(readonly reason: string) {
    super(reason)
  }
}

/** First element of a value that sources give either bare or wrapped in a one-element array. */
export const first = (v: unknown): unknown => (Array.isArray(v) ? v[0] : v)

/** A trimmed non-empty string, or null ("null" and "N/A" placeholders count as absent). */
export const str = (v: unknown): string | null => {
  const x = first(v)
  if (typeof x === "number" && Number.isFinite(x)) return String(x)
  if (typeof x !== "string") return null
  const t = x.replace(/\s+/g, " ").trim()
  return t === "" || /^(null|n\/a|undefined)$/i.test(t) ? null : t
}

/** Non-empty trimmed strings of an array-or-scalar field. */
export const strs = (v: unknown): string[] =>
  (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]).map(str).filter((s): s is string => s !== null)

export const uniq = <T>(xs: Iterable<T>): T[] => [...new Set(xs)]

/** Object-valued field or null (PEDS writes empty objects where a list is absent). */
export const obj = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null

/** A list field that may be absent, a single object, or an array. */
export const list = (v: unknown): Record<string, unknown>[] =>
  (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]).map(obj).filter((o): o is Record<string, unknown> => o !== null && Object.keys(o).length > 0)

// ---------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------

const validYmd = (y: string, m: string, d: string): string | null => {
  const mi = Number(m)
  const di = Number(d)
  if (mi < 1 || mi > 12 || di < 1 || di > 31) return null
  const date = new Date(Date.UTC(Number(y), mi - 1, di))
  return date.getUTCDate() === di ? `${y}-${m}-${d}` : null
}

/**
 * YYYY-MM-DD from "2017-09-26T00:00:00Z", "2017-09-05", "2018-10-17T00:00:000Z", "2018-11-06 00:00:00",
 * "11-22-2017" (PEDS month-day-year) or "20170926". Absent values and the year-0/1 placeholders
 * give null; a present value in no known form throws RecordSkip. The time part is ignored on
 * purpose: USPTO timestamps are midnight US Eastern written as 04:00/05:00Z, so the calendar
 * date is the date part.
 */
export const isoDate = (v: unknown, field = "date"): string | null => {
  const s = str(v)
  if (s === null) return null
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/.exec(s)
  if (m) {
    // Year 0000/0001 is the sources' "no date" placeholder ("0001-01-01T05:00:00Z", "0000-12-30T05:00:00Z").
    if (Number(m[1]) < 1000) return null
    const d = validYmd(m[1], m[2], m[3])
    if (d) return d
  }
  m = /^(\d{2})-(\d{2})-(\d{4})$/.exec(s) ?? /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s)
  if (m) {
    const d = validYmd(m[3], m[1], m[2])
    if (d) return d
  }
  m = /^(\d{4})(\d{2})(\d{2})$/.exec(s)
  if (m) {
    const d = validYmd(m[1], m[2], m[3])
    if (d) return d
  }
  throw new RecordSkip(`unparseable ${field} "${s}"`)
}

/** Like isoDate but for optional detail dates with partial values ("19800600" = June 1980): null instead of a skip. */
export const looseDate = (v: unknown): string | null => {
  try {
    return isoDate(v)
  } catch {
    return null
  }
}

// ---------------------------------------------------------------------------
// Numbers
// ---------------------------------------------------------------------------

/**
 * US application number as digits: "15/722320" → "15722320", "08/042,978" → "08042978",
 * "D/380046" → "29380046" (design series). Null for anything that is not a US application
 * number (PCT/…, foreign), since published application numbers are digits only.
 */
export const appNum = (v: unknown): string | null => {
  const s = str(v)
  if (s === null || /^PCT/i.test(s)) return null
  const t = s.replace(/^US\s*/i, "").replace(/^D\s*\/?\s*(?=\d{6}$)/i, "29")
  const digits = t.replace(/[\s/,.-]/g, "")
  return /^\d{6,8}$/.test(digits) ? digits : null
}

/**
 * Publication number as the tables key it: patent numbers without leading zeros, D/PP/RE/H/T/X
 * prefix kept ("D0645062" → "D645062", "RE028436" → "RE28436", "06095661" → "6095661"),
 * pre-grant publications as 11 digits ("2010/0181061" → "20100181061", "US20190064347A1" → "20190064347").
 */
export const pubNum = (v: unknown): string | null => {
  const s = str(v)
  if (s === null) return null
  const t = s.replace(/^US[\s-]*/i, "").replace(/[\s,./-]/g, "").replace(/(?<=\d)[A-Z]\d?$/i, "")
  const m = /^(D|PP|RE|H|T|X|AI|P)?0*(\d+)$/i.exec(t)
  if (!m) return null
  const prefix = (m[1] ?? "").toUpperCase()
  if (!prefix && /^\d{11}$/.test(t)) return t
  return prefix === "P" ? `PP${m[2]}` : `${prefix}${m[2]}`
}

/** Kind code from a publication id like "US20190064347A1". */
export const kindOf = (v: unknown): string | null => {
  const m = /\d([A-Z]\d?)$/i.exec(str(v) ?? "")
  return m ? m[1].toUpperCase() : null
}

/** doc_type from the kind code / number prefix / PEDS application type. */
export const docType = (kind: string | null, pub: string | null, appType?: string | null): string | null => {
  const t = (appType ?? "").toLowerCase()
  if (/design/.test(t)) return "design"
  if (/plant/.test(t)) return "plant"
  if (/re-?issue/.test(t)) return "reissue"
  if (/provisional/.test(t)) return "provisional"
  if (/utility/.test(t)) return "utility"
  if (pub?.startsWith("D") || kind === "S") return "design"
  if (pub?.startsWith("PP") || /^P\d?$/.test(kind ?? "")) return "plant"
  if (pub?.startsWith("RE") || kind === "E") return "reissue"
  if (/^[AB]\d?$/.test(kind ?? "")) return "utility"
  return kind || pub ? "other" : null
}

/** Art unit digits ("2865", 2864); non-numeric units such as "OPAP" (pre-examination processing) give null. */
export const artUnit = (v: unknown): string | null => {
  const s = str(v)
  if (s === null) return null
  return /^\d{3,4}$/.test(s) && !/^0+$/.test(s) ? s : null
}

// ---------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------

const SUFFIX = /^(JR|SR|II|III|IV|V|ESQ)$/

const tidyName = (s: string) =>
  s
    .toUpperCase()
    .replace(/\./g, " ")
    .replace(/\s+/g, " ")
    .replace(/\s+,/g, ",")
    .trim()

/**
 * Examiner name as PEDS spells it: surname first, upper case, "SURNAME SUFFIX, GIVEN NAMES"
 * ("PARK, HYUN D", "ANDERSON II, JAMES M"). Accepts PEDS form, ppubs "Last; First M" /
 * "Vaughn, Jr.; William C", and signature form "First M Last Jr".
 */
export const surnameFirst = (v: unknown): string | null => {
  const s = str(v)
  if (s === null) return null
  if (s.includes(";")) {
    const [last, given] = s.split(";", 2)
    const surname = tidyName(last.replace(/,/g, " "))
    const g = tidyName(given ?? "")
    return surname ? (g ? `${surname}, ${g}` : surname) : null
  }
  if (s.includes(",")) {
    const parts = s.split(",").map(tidyName).filter(Boolean)
    // "LAST, JR, FIRST" → suffix belongs to the surname.
    if (parts.length >= 3 && SUFFIX.test(parts[1])) return `${parts[0]} ${parts[1]}, ${parts.slice(2).join(" ")}`
    return parts.length >= 2 ? `${parts[0]}, ${parts.slice(1).join(" ")}` : parts[0] ?? null
  }
  const words = tidyName(s).split(" ").filter(Boolean)
  if (words.length < 2) return words[0] ?? null
  const suffix = SUFFIX.test(words[words.length - 1]) && words.length > 2 ? words.pop()! : null
  const last = words.pop()!
  return `${suffix ? `${last} ${suffix}` : last}, ${words.join(" ")}`
}

/** Person name in "Last, First Middle" form with source capitalisation. */
export const personName = (last: unknown, firstNames: unknown): string | null => {
  const l = str(last)
  const f = str(firstNames)
  return l ? (f ? `${l}, ${f}` : l) : f
}

// ---------------------------------------------------------------------------
// CPC and continuity
// ---------------------------------------------------------------------------

/** "C08F 210/16", "C08F210/16 20130101", "F24F008/167" → "C08F210/16"; null for anything else. */
export const cpcSymbol = (v: unknown): string | null => {
  const s = str(v)
  if (s === null) return null
  const m = /^([A-HY]\d{2}[A-Z])\s*0*(\d{1,4})\s*\/\s*(\d{2,6})(?:\s|$)/.exec(s.toUpperCase())
  return m ? `${m[1]}${m[2]}/${m[3]}` : null
}

/**
 * Continuity relation code from the wording the sources use ("This application is a Continuation in
 * part of", "continuation-in-part", "division", "National Stage Entry of", "Claims Priority from
 * Provisional Application", "us-provisional-application", "reissue"). Wording that names no
 * relation ("claims the benefit of") gives OTHER.
 */
export const continuityRelation = (text: string): string => {
  const t = text.toLowerCase()
  if (/continuation[\s-]+in[\s-]+part/.test(t)) return "CIP"
  if (/continuation/.test(t)) return "CON"
  if (/divisi/.test(t)) return "DIV"
  if (/national stage|\b371\b/.test(t)) return "NST"
  if (/provisional/.test(t)) return "PRO"
  if (/re-?issue/.test(t)) return "REI"
  return "OTHER"
}
