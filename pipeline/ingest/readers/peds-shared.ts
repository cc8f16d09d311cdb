/**
 * What the two PEDS dialects (ST96 and the search API) have in common once their fields are
 * found: the application rows, the transaction history order and the continuity rows.
 */
import { type ReaderEvent, row } from "../../../core/corpus/reader.ts"
import type { ApplicationRecord } from "../../../core/artifacts/tables.ts"
import { appNum, continuityRelation, isoDate, kindOf, pubNum } from "./json-fields.ts"

export type PedsSource = "peds-st96" | "peds-search"

export interface PedsPublications {
  /** Pre-grant publication id as PEDS writes it: "US20190064347A1". */
  readonly pgpubId: unknown
  readonly pgpubDate: string | null
  readonly patentNumber: unknown
  readonly grantDate: string | null
}

/**
 * One application row per publication PEDS knows of: the pre-grant publication row and, for a
 * patented case, the grant row (pub_num = patent number, no kind: PEDS does not give the grant's
 * kind code). All other fields are the same on both rows, so the merge sees one application.
 */
export const pedsApplicationRows = (
  base: Omit<ApplicationRecord, "pub_num" | "kind" | "pub_date" | "grant_date">,
  pubs: PedsPublications
): ReaderEvent[] => {
  const pgpub = pubNum(pubs.pgpubId)
  const patent = pubNum(pubs.patentNumber)
  const rows: ApplicationRecord[] = []
  if (pgpub) rows.push({ ...base, pub_num: pgpub, kind: kindOf(pubs.pgpubId), pub_date: pubs.pgpubDate, grant_date: pubs.grantDate })
  if (patent) rows.push({ ...base, pub_num: patent, kind: null, pub_date: pubs.grantDate, grant_date: pubs.grantDate })
  if (rows.length === 0) rows.push({ ...base, pub_num: null, kind: null, pub_date: null, grant_date: pubs.grantDate })
  return rows.map((r) => row("application_records", r))
}

const compareDates = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

export interface RawEvent {
  readonly date: unknown
  readonly code: unknown
  readonly description: unknown
}

/**
 * Transaction history oldest first. PEDS lists transactions roughly newest first in recording
 * order, with same-day and back-dated entries out of strict date order: reversing keeps the
 * recording order within a day, the stable date sort fixes the rest.
 */
export const prosecutionEventRows = (app: string, events: ReadonlyArray<RawEvent>, source: PedsSource): ReaderEvent[] =>
  events
    .map((e) => ({
      date: isoDate(e.date, "transaction date"),
      code: typeof e.code === "string" && e.code.trim() !== "" ? e.code.trim() : null,
      description: typeof e.description === "string" ? e.description.trim() : ""
    }))
    .reverse()
    .map((e, i) => ({ ...e, i }))
    // Dates are YYYY-MM-DD (isoDate) or absent: code-unit order is date order, and far cheaper than localeCompare.
    .sort((a, b) => compareDates(a.date ?? "", b.date ?? "") || a.i - b.i)
    .map((e, seq) => row("prosecution_events", { app_num: app, seq, event_date: e.date, code: e.code, description: e.description || e.code || "", source }))

export interface RawRelation {
  /** The other application of the relation. */
  readonly other: unknown
  /** PEDS wording: "This application is a Continuation of", "claims the benefit of", … */
  readonly description: unknown
  /** Filing date of the other application. */
  readonly otherFilingDate: unknown
  /** True when the other application is this one's parent. */
  readonly otherIsParent: boolean
}

/**
 * Continuity rows for one application. Child relations listed on a parent become child→parent
 * rows too. Relations to PCT or foreign applications are left out: continuity is between US
 * application numbers.
 */
export const continuityRows = (
  self: string,
  selfFilingDate: string | null,
  relations: ReadonlyArray<RawRelation>,
  source: PedsSource
): ReaderEvent[] => {
  const out: ReaderEvent[] = []
  for (const r of relations) {
    const other = appNum(r.other)
    if (!other || other === self) continue
    const relation = continuityRelation(typeof r.description === "string" ? r.description : "")
    out.push(
      r.otherIsParent
        ? row("continuity", { child_app: self, parent_app: other, relation, parent_filing_date: isoDate(r.otherFilingDate, "continuity filing date"), source })
        : row("continuity", { child_app: other, parent_app: self, relation, parent_filing_date: selfFilingDate, source })
    )
  }
  return out
}
