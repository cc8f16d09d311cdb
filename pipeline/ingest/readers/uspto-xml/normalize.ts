/**
 * Field normalisation shared by every USPTO XML dialect: dates, application / publication /
 * cited-document numbers, examiner names, document types and CPC symbols.
 */

/** "20160607" → "2016-06-07". Month-only citation dates ("19990100") get day 01 so they stay valid DATEs. */
export const isoDate = (raw: string | undefined): string | undefined => {
  const d = (raw ?? "").replace(/\D/g, "")
  if (d.length !== 8) return undefined
  const y = d.slice(0, 4)
  const m = d.slice(4, 6) === "00" ? "01" : d.slice(4, 6)
  const day = d.slice(6, 8) === "00" ? "01" : d.slice(6, 8)
  if (Number(m) > 12 || Number(day) > 31 || Number(y) < 1790) return undefined
  return `${y}-${m}-${day}`
}

export const yearOf = (isoDateStr: string | undefined): number | undefined =>
  isoDateStr ? Number(isoDateStr.slice(0, 4)) : undefined

/** Application number as digits ("10/909,766" → "10909766"); undefined when it has none. */
export const appNumber = (raw: string | undefined): string | undefined => {
  const d = (raw ?? "").replace(/\D/g, "")
  return d === "" ? undefined : d
}

const US_PATENT = /^(D|PP|RE|RX|H|T|AI|X)?0*(\d+)$/

/**
 * Patent number as the USPTO prints it: no leading zeros, the series prefix of non-utility
 * patents kept ("09358892" → "9358892", "D0656296" → "D656296", "RE042345" → "RE42345").
 * Pre-grant publication numbers (11 digits, "2004/0137123") keep all their digits.
 */
export const patentNumber = (raw: string | undefined): string | undefined => {
  const s = (raw ?? "").toUpperCase().replace(/[^A-Z0-9]/g, "")
  if (s === "") return undefined
  if (/^\d{11}$/.test(s) && /^(19|20)/.test(s)) return s
  const m = US_PATENT.exec(s)
  if (m) return `${m[1] ?? ""}${m[2]}`
  return s
}

/** A cited document's number: US numbers as patentNumber, foreign ones as published (alphanumerics). */
export const citedNumber = (raw: string | undefined, country: string | undefined): string | undefined => {
  if (!country || country.toUpperCase() === "US") return patentNumber(raw)
  const s = (raw ?? "").toUpperCase().replace(/[^A-Z0-9]/g, "")
  return s === "" ? undefined : s
}

/** Surname-first upper case, periods dropped: ("Nguyen", "Cuong H.") → "NGUYEN, CUONG H". */
export const examinerName = (last: string | undefined, first: string | undefined): string | undefined => {
  const clean = (s: string | undefined) => (s ?? "").replace(/\./g, " ").replace(/\s+/g, " ").trim().toUpperCase()
  const l = clean(last)
  const f = clean(first)
  if (l === "") return undefined
  return f === "" ? l : `${l}, ${f}`
}

/** Person name in reading order ("Geoffrey D. Gaither"). */
export const personName = (...parts: ReadonlyArray<string | undefined>): string | undefined => {
  const s = parts.filter((p) => p && p.trim() !== "").join(" ").replace(/\s+/g, " ").trim()
  return s === "" ? undefined : s
}

/** Document type from appl-type where given, else from the kind code / number prefix. */
export const docType = (applType: string | undefined, kind: string | undefined, number?: string): string => {
  const t = (applType ?? "").toLowerCase()
  if (["utility", "design", "plant", "reissue", "provisional"].includes(t)) return t
  if (t !== "") return "other"
  const k = (kind ?? "").toUpperCase()
  const n = (number ?? "").toUpperCase()
  if (k.startsWith("S") || n.startsWith("D")) return "design"
  if (k.startsWith("P") || n.startsWith("PP")) return "plant"
  if (k.startsWith("E") || n.startsWith("RE")) return "reissue"
  if (k.startsWith("H") || n.startsWith("H")) return "other"
  return "utility"
}

export interface CpcParts {
  readonly symbol: string
  readonly subclass: string
  readonly section: string
}

/** CPC symbol from its parts ("H","04","L","9","0643") → H04L9/0643. */
export const cpcFromParts = (
  section: string | undefined,
  cls: string | undefined,
  subclass: string | undefined,
  mainGroup: string | undefined,
  subgroup: string | undefined
): CpcParts | undefined => {
  const s = (section ?? "").trim().toUpperCase()
  const c = (cls ?? "").trim().padStart(2, "0")
  const sc = (subclass ?? "").trim().toUpperCase()
  const mg = (mainGroup ?? "").trim().replace(/^0+(?=\d)/, "")
  const sg = (subgroup ?? "").trim()
  if (!/^[A-HY]$/.test(s) || !/^\d{2}$/.test(c) || !/^[A-Z]$/.test(sc) || !/^\d{1,4}$/.test(mg) || !/^\d{2,6}$/.test(sg)) return undefined
  return { symbol: `${s}${c}${sc}${mg}/${sg}`, subclass: `${s}${c}${sc}`, section: s }
}

/** CPC symbol from printed text ("B60K 6/40", "H04L 9/0643") → parts. */
export const cpcFromText = (text: string | undefined): CpcParts | undefined => {
  const m = /^\s*([A-HY])\s*(\d{2})\s*([A-Z])\s*(\d{1,4})\s*\/\s*(\d{2,6})/i.exec(text ?? "")
  return m ? cpcFromParts(m[1], m[2], m[3], m[4], m[5]) : undefined
}
