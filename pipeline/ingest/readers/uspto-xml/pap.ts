/**
 * The pre-2005 application dialect: patent-application-publication, DTD v1.5/v1.6 (the `pa`
 * weekly files, 2001–2004). Paragraph numbers are printed in <number>[0012]</number>,
 * dependencies in <dependent-claim-reference depends_on="CLM-00001">; no CPC, no citations.
 */
import type { ApplicationRecord, ContinuityRow } from "../../../../core/artifacts/tables.ts"
import { row } from "../../../../core/corpus/reader.ts"
import { allAt, at, elements, findAll, textAt, textOf, type XmlElement } from "./dom.ts"
import type { Extracted } from "./ice.ts"
import { appNumber, docType, isoDate, patentNumber, personName, yearOf } from "./normalize.ts"
import { claimNumberOfId, claimRow, descriptionRows, markupRefs, type DocContext } from "./rows.ts"
import { cleanText } from "./text.ts"

const SOURCE = "uspto-app-xml" as const

const RELATION: Record<string, string> = {
  "continuation-of": "CON",
  "continuation-in-part-of": "CIP",
  "division-of": "DIV",
  "non-provisional-of-provisional": "PRO",
  "a-371-of-international": "NST",
  "reissue-of": "REI",
  "substitution-for": "OTHER"
}

const usApp = (docId: XmlElement | undefined): string | undefined => {
  const ctry = textAt(docId, "country-code")
  const number = textAt(docId, "doc-number") ?? ""
  if ((ctry && ctry.toUpperCase() !== "US") || /PCT|WO/i.test(number)) return undefined
  return appNumber(number)
}

const continuity = (bib: XmlElement, ctx: DocContext): ContinuityRow[] => {
  const rows: ContinuityRow[] = []
  const add = (childDoc: XmlElement | undefined, parentDoc: XmlElement | undefined, relation: string) => {
    const parent = usApp(parentDoc)
    const child = usApp(childDoc) ?? ctx.appNum
    if (parent && parent !== child) {
      rows.push({ child_app: child, parent_app: parent, relation, parent_filing_date: isoDate(textAt(parentDoc, "document-date")) ?? null, source: SOURCE })
    }
  }
  const visit = (el: XmlElement): void => {
    const relation = RELATION[el.name]
    if (!relation) return elements(el).forEach(visit)
    for (const pc of allAt(el, "parent-child")) add(at(pc, "child/document-id"), at(pc, "parent/document-id"), relation)
    for (const d of allAt(el, "document-id")) add(undefined, d, relation)
  }
  const data = at(bib, "continuity-data")
  if (data) visit(data)
  return rows
}

const inventorName = (inv: XmlElement) => {
  const n = at(inv, "name")
  return personName(textAt(n, "given-name"), textAt(n, "middle-name"), textAt(n, "family-name"), textAt(n, "name-suffix"))
}

const NUMBER = new Set(["number"])

export const papDocument = (root: XmlElement, sourceFile: string): Extracted => {
  const bib = at(root, "subdoc-bibliographic-information")
  if (!bib) return { skip: "no <subdoc-bibliographic-information>" }
  const filing = at(bib, "domestic-filing-data")
  const appNum = appNumber(textAt(filing, "application-number/doc-number"))
  if (!appNum) return { skip: "missing application number" }
  const kind = textAt(bib, "document-id/kind-code")
  const rawNumber = textAt(bib, "document-id/doc-number")
  const filingDate = isoDate(textAt(filing, "filing-date"))
  const ctx: DocContext = { appNum, source: SOURCE, filingYear: yearOf(filingDate) }
  const record: ApplicationRecord = {
    app_num: appNum,
    source: SOURCE,
    source_file: sourceFile,
    pub_num: patentNumber(rawNumber) ?? null,
    kind: kind ?? null,
    doc_type: docType(undefined, kind, rawNumber),
    title: cleanText(at(bib, "technical-information/title-of-invention")) || null,
    abstract: cleanText(at(root, "subdoc-abstract")) || null,
    filing_date: filingDate ?? null,
    pub_date: isoDate(textAt(bib, "document-id/document-date")) ?? null,
    grant_date: null,
    country: "US",
    assignees: allAt(bib, "assignee")
      .map((a) => textOf(at(a, "organization-name")) ?? inventorName(a))
      .filter((n): n is string => n !== undefined),
    inventors: [...findAll(at(bib, "inventors"), "first-named-inventor"), ...findAll(at(bib, "inventors"), "inventor")]
      .map(inventorName)
      .filter((n): n is string => n !== undefined),
    examiner: null,
    art_unit: null,
    status: "published"
  }
  const claims = allAt(root, "subdoc-claims/claim").flatMap((c) => {
    const n = claimNumberOfId(c.attrs["id"])
    return n ? [claimRow(ctx, n, c, markupRefs(findAll(c, "dependent-claim-reference"), "depends_on"))] : []
  })
  const paragraphs = descriptionRows(ctx, at(root, "subdoc-description"), {
    heading: new Set(["heading"]),
    paragraph: new Set(["paragraph"]),
    paraNum: (p) => textAt(p, "number")?.replace(/\D/g, "") || undefined,
    text: { omit: NUMBER }
  })
  return {
    events: [
      row("application_records", record),
      ...claims.map((r) => row("claims", r)),
      ...paragraphs.map((r) => row("description_paragraphs", r)),
      ...continuity(bib, ctx).map((r) => row("continuity", r))
    ]
  }
}
