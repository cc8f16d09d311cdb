/**
 * A v4 ("ICE") document — us-patent-grant or us-patent-application, DTD v4.0–v4.6 — to rows.
 * Grants and applications share the dialect; they differ in the bibliographic element's name,
 * the source tag and the status.
 */
import { row, type ReaderEvent } from "../../../../core/corpus/reader.ts"
import { at, type XmlElement } from "./dom.ts"
import { yearOf } from "./normalize.ts"
import { iceAppNum, iceApplicationRecord, iceExaminers } from "./ice-biblio.ts"
import { iceClaims, iceDescription } from "./ice-body.ts"
import { iceCitations, iceContinuity, iceCpc } from "./ice-refs.ts"
import type { DocContext, UsptoSource } from "./rows.ts"

export type Extracted = { readonly events: ReaderEvent[] } | { readonly skip: string }

export const iceDocument = (root: XmlElement, biblioName: string, source: UsptoSource, sourceFile: string): Extracted => {
  const biblio = at(root, biblioName)
  if (!biblio) return { skip: `no <${biblioName}>` }
  const appNum = iceAppNum(biblio)
  if (!appNum) return { skip: "missing application number" }
  const record = iceApplicationRecord(root, biblio, appNum, source, sourceFile)
  const ctx: DocContext = { appNum, source, filingYear: yearOf(typeof record.filing_date === "string" ? record.filing_date : undefined) }
  return {
    events: [
      row("application_records", record),
      ...iceClaims(root, ctx).map((r) => row("claims", r)),
      ...iceDescription(root, ctx).map((r) => row("description_paragraphs", r)),
      ...iceCpc(biblio, ctx).map((r) => row("cpc_assignments", r)),
      ...iceCitations(biblio, ctx).map((r) => row("citations", r)),
      ...iceContinuity(biblio, ctx).map((r) => row("continuity", r)),
      ...iceExaminers(biblio, ctx).map((r) => row("examiner_records", r))
    ]
  }
}
