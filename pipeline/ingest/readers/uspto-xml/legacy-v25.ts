/**
 * The pre-2005 grant dialect: PATDOC, DTD v2.5 (ST.32 "SDO" tags: B110 patent number,
 * B210 application number, B561 citations, B746/B747 examiners, CLM/CLREF claims …).
 * Grants of 2001–2004; it has no CPC and no printed paragraph numbers.
 */
import type { ApplicationRecord, CitationRow, ContinuityRow, ExaminerRecordRow } from "../../../../core/artifacts/tables.ts"
import { row } from "../../../../core/corpus/reader.ts"
import { allAt, at, elements, findAll, textAt, textOf, type XmlElement } from "./dom.ts"
import type { Extracted } from "./ice.ts"
import { appNumber, citedNumber, docType, examinerName, isoDate, patentNumber, personName, yearOf } from "./normalize.ts"
import { claimNumberOfId, claimRow, descriptionRows, markupRefs, type DocContext } from "./rows.ts"
import { cleanText } from "./text.ts"

const SOURCE = "uspto-grant-xml" as const

const pdat = (el: XmlElement | undefined, path: string) => textAt(el, `${path}/PDAT`)

const partyName = (party: XmlElement | undefined): string | undefined => {
  const nam = at(party, "NAM")
  return textOf(at(nam, "ONM")) ?? personName(textOf(at(nam, "FNM")), textOf(at(nam, "SNM")))
}

const examiner = (el: XmlElement | undefined) => {
  const nam = at(el, "PARTY-US/NAM")
  return examinerName(textOf(at(nam, "SNM")), textOf(at(nam, "FNM")))
}

const RELATION: Record<string, string> = {
  B610: "OTHER", B620: "DIV", B630: "CON", B631: "CON", B632: "CIP", B633: "REI", B640: "REI", B641US: "REI",
  B645: "OTHER", B646US: "OTHER", B660: "OTHER", B680US: "PRO"
}

const usApp = (doc: XmlElement | undefined): string | undefined => {
  const ctry = pdat(doc, "CTRY")
  const number = pdat(doc, "DNUM") ?? ""
  if ((ctry && ctry.toUpperCase() !== "US") || /PCT/i.test(number)) return undefined
  return appNumber(number)
}

/** Parent links of one B6xx element: PARENT-US (PDOC parent, CDOC child) or a bare DOC (provisional). */
const links = (el: XmlElement) => [
  ...allAt(el, "PARENT-US").map((p) => ({ parent: at(p, "PDOC/DOC"), child: at(p, "CDOC/DOC") })),
  ...allAt(el, "DOC").map((d) => ({ parent: d, child: undefined }))
]

const continuity = (sdobi: XmlElement, ctx: DocContext): ContinuityRow[] => {
  const rows: ContinuityRow[] = []
  const visit = (el: XmlElement) => {
    const relation = RELATION[el.name]
    if (!relation) return
    for (const link of links(el)) {
      const parent = usApp(link.parent)
      const child = usApp(link.child) ?? ctx.appNum
      if (parent && parent !== child) {
        rows.push({ child_app: child, parent_app: parent, relation, parent_filing_date: isoDate(pdat(link.parent, "DATE")) ?? null, source: SOURCE })
      }
    }
    // B630 may wrap B631 (continuation), B632 (CIP), B633 (continuing reissue).
    for (const c of elements(el)) visit(c)
  }
  const related = at(sdobi, "B600")
  for (const el of related ? elements(related) : []) visit(el)
  return rows
}

const citations = (sdobi: XmlElement, ctx: DocContext): CitationRow[] =>
  allAt(sdobi, "B500/B560/B561").flatMap((c) => {
    const doc = at(c, "PCIT/DOC")
    const country = pdat(doc, "CTRY")
    const cited_doc = citedNumber(pdat(doc, "DNUM"), country)
    if (!doc || !cited_doc) return []
    const byExaminer = at(c, "CITED-BY-EXAMINER") !== undefined
    const category = byExaminer ? "cited by examiner" : at(c, "CITED-BY-OTHER") ? "cited by other" : undefined
    return [{
      citing_app: ctx.appNum,
      source: SOURCE,
      cited_doc,
      cited_country: country ?? "US",
      cited_kind: pdat(doc, "KIND") ?? null,
      cited_date: isoDate(pdat(doc, "DATE")) ?? null,
      examiner_cited: byExaminer,
      category: category ?? null,
      citing_filing_year: ctx.filingYear ?? null
    }]
  })

export const legacyGrantDocument = (root: XmlElement, sourceFile: string): Extracted => {
  const sdobi = at(root, "SDOBI")
  if (!sdobi) return { skip: "no <SDOBI>" }
  const appNum = appNumber(pdat(sdobi, "B200/B210/DNUM"))
  if (!appNum) return { skip: "missing application number" }
  const rawNumber = pdat(sdobi, "B100/B110/DNUM")
  const kind = pdat(sdobi, "B100/B130")
  const pubDate = isoDate(pdat(sdobi, "B100/B140/DATE"))
  const filingDate = isoDate(pdat(sdobi, "B200/B220/DATE"))
  const ctx: DocContext = { appNum, source: SOURCE, filingYear: yearOf(filingDate) }
  const exam = at(sdobi, "B700/B745")
  const artUnit = pdat(exam, "B748US")?.replace(/\D/g, "") || null
  const record: ApplicationRecord = {
    app_num: appNum,
    source: SOURCE,
    source_file: sourceFile,
    pub_num: patentNumber(rawNumber) ?? null,
    kind: kind ?? null,
    doc_type: docType(undefined, kind, rawNumber),
    title: cleanText(at(sdobi, "B500/B540")) || null,
    abstract: cleanText(at(root, "SDOAB")) || null,
    filing_date: filingDate ?? null,
    pub_date: pubDate ?? null,
    grant_date: pubDate ?? null,
    country: pdat(sdobi, "B100/B190") ?? null,
    assignees: allAt(sdobi, "B700/B730/B731/PARTY-US").map(partyName).filter((n): n is string => n !== undefined),
    inventors: allAt(sdobi, "B700/B720/B721/PARTY-US").map(partyName).filter((n): n is string => n !== undefined),
    examiner: examiner(at(exam, "B746")) ?? null,
    art_unit: artUnit,
    status: "granted"
  }
  const examiners: ExaminerRecordRow[] = (
    [["B746", "primary"], ["B747", "assistant"]] as const
  ).flatMap(([tag, role]) => {
    const full_name = examiner(at(exam, tag))
    return full_name ? [{ full_name, art_unit: artUnit, app_num: appNum, role, source: SOURCE }] : []
  })
  const claims = allAt(root, "SDOCL/CL/CLM").flatMap((c) => {
    const n = claimNumberOfId(c.attrs["ID"])
    return n ? [claimRow(ctx, n, c, markupRefs(findAll(c, "CLREF"), "ID"))] : []
  })
  const paragraphs = descriptionRows(ctx, at(root, "SDODE"), { heading: new Set(["H"]), paragraph: new Set(["PARA"]), paraNum: () => undefined })
  return {
    events: [
      row("application_records", record),
      ...claims.map((r) => row("claims", r)),
      ...paragraphs.map((r) => row("description_paragraphs", r)),
      ...citations(sdobi, ctx).map((r) => row("citations", r)),
      ...continuity(sdobi, ctx).map((r) => row("continuity", r)),
      ...examiners.map((r) => row("examiner_records", r))
    ]
  }
}
