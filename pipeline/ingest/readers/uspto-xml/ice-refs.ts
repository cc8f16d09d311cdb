/**
 * CPC, citations and continuity of the v4 ("ICE") dialect.
 */
import type { CitationRow, ContinuityRow, CpcAssignmentRow } from "../../../../core/artifacts/tables.ts"
import { allAt, at, childrenNamed, elements, textAt, textOf, type XmlElement } from "./dom.ts"
import { appNumber, citedNumber, cpcFromParts, cpcFromText, isoDate, type CpcParts } from "./normalize.ts"
import type { DocContext } from "./rows.ts"

const cpcParts = (c: XmlElement): CpcParts | undefined =>
  cpcFromParts(textAt(c, "section"), textAt(c, "class"), textAt(c, "subclass"), textAt(c, "main-group"), textAt(c, "subgroup"))

/** Main and further CPC of the document itself (not the CPC printed next to citations). */
export const iceCpc = (biblio: XmlElement, ctx: DocContext): CpcAssignmentRow[] => {
  const rows: CpcAssignmentRow[] = []
  const seen = new Set<string>()
  for (const [group, isMain] of [["main-cpc", true], ["further-cpc", false]] as const) {
    for (const g of allAt(biblio, `classifications-cpc/${group}`)) {
      const structured = childrenNamed(g, "classification-cpc").map((c) => ({ parts: cpcParts(c), value: textAt(c, "classification-value") }))
      const printed = childrenNamed(g, "classification-cpc-text").map((c) => ({ parts: cpcFromText(textOf(c)), value: undefined }))
      for (const { parts, value } of [...structured, ...printed]) {
        if (!parts || seen.has(parts.symbol)) continue
        seen.add(parts.symbol)
        rows.push({
          app_num: ctx.appNum,
          source: ctx.source,
          symbol: parts.symbol,
          subclass: parts.subclass,
          section: parts.section,
          // I = inventive, A = additional; an unmarked main symbol is the inventive one.
          is_inventive: value === undefined ? isMain : value.toUpperCase() === "I",
          is_main: isMain
        })
      }
    }
  }
  return rows
}

/** Patent citations (<patcit>); non-patent literature is left out. */
export const iceCitations = (biblio: XmlElement, ctx: DocContext): CitationRow[] => {
  const cites = [...allAt(biblio, "us-references-cited/us-citation"), ...allAt(biblio, "references-cited/citation")]
  return cites.flatMap((c) => {
    const doc = at(c, "patcit/document-id")
    if (!doc) return []
    const country = textAt(doc, "country")
    const cited_doc = citedNumber(textAt(doc, "doc-number"), country)
    if (!cited_doc) return []
    const category = textAt(c, "category")
    return [{
      citing_app: ctx.appNum,
      source: ctx.source,
      cited_doc,
      cited_country: country ?? "US",
      cited_kind: textAt(doc, "kind") ?? null,
      cited_date: isoDate(textAt(doc, "date")) ?? null,
      examiner_cited: /examiner/i.test(category ?? ""),
      category: category ?? null,
      citing_filing_year: ctx.filingYear ?? null
    }]
  })
}

const RELATION: Record<string, string> = {
  continuation: "CON",
  "continuation-in-part": "CIP",
  division: "DIV",
  "us-provisional-application": "PRO",
  reissue: "REI",
  "continuing-reissue": "REI",
  "us-divisional-reissue": "REI",
  "us-reexamination-reissue-merger": "REI"
}
/** Not parent applications: earlier publications of this same application, corrections. */
const NOT_CONTINUITY = new Set(["related-publication", "correction"])

/** A US application number from a document-id; PCT and foreign numbers give undefined. */
export const usApplication = (docId: XmlElement | undefined): string | undefined => {
  const country = textAt(docId, "country")
  const number = textAt(docId, "doc-number") ?? ""
  if ((country && country.toUpperCase() !== "US") || /PCT|WO/i.test(number)) return undefined
  return appNumber(number)
}

export const iceContinuity = (biblio: XmlElement, ctx: DocContext): ContinuityRow[] => {
  const rows: ContinuityRow[] = []
  const seen = new Set<string>()
  const add = (child: string, parentDoc: XmlElement | undefined, relation: string) => {
    const parent = usApplication(parentDoc)
    const key = `${child}|${parent}|${relation}`
    if (!parent || parent === child || seen.has(key)) return
    seen.add(key)
    rows.push({ child_app: child, parent_app: parent, relation, parent_filing_date: isoDate(textAt(parentDoc, "date")) ?? null, source: ctx.source })
  }
  const related = at(biblio, "us-related-documents")
  for (const rel of related ? elements(related) : []) {
    if (NOT_CONTINUITY.has(rel.name)) continue
    const relation = RELATION[rel.name] ?? "OTHER"
    const direct = at(rel, "document-id")
    if (direct) add(ctx.appNum, direct, relation)
    for (const r of childrenNamed(rel, "relation")) {
      // The child of a link in the chain is not always this application (A is a CON of B, a DIV of C).
      const child = usApplication(at(r, "child-doc/document-id")) ?? ctx.appNum
      add(child, at(r, "parent-doc/document-id"), relation)
    }
  }
  return rows
}
