/**
 * Bibliographic fields of the v4 ("ICE", us-patent-grant / us-patent-application DTD v4.0–v4.6)
 * dialect: the application record and the examiner names.
 */
import type { ApplicationRecord, ExaminerRecordRow } from "../../../../core/artifacts/tables.ts"
import { at, childrenNamed, find, findAll, textAt, textOf, type XmlElement } from "./dom.ts"
import { appNumber, docType, examinerName, isoDate, patentNumber, personName } from "./normalize.ts"
import type { DocContext, UsptoSource } from "./rows.ts"
import { cleanText, cleanTexts } from "./text.ts"

const nameOf = (party: XmlElement): string | undefined =>
  textOf(find(party, "orgname")) ?? personName(textOf(find(party, "first-name")), textOf(find(party, "last-name")))

/** Names of parties, found anywhere under `scope` by element name. */
const partyNames = (scope: XmlElement | undefined, names: ReadonlyArray<string>, keep: (p: XmlElement) => boolean = () => true) =>
  names.flatMap((n) => findAll(scope, n)).filter(keep).map(nameOf).filter((n): n is string => n !== undefined)

const hasOrg = (p: XmlElement) => find(p, "orgname") !== undefined
const isInventorApplicant = (p: XmlElement) => /inventor/.test(p.attrs["app-type"] ?? "")

export const iceAppNum = (biblio: XmlElement | undefined): string | undefined =>
  appNumber(textAt(biblio, "application-reference/document-id/doc-number"))

export const iceApplicationRecord = (
  root: XmlElement,
  biblio: XmlElement,
  appNum: string,
  source: UsptoSource,
  sourceFile: string
): ApplicationRecord => {
  const granted = source === "uspto-grant-xml"
  const pub = at(biblio, "publication-reference/document-id")
  const appRef = at(biblio, "application-reference")
  const kind = textAt(pub, "kind")
  const rawNumber = textAt(pub, "doc-number")
  const pubDate = isoDate(textAt(pub, "date") ?? root.attrs["date-publ"])
  const assignees = partyNames(at(biblio, "assignees"), ["assignee"])
  const inventors = partyNames(biblio, ["inventor"])
  const primary = at(biblio, "examiners/primary-examiner")
  return {
    app_num: appNum,
    source,
    source_file: sourceFile,
    pub_num: patentNumber(rawNumber) ?? null,
    kind: kind ?? null,
    doc_type: docType(appRef?.attrs["appl-type"], kind, rawNumber),
    title: cleanText(at(biblio, "invention-title")) || null,
    abstract: cleanTexts(childrenNamed(root, "abstract")) || null,
    filing_date: isoDate(textAt(appRef, "document-id/date")) ?? null,
    pub_date: pubDate ?? null,
    grant_date: granted ? pubDate ?? null : null,
    country: textAt(pub, "country") ?? root.attrs["country"] ?? null,
    // Post-AIA applications name the assignee as an organisation applicant only.
    assignees: assignees.length > 0 ? assignees : partyNames(biblio, ["us-applicant", "applicant"], (p) => hasOrg(p) && !isInventorApplicant(p)),
    // v4.0/v4.1 list inventors as applicants of type applicant-inventor.
    inventors: inventors.length > 0 ? inventors : partyNames(biblio, ["us-applicant", "applicant"], isInventorApplicant),
    examiner: examinerName(textAt(primary, "last-name"), textAt(primary, "first-name")) ?? null,
    art_unit: textAt(primary, "department")?.replace(/\D/g, "") || null,
    status: granted ? "granted" : "published"
  }
}

export const iceExaminers = (biblio: XmlElement, ctx: DocContext): ExaminerRecordRow[] => {
  const examiners = at(biblio, "examiners")
  const artUnit = textAt(examiners, "primary-examiner/department")?.replace(/\D/g, "") || null
  const roles = [
    ["primary-examiner", "primary"],
    ["assistant-examiner", "assistant"]
  ] as const
  return roles.flatMap(([tag, role]) =>
    childrenNamed(examiners, tag).flatMap((e) => {
      const full_name = examinerName(textAt(e, "last-name"), textAt(e, "first-name"))
      return full_name ? [{ full_name, art_unit: artUnit, app_num: ctx.appNum, role, source: ctx.source }] : []
    })
  )
}
