/**
 * PEDS search-API records (the shape of the sample's patent-client-peds-apps.json): bibliographic
 * fields, examiner and art unit, status as of the snapshot, continuity both ways, and the
 * transaction history newest first, as the API returns it.
 */
import type { Docket, Status } from "./docket.ts"
import type { Application } from "./document.ts"
import { isoDate, mdy } from "./dates.ts"
import { pedsName } from "./names.ts"
import { CODES, EventSink, prosecute } from "./prosecution.ts"
import { docRng, Stream } from "./random.ts"
import { GzipFile } from "./writer.ts"

const ts = (day: number): string => `${isoDate(day)}T00:00:00Z`

const STATE_NAMES: Record<string, string> = {
  CA: "CALIFORNIA", WA: "WASHINGTON", TX: "TEXAS", MA: "MASSACHUSETTS", NY: "NEW YORK", IL: "ILLINOIS", MN: "MINNESOTA",
  MI: "MICHIGAN", OH: "OHIO", PA: "PENNSYLVANIA", NC: "NORTH CAROLINA", GA: "GEORGIA", AZ: "ARIZONA", CO: "COLORADO",
  UT: "UTAH", OR: "OREGON", WI: "WISCONSIN", IN: "INDIANA", ON: "ONTARIO"
}

const continuityStatus = (s: Status): string => (s === "Patented" ? "Patented" : s === "Abandoned" ? "Abandoned" : "Pending")

const q = JSON.stringify

/** `"code":…,"description":…}` per transaction code, JSON-encoded once. */
const CODE_JSON = CODES.map(([code, description]) => `,"code":${q(code)},"description":${q(description)}}`)

/** Transactions up to the snapshot as a JSON array, newest first, and the status the last one left. */
const history = (docket: Docket, i: number, sink: EventSink): { json: string; status: string; statusDay: number } => {
  sink.reset()
  prosecute(docRng(docket.seed, i, Stream.prosecution), docket.caseOf(i), sink)
  const { days, codes } = sink
  const order: number[] = []
  for (let k = 0; k < days.length; k++) if (days[k] <= docket.snapshotDay) order.push(k)
  order.sort((a, b) => days[a] - days[b] || a - b)
  let status = "Application Undergoing Preexam Processing"
  let statusDay = docket.filingDay(i)
  for (const k of order) {
    const s = CODES[codes[k]][2]
    if (s !== "") {
      status = s
      statusDay = days[k]
    }
  }
  let json = "["
  for (let k = order.length - 1; k >= 0; k--) {
    const e = order[k]
    json += `${k === order.length - 1 ? "" : ","}{"recordDate":"${isoDate(days[e])} 00:00:00"${CODE_JSON[codes[e]]}`
  }
  return { json: json + "]", status, statusDay }
}

const continuityJson = (claimed: string, own: string, day: number, aia: string, patent: string, status: string, description: string): string =>
  `{"claimApplicationNumberText":${q(claimed)},"applicationNumberText":${q(own)},"filingDate":"${mdy(day)}","aiaIndicator":"${aia}",` +
  `"patentNumberText":${q(patent)},"applicationStatus":${q(status)},"applicationStatusDescription":${q(description)}}`

/** One PEDS search-API record, as JSON text. */
export const pedsJson = (docket: Docket, app: Application, sink: EventSink): string => {
  const i = app.index
  const { json: transactions, status, statusDay } = history(docket, i, sink)
  const entity = docket.caseOf(i).smallEntity ? "SMALL" : "UNDISCOUNTED"
  const { inventors, applicant, firm, docketNumber } = app.parties
  const patent = docket.grantNumber(i)
  const examiner = q(pedsName(app.examiner.last, app.examiner.first))
  const first = inventors[0]
  const inventorName = q(`${first.first}  ${first.last}`)
  const artUnit = `"${app.examiner.artUnit}"`
  const applId = `"${app.appNumber}"`
  const pubNumber = `"US${app.pubNumber}A1"`
  const customer = `"${firm.customer}"`
  const postal = String(firm.customer % 100000).padStart(5, "0")
  let out = `{"corrAddrCountryName":"UNITED STATES","applId":${applId}`
  if (applicant) {
    const recorded = app.filingDay + 20 + (i % 60)
    const assignors = inventors.map((p) => `{"assignorName":${q(`${p.last}, ${p.first}`.toUpperCase())},"execDate":"${mdy(app.filingDay - 3)}"}`).join(",")
    const region = applicant.place.state ? STATE_NAMES[applicant.place.state] ?? applicant.place.state : applicant.place.country
    out +=
      `,"assignments":[{"reelNumber":"${30000 + (i % 30000)}","frameNumber":"${1 + (i % 999)}","addressNameText":${q(firm.name.toUpperCase())},` +
      `"addressLineOneText":"${100 + (firm.customer % 900)} MAIN STREET","addressLineTwoText":${q(`${firm.place.city.toUpperCase()}, ${firm.place.state ?? ""} ${postal}`)},` +
      `"addressLineThreeText":"null","addressLineFourText":"null","mailDate":"${mdy(recorded + 1)}","receivedDate":"${mdy(recorded)}","recordedDate":"${mdy(recorded)}",` +
      `"pagesCount":"${2 + (i % 5)}","converyanceName":"ASSIGNMENT OF ASSIGNORS INTEREST (SEE DOCUMENT FOR DETAILS).","sequenceNumber":"1","assignors":[${assignors}],` +
      `"assignee":[{"assigneeName":${q(applicant.name.toUpperCase())},"streetLineOneText":"${1 + (i % 9000)} INNOVATION DRIVE","streetLineTwoText":"null",` +
      `"cityName":${q(applicant.place.city.toUpperCase())},"countryCode":${q(region)},"postalCode":"${10000 + (i % 89999)}"}]}]` +
      `,"applicants":[{"nameLineOne":${q(applicant.name)},"nameLineTwo":" ","suffix":"","streetOne":"","streetTwo":"","city":${q(`${applicant.place.city}, `)},` +
      `"geoCode":"${applicant.place.state ?? ""}","country":"(${applicant.place.country})","rankNo":"1"}]` +
      `,"applicantsFacet":${q(`{||${applicant.name}||||${applicant.place.city}|${applicant.place.state ?? ""}|${applicant.place.country}|ORG|1}`)}`
  }
  out +=
    `,"appFilingDate":"${ts(app.filingDay)}","appExamName":${examiner},"appExamNameFacet":${examiner},"publicInd":"Y","APP_IND":"5",` +
      `"inventorName":${inventorName},"inventorNameFacet":${inventorName},"appEarlyPubDate":"${ts(app.pubDay)}","corrAddrGeoRegionCode":"${firm.place.state ?? ""}",` +
      `"appLocation":"ELECTRONIC","appEarlyPubNumber":${pubNumber},"id":${applId},"appGrpArtNumber":${artUnit},"appGrpArtNumberFacet":${artUnit},` +
      `"applIdStr":${applId},"appl_id_txt":${applId}`
  if (patent !== undefined) out += `,"patentNumber":"${patent}"`
  const statusJson = q(status)
  const inventorsJson = inventors
    .map(
      (p, k) =>
      `{"nameLineOne":${q(p.last)},"nameLineTwo":${q(p.first + " ")},"suffix":"","streetOne":"","streetTwo":"","city":${q(p.place.city + ", ")},` +
      `"geoCode":"${p.place.state ?? ""}","country":"(${p.place.country})","rankNo":"${k + 1}"}`
    )
    .join(",")
  const inventorsFacet = inventors
    .map((p, k) => {
      const space = p.first.indexOf(" ")
      const given = space < 0 ? p.first : p.first.slice(0, space)
      const middle = space < 0 ? "" : p.first.slice(space + 1)
      return `{${given}|${middle}|${p.last}||||${p.place.city}|${p.place.state ?? ""}|${p.place.country}|IND|${k + 1}}`
    })
    .join(",")
  out +=
    `,"LAST_MOD_TS":"${isoDate(statusDay)}T12:00:00Z","transactions":${transactions},"appStatus":${statusJson},"appStatusFacet":${statusJson},"appStatus_txt":${statusJson},` +
      `"patentTitle":${q(app.text.title.toUpperCase())},"appStatusDate":"${isoDate(statusDay)}T00:00:000Z","appAttrDockNumber":${q(docketNumber)},` +
      `"inventors":[${inventorsJson}],"inventorsFacet":${q(inventorsFacet)},"corrAddrStreetLineOne":"${100 + (firm.customer % 900)} Main Street",` +
      `"firstInventorFile":"Yes","appType":"Utility","appTypeFacet":"Utility","corrAddrPostalCode":"${postal}","appCustNumber":${customer},"corrAddrNameLineOne":${q(firm.name)}`
  if (patent !== undefined) out += `,"patentIssueDate":"${ts(docket.issueDay[i])}"`
  if (applicant) out += `,"firstNamedApplicant":[${q("  " + applicant.name)}],"firstNamedApplicantFacet":${q("  " + applicant.name)}`
  const parents: string[] = []
  if (app.parent) {
    const s = docket.statusOn(app.parent.index, docket.snapshotDay)
    const number = s === "Patented" ? docket.grantNumber(app.parent.index) ?? "" : ""
    parents.push(continuityJson(app.parent.appNumber, app.appNumber, app.parent.filingDay, "Y", number, continuityStatus(s), "This application is a Continuation of"))
  }
  if (app.provisional) {
    parents.push(continuityJson(app.provisional.number, app.appNumber, app.provisional.day, "", "", "Expired", "This application Claims Priority from Provisional Application"))
  }
  if (parents.length > 0) out += `,"parentContinuity":[${parents.join(",")}]`
  if (app.child) {
    const s = docket.statusOn(app.child.index, docket.snapshotDay)
    const number = s === "Patented" ? docket.grantNumber(app.child.index) ?? "" : ""
    out += `,"childContinuity":[${continuityJson(app.child.appNumber, app.appNumber, app.child.filingDay, "Y", number, continuityStatus(s), "claims the benefit of")}]`
  }
  out +=
    `,"corrAddrCustNo":${customer},"corrAddrCountryCd":"US","corrAddrCity":${q(firm.place.city)},"appEntityStatus":"${entity}","appConfrNumber":"${app.confirmation}",` +
      `"appAttrDockNumberFacet":${q(docketNumber)},"appCustNumberFacet":${customer},"firstInventorFileFacet":"Yes","appEntityStatus_txt":"${entity}",` +
      `"appLocationFacet":"ELECTRONIC","appEarlyPubNumberFacet":${pubNumber}`
  if (patent !== undefined) out += `,"patentNumberFacet":"${patent}"`
  out += "}"
  return out
}

/** Records per PEDS file (plus at most one publication week): ~60 MB of JSON, ~8 MB gzipped. */
export const PEDS_RECORDS_PER_FILE = 10_000

/** One PEDS file: a JSON array streamed record by record. */
export class PedsFile {
  private count = 0
  constructor(private readonly file: GzipFile) {}

  static async open(path: string, level: number): Promise<PedsFile> {
    return new PedsFile(await GzipFile.open(path, level))
  }

  async write(json: string): Promise<void> {
    await this.file.write(this.count++ === 0 ? "[" + json : ",\n" + json)
  }

  async close(): Promise<void> {
    await this.file.write(this.count === 0 ? "[]\n" : "]\n")
    await this.file.close()
  }
}
