/**
 * Reader for PEDS records in the WIPO ST.96-derived JSON shape (`patentCaseMetadata`,
 * `prosecutionHistoryDataBag`, …): application data, the examiner, status, continuity and the
 * full transaction history. The file-wrapper document list (`contentResourceBag`) is not read.
 *
 * ST.96 nests every party in "bag" lists whose members may be an object, a list or an empty
 * object; `list()` flattens those.
 */
import { type CorpusReader, type ReaderEvent, row } from "../../../core/corpus/reader.ts"
import { describeBy, readJsonRecords } from "./json-array.ts"
import { RecordSkip, appNum, artUnit, docType, isoDate, list, obj, personName, str, surnameFirst, uniq } from "./json-fields.ts"
import { continuityRows, pedsApplicationRows, prosecutionEventRows } from "./peds-shared.ts"

type Rec = Record<string, unknown>

const SOURCE = "peds-st96" as const

/** Name entries of a party list: party → contactOrPublicationContact → name → personNameOrOrganizationNameOrEntityName. */
const names = (parties: unknown): Rec[] =>
  list(parties).flatMap((p) =>
    [p, ...list(p.contactOrPublicationContact)].flatMap((c) => list(obj(c.name)?.personNameOrOrganizationNameOrEntityName))
  )

const structuredName = (n: Rec): string | null => {
  const s = obj(n.personStructuredName)
  if (!s) return null
  const given = [str(s.firstName), str(s.middleName)].filter(Boolean).join(" ")
  return personName(s.lastName, given)
}

const describe = describeBy("applicationNumber", (r) => obj(obj(obj(r.patentCaseMetadata)?.applicationNumberText))?.value)

const recordEvents = (file: string) => (r: Rec): ReaderEvent[] => {
  const meta = obj(r.patentCaseMetadata)
  if (!meta) throw new RecordSkip("no patentCaseMetadata")
  const rawApp = str(obj(meta.applicationNumberText)?.value ?? meta.applicationNumberText)
  if (!rawApp) throw new RecordSkip("no application number")
  const app = appNum(rawApp)
  if (!app) throw new RecordSkip(`not a US application number: ${rawApp}`)

  const bags = list(obj(meta.partyBag)?.applicantBagOrInventorBagOrOwnerBag)
  const examiner = uniq(
    bags.flatMap((b) => names(b.primaryExaminerOrAssistantExaminerOrAuthorizedOfficer)).map((n) => surnameFirst(n.personFullName)).filter((n): n is string => n !== null)
  )[0] ?? null
  const inventors = uniq(bags.flatMap((b) => names(b.inventorOrDeceasedInventor)).map(structuredName).filter((n): n is string => n !== null))
  const assignees = uniq(
    bags.flatMap((b) => names(b.applicant)).map((n) => str(obj(n.organizationStandardName)?.content ?? n.organizationStandardName)).filter((n): n is string => n !== null)
  )
  const filingDate = isoDate(meta.filingDate, "filing date")
  const unit = artUnit(obj(meta.groupArtUnitNumber)?.value ?? meta.groupArtUnitNumber)
  const pgpub = obj(meta.patentPublicationIdentification)
  const grant = obj(meta.patentGrantIdentification)

  const applications = pedsApplicationRows(
    {
      app_num: app,
      source: SOURCE,
      source_file: file,
      doc_type: docType(null, null, str(meta.applicationTypeCategory)),
      title: str(obj(meta.inventionTitle)?.content ?? meta.inventionTitle),
      abstract: null,
      filing_date: filingDate,
      country: "US",
      assignees,
      inventors,
      examiner,
      art_unit: unit,
      status: str(meta.applicationStatusCategory),
      status_date: isoDate(meta.applicationStatusDate, "status date")
    },
    {
      pgpubId: pgpub?.publicationNumber,
      pgpubDate: isoDate(pgpub?.publicationDate, "publication date"),
      patentNumber: grant?.patentNumber,
      grantDate: isoDate(grant?.grantDate, "grant date")
    }
  )

  const history = list(obj(r.prosecutionHistoryDataBag)?.prosecutionHistoryData)
  const relations = list(obj(meta.relatedDocumentData)?.parentDocumentDataOrChildDocumentData).map((d) => ({
    other: d.applicationNumberText,
    description: d.descriptionText,
    otherFilingDate: d.filingDate,
    // Child entries read "which is Patented claims the benefit of <this application>" and carry a child status code.
    otherIsParent: !("childDocumentStatusCode" in d) && !/claims the benefit of/i.test(String(d.descriptionText ?? ""))
  }))

  return [
    ...applications,
    ...(examiner ? [row("examiner_records", { full_name: examiner, art_unit: unit, app_num: app, role: null, source: SOURCE })] : []),
    ...prosecutionEventRows(app, history.map((e) => ({ date: e.eventDate, code: e.eventCode, description: e.eventDescriptionText })), SOURCE),
    ...continuityRows(app, filingDate, relations, SOURCE)
  ]
}

export const pedsSt96Reader: CorpusReader = (file) => readJsonRecords(file, describe, recordEvents(file.path))
