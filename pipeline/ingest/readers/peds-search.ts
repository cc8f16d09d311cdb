/**
 * Reader for PEDS search-API records (flat Solr documents: `applId`, `appExamName`,
 * `appGrpArtNumber`, `transactions`, `parentContinuity`, `childContinuity` …).
 *
 * Records of PCT international applications (applId "PCT/US18/35667") are skipped: they are not
 * US applications and have no digits-only application number.
 */
import { type CorpusReader, type ReaderEvent, row } from "../../../core/corpus/reader.ts"
import { describeBy, readJsonRecords } from "./json-array.ts"
import { RecordSkip, appNum, artUnit, docType, isoDate, list, personName, str, strs, surnameFirst, uniq } from "./json-fields.ts"
import { continuityRows, pedsApplicationRows, prosecutionEventRows } from "./peds-shared.ts"

type Rec = Record<string, unknown>

const SOURCE = "peds-search" as const

const describe = describeBy("applId", (r) => r.applId ?? r.id)

const recordEvents = (file: string) => (r: Rec): ReaderEvent[] => {
  const raw = str(r.applId ?? r.applIdStr ?? r.id)
  if (!raw) throw new RecordSkip("no application number")
  const app = appNum(raw)
  if (!app) throw new RecordSkip(/^PCT/i.test(raw) ? `PCT international application ${raw}, not a US application number` : `not a US application number: ${raw}`)

  const filingDate = isoDate(r.appFilingDate, "filing date")
  const unit = artUnit(r.appGrpArtNumber)
  const examiner = surnameFirst(r.appExamName)
  // Applicants include individuals; only organisations belong in assignees (the facet marks them ORG).
  const orgApplicants = strs(r.applicantsFacet).join(",").match(/\{[^}]*\|ORG\|[^}]*\}/g) ?? []
  const assignees = uniq(orgApplicants.map((f) => str(f.slice(1, -1).split("|")[2])).filter((n): n is string => n !== null))
  const inventors = uniq(list(r.inventors).map((i) => personName(i.nameLineOne, i.nameLineTwo)).filter((n): n is string => n !== null))

  const applications = pedsApplicationRows(
    {
      app_num: app,
      source: SOURCE,
      source_file: file,
      doc_type: docType(null, null, str(r.appType)),
      title: str(r.patentTitle),
      abstract: null,
      filing_date: filingDate,
      country: "US",
      assignees,
      inventors,
      examiner,
      art_unit: unit,
      status: str(r.appStatus),
      status_date: isoDate(r.appStatusDate, "status date")
    },
    {
      pgpubId: r.appEarlyPubNumber,
      pgpubDate: isoDate(r.appEarlyPubDate, "publication date"),
      patentNumber: r.patentNumber,
      grantDate: isoDate(r.patentIssueDate, "grant date")
    }
  )

  // parentContinuity: claimApplicationNumberText is the parent; childContinuity: it is the child.
  const relations = [
    ...list(r.parentContinuity).map((c) => ({
      other: c.claimApplicationNumberText, description: c.applicationStatusDescription, otherFilingDate: c.filingDate, otherIsParent: true
    })),
    ...list(r.childContinuity).map((c) => ({
      other: c.claimApplicationNumberText, description: c.applicationStatusDescription, otherFilingDate: c.filingDate, otherIsParent: false
    }))
  ]

  return [
    ...applications,
    ...(examiner ? [row("examiner_records", { full_name: examiner, art_unit: unit, app_num: app, role: null, source: SOURCE })] : []),
    ...prosecutionEventRows(app, list(r.transactions).map((t) => ({ date: t.recordDate, code: t.code, description: t.description })), SOURCE),
    ...continuityRows(app, filingDate, relations, SOURCE)
  ]
}

export const pedsSearchReader: CorpusReader = (file) => readJsonRecords(file, describe, recordEvents(file.path))
