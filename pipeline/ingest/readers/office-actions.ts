/**
 * Reader for USPTO office-action text records (OACS JSON: `bodyText`, `legacyDocumentCodeIdentifier`,
 * `examinerEmployeeNumber`, section fields such as "sections.section103RejectionText").
 *
 * The rejection flags come from the body: an action rejects under a statute when it has a
 * "Claim Rejections - 35 USC § 103" heading or a "… rejected under 35 U.S.C. 103 …" statement
 * (OACS's own per-statute section fields count too). Statutes that are only quoted, or named in
 * a response to arguments, do not count.
 * The examiner's name is not a field; it is taken from the closing "should be directed to NAME
 * whose telephone number is" sentence that every action carries.
 */
import { type CorpusReader, type ReaderEvent, row } from "../../../core/corpus/reader.ts"
import { describeBy, readJsonRecords } from "./json-array.ts"
import { RecordSkip, appNum, artUnit, isoDate, pubNum, str, strs, surnameFirst } from "./json-fields.ts"

type Rec = Record<string, unknown>

const SOURCE = "office-action" as const

const STATUTE = String.raw`35\s*U\.?\s*S\.?\s*C\.?\s*§*\s*`

export interface RejectionFlags {
  readonly rejection_101: boolean
  readonly rejection_102: boolean
  readonly rejection_103: boolean
  readonly rejection_112: boolean
  readonly rejection_dp: boolean
}

/** Statutory bases of the rejections an action's body makes. */
export const detectRejections = (body: string): RejectionFlags => {
  const found = new Set<string>()
  for (const m of body.matchAll(new RegExp(String.raw`Claim Rejections?\s*[-–—]\s*${STATUTE}(10[123]|112)`, "gi"))) found.add(m[1])
  // The statement names one or more statutes ("under 35 U.S.C. 102(a)(1) … or, in the alternative, under 35 U.S.C. 103"): read to the end of the line.
  for (const m of body.matchAll(/\brejected under\b([^\n]{0,400})/gi)) {
    for (const s of m[1].matchAll(new RegExp(`${STATUTE}(10[123]|112)`, "gi"))) found.add(s[1])
  }
  const dp =
    /\bdouble patenting\b[^\n]{0,40}\brejection/i.test(body) ||
    /\brejected on the ground of (?:nonstatutory |statutory )?(?:obviousness-type )?double patenting/i.test(body) ||
    /^\s*Double Patenting\s*$/im.test(body)
  return {
    rejection_101: found.has("101"),
    rejection_102: found.has("102"),
    rejection_103: found.has("103"),
    rejection_112: found.has("112"),
    rejection_dp: dp
  }
}

/** OACS section fields ("sections.section103RejectionText") confirm a rejection the body text may phrase unusually. */
const sectionFlags = (r: Rec) => {
  const has = (statute: string) => strs(r[`sections.section${statute}RejectionText`]).length > 0
  return { "101": has("101"), "102": has("102"), "103": has("103"), "112": has("112") }
}

const INQUIRY = /should be directed to\s+([A-Z][A-Za-z.'\- ]{2,60}?)\s+whose telephone number/

/** The examiner's surname-first name and role from the body's closing paragraph and signature block. */
const examinerOf = (body: string): { name: string; role: string | null } | null => {
  const m = INQUIRY.exec(body)
  const name = m ? surnameFirst(m[1]) : null
  if (!name) return null
  const surname = name.split(",")[0].split(" ")[0]
  const sig = new RegExp(String.raw`/[^/\n]*\b${surname.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\b[^/\n]*/\s*\n\s*(Primary Examiner|Examiner)\b`, "i").exec(body)
  return { name, role: sig ? (/primary/i.test(sig[1]) ? "primary" : "assistant") : null }
}

const describe = describeBy("id", (r) => r.id)

const recordEvents = (file: string) => (r: Rec): ReaderEvent[] => {
  const rawApp = str(r.patentApplicationNumber)
  if (!rawApp) throw new RecordSkip("no application number")
  const app = appNum(rawApp)
  if (!app) throw new RecordSkip(`not a US application number: ${rawApp}`)
  const documentId = str(r.id) ?? str(r.obsoleteDocumentIdentifier)
  if (!documentId) throw new RecordSkip("no document id")
  const body = strs(r.bodyText).length ? (Array.isArray(r.bodyText) ? r.bodyText : [r.bodyText]).filter((t): t is string => typeof t === "string").join("\n").trim() : ""
  if (body === "") throw new RecordSkip("no body text")

  const unit = artUnit(r.groupArtUnitNumber ?? r["sections.groupArtUnitNumber"])
  const employee = str(r.examinerEmployeeNumber ?? r["sections.examinerEmployeeNumber"])
  const flags = detectRejections(body)
  const sections = sectionFlags(r)
  const examiner = examinerOf(body)

  return [
    row("application_records", {
      app_num: app,
      source: SOURCE,
      source_file: file,
      pub_num: pubNum(r.patentNumber),
      title: str(r.inventionTitle),
      filing_date: isoDate(r.filingDate, "filing date"),
      grant_date: isoDate(r.grantDate, "grant date"),
      country: "US",
      art_unit: unit
    }),
    row("office_actions", {
      app_num: app,
      document_id: documentId,
      document_code: str(r.legacyDocumentCodeIdentifier),
      mail_date: isoDate(r.submissionDate, "mail date"),
      art_unit: unit,
      examiner_employee_number: employee,
      rejection_101: flags.rejection_101 || sections["101"],
      rejection_102: flags.rejection_102 || sections["102"],
      rejection_103: flags.rejection_103 || sections["103"],
      rejection_112: flags.rejection_112 || sections["112"],
      rejection_dp: flags.rejection_dp,
      text: body,
      source: SOURCE
    }),
    ...(examiner
      ? [row("examiner_records", { full_name: examiner.name, art_unit: unit, employee_number: employee, app_num: app, role: examiner.role, source: SOURCE })]
      : [])
  ]
}

export const officeActionReader: CorpusReader = (file) => readJsonRecords(file, describe, recordEvents(file.path))
