/**
 * XML fragments the grant (v4.5) and application (v4.4) documents share: CPC classification,
 * parties, abstract, drawings, description and claims, in the element names and order of the
 * USPTO full-text DTDs, one element per line as in the weekly bulk files.
 */
import type { Application, Cpc } from "./document.ts"
import { ymd } from "./dates.ts"
import type { Person, Place } from "./names.ts"
import { cpcTextOf } from "./topics.ts"
import { escapeXml, pad } from "./xml.ts"

const cpcCache = new Map<string, readonly [string, string]>()

/** <classification-cpc>: cached per symbol, value and position; only the action date varies. */
const classificationCpc = (c: Cpc, first: boolean, date: string): string => {
  const key = `${c.symbol}|${c.value}|${first ? "F" : "L"}`
  let parts = cpcCache.get(key)
  if (parts === undefined) {
    const slash = c.symbol.indexOf("/")
    parts = [
      "<classification-cpc>\n<cpc-version-indicator><date>20130101</date></cpc-version-indicator>\n" +
        `<section>${c.symbol[0]}</section>\n<class>${c.symbol.slice(1, 3)}</class>\n<subclass>${c.symbol[3]}</subclass>\n` +
        `<main-group>${c.symbol.slice(4, slash)}</main-group>\n<subgroup>${c.symbol.slice(slash + 1)}</subgroup>\n` +
        `<symbol-position>${first ? "F" : "L"}</symbol-position>\n<classification-value>${c.value}</classification-value>\n<action-date><date>`,
      "</date></action-date>\n<generating-office><country>US</country></generating-office>\n" +
        "<classification-status>B</classification-status>\n<classification-data-source>H</classification-data-source>\n" +
        "<scheme-origination-code>C</scheme-origination-code>\n</classification-cpc>\n"
    ]
    if (cpcCache.size < 100_000) cpcCache.set(key, parts)
  }
  return parts[0] + date + parts[1]
}

export const classificationsCpc = (cpc: readonly Cpc[], date: string): string => {
  let s = "<classifications-cpc>\n<main-cpc>\n" + classificationCpc(cpc[0], true, date) + "</main-cpc>\n"
  if (cpc.length > 1) {
    s += "<further-cpc>\n"
    for (let k = 1; k < cpc.length; k++) s += classificationCpc(cpc[k], false, date)
    s += "</further-cpc>\n"
  }
  return s + "</classifications-cpc>\n"
}

export const fieldOfSearch = (cpc: readonly Cpc[]): string => {
  let s = "<us-field-of-classification-search>\n"
  for (const c of cpc) s += `<classification-cpc-text>${cpcTextOf(c.symbol)}</classification-cpc-text>\n`
  return s + "</us-field-of-classification-search>\n"
}

const address = (p: Place): string =>
  "<address>\n<city>" + escapeXml(p.city) + "</city>\n" + (p.state ? "<state>" + p.state + "</state>\n" : "") + "<country>" + p.country + "</country>\n</address>\n"

const personBook = (p: Person): string =>
  "<addressbook>\n<last-name>" + escapeXml(p.last) + "</last-name>\n<first-name>" + escapeXml(p.first) + "</first-name>\n" + address(p.place) + "</addressbook>\n"

/** <us-parties> (applicants, inventors, agents) and <assignees>. */
export const parties = (app: Application, withAgents: boolean): string => {
  const { inventors, applicant, firm } = app.parties
  let s = "<us-parties>\n<us-applicants>\n"
  if (applicant !== undefined) {
    s +=
      '<us-applicant sequence="001" app-type="applicant" designation="us-only" applicant-authority-category="assignee">\n' +
      "<addressbook>\n<orgname>" + escapeXml(applicant.name) + "</orgname>\n" + address(applicant.place) + "</addressbook>\n" +
      "<residence>\n<country>" + applicant.place.country + "</country>\n</residence>\n</us-applicant>\n"
  } else {
    for (let k = 0; k < inventors.length; k++) {
      s +=
        `<us-applicant sequence="${pad(k + 1, 3)}" app-type="applicant" designation="us-only" applicant-authority-category="inventor">\n` +
        personBook(inventors[k]) + "<residence>\n<country>" + inventors[k].place.country + "</country>\n</residence>\n</us-applicant>\n"
    }
  }
  s += "</us-applicants>\n<inventors>\n"
  for (let k = 0; k < inventors.length; k++) s += `<inventor sequence="${pad(k + 1, 3)}" designation="us-only">\n` + personBook(inventors[k]) + "</inventor>\n"
  s += "</inventors>\n"
  if (withAgents) {
    s += '<agents>\n<agent sequence="01" rep-type="attorney">\n<addressbook>\n<orgname>' + escapeXml(firm.name) + "</orgname>\n<address>\n<country>unknown</country>\n</address>\n</addressbook>\n</agent>\n</agents>\n"
  }
  s += "</us-parties>\n"
  if (applicant !== undefined) {
    s += "<assignees>\n<assignee>\n<addressbook>\n<orgname>" + escapeXml(applicant.name) + "</orgname>\n<role>" + applicant.role + "</role>\n" + address(applicant.place) + "</addressbook>\n</assignee>\n</assignees>\n"
  }
  return s
}

/** Abstract, drawings, description and claims; `fileStem` names the TIFF images ("US09123456-20150106"). */
export const body = (app: Application, fileStem: string, claimNumberBold: boolean, claimStatement: boolean): string => {
  let s = '<abstract id="abstract">\n<p id="p-0001" num="0000">' + app.text.abstract + "</p>\n</abstract>\n"
  const figures = app.text.figures
  s += '<drawings id="DRAWINGS">\n'
  for (let f = 0; f <= figures; f++) {
    const n = pad(f, 5)
    s +=
      `<figure id="Fig-EMI-D${n}" num="${n}">\n<img id="EMI-D${n}" he="${200 + ((f * 37) % 40)}.00mm" wi="${150 + ((f * 23) % 30)}.00mm" file="${fileStem}-D${n}.TIF" alt="embedded image" img-content="drawing" img-format="tif"/>\n</figure>\n`
  }
  s += "</drawings>\n" + '<description id="description">\n'
  let p = 2
  let h = 1
  for (const section of app.text.sections) {
    const [pi, label] = section.pi
    s += `<?${pi} description="${label}" end="lead"?>\n`
    if (section.drawings) s += "<description-of-drawings>\n"
    for (const block of section.headings) {
      s += `<heading id="h-${pad(h++, 4)}" level="1">${block.heading}</heading>\n`
      for (const para of block.paragraphs) {
        s += `<p id="p-${pad(p, 4)}" num="${pad(p - 1, 4)}">` + para + "</p>\n"
        p++
      }
    }
    if (section.drawings) s += "</description-of-drawings>\n"
    s += `<?${pi} description="${label}" end="tail"?>\n`
  }
  s += "</description>\n"
  if (claimStatement) s += "<us-claim-statement>What is claimed is:</us-claim-statement>\n"
  s += '<claims id="claims">\n'
  for (const c of app.claims) {
    const n = pad(c.num, 5)
    const label = claimNumberBold ? `<b>${c.num}</b>. ` : `${c.num}. `
    s += `<claim id="CLM-${n}" num="${n}">\n<claim-text>` + label + c.lead
    if (c.dependsOn > 0) {
      s += `<claim-ref idref="CLM-${pad(c.dependsOn, 5)}">claim ${c.dependsOn}</claim-ref>` + c.body + "</claim-text>\n"
    } else {
      s += "\n"
      for (const e of c.elements) s += "<claim-text>" + e + "</claim-text>\n"
      s += "</claim-text>\n"
    }
    s += "</claim>\n"
  }
  s += "</claims>\n"
  return s
}

/** A parent-doc/child-doc continuation relation as of `day`. */
export const continuation = (
  parentNumber: string,
  parentFiling: number,
  status: "Patented" | "Abandoned" | "Pending",
  parentGrant: string | undefined,
  childNumber: string
): string => {
  let s = "<continuation>\n<relation>\n<parent-doc>\n<document-id>\n<country>US</country>\n<doc-number>" + parentNumber + "</doc-number>\n<date>" + ymd(parentFiling) + "</date>\n</document-id>\n"
  if (status === "Patented" && parentGrant !== undefined) {
    s += "<parent-grant-document>\n<document-id>\n<country>US</country>\n<doc-number>" + parentGrant + "</doc-number>\n</document-id>\n</parent-grant-document>\n"
  } else {
    s += "<parent-status>" + (status === "Abandoned" ? "ABANDONED" : "PENDING") + "</parent-status>\n"
  }
  return s + "</parent-doc>\n<child-doc>\n<document-id>\n<country>US</country>\n<doc-number>" + childNumber + "</doc-number>\n</document-id>\n</child-doc>\n</relation>\n</continuation>\n"
}

export const provisional = (number: string, day: number): string =>
  "<us-provisional-application>\n<document-id>\n<country>US</country>\n<doc-number>" + number + "</doc-number>\n<date>" + ymd(day) + "</date>\n</document-id>\n</us-provisional-application>\n"
