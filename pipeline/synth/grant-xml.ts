/**
 * A granted patent as a us-patent-grant v4.5 document (its own XML declaration and DOCTYPE, so
 * documents concatenate into weekly ipgYYMMDD files exactly as the USPTO ships them).
 */
import type { Docket } from "./docket.ts"
import type { Application, Grant } from "./document.ts"
import { ymd } from "./dates.ts"
import { body, classificationsCpc, continuation, fieldOfSearch, parties, provisional } from "./xml-parts.ts"
import { documentId, escapeXml, pad } from "./xml.ts"

export const grantXml = (docket: Docket, app: Application, grant: Grant): string => {
  const publ = ymd(grant.issueDay)
  const stem = `US${grant.number.padStart(8, "0")}-${publ}`
  let s =
    '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE us-patent-grant SYSTEM "us-patent-grant-v45-2014-04-03.dtd" [ ]>\n' +
    `<us-patent-grant lang="EN" dtd-version="v4.5 2014-04-03" file="${stem}.XML" status="PRODUCTION" id="us-patent-grant" country="US" date-produced="${ymd(grant.issueDay - 14)}" date-publ="${publ}">\n` +
    "<us-bibliographic-data-grant>\n<publication-reference>\n" +
    documentId(grant.number, "B2", publ) +
    '</publication-reference>\n<application-reference appl-type="utility">\n' +
    documentId(app.appNumber, undefined, ymd(app.filingDay)) +
    "</application-reference>\n" +
    `<us-application-series-code>${app.appNumber.slice(0, 2)}</us-application-series-code>\n`
  // Patent term adjustment: days of pendency beyond three years.
  const pta = Math.max(0, grant.issueDay - app.filingDay - 3 * 365)
  if (pta > 0) s += `<us-term-of-grant>\n<us-term-extension>${pta}</us-term-extension>\n</us-term-of-grant>\n`
  s += classificationsCpc(app.cpc, publ) + `<invention-title id="d2e43">${escapeXml(app.text.title)}</invention-title>\n`
  if (grant.citations.length > 0) {
    s += "<us-references-cited>\n"
    let k = 1
    for (const c of grant.citations) {
      s += `<us-citation>\n<patcit num="${pad(k++, 5)}">\n` + documentId(c.number, c.kind, c.date, c.name) + "</patcit>\n"
      s += c.byExaminer ? "<category>cited by examiner</category>\n" : "<category>cited by applicant</category>\n"
      if (c.byExaminer && c.cpcText) s += `<classification-cpc-text>${c.cpcText}</classification-cpc-text>\n`
      s += "</us-citation>\n"
    }
    s += "</us-references-cited>\n"
  }
  s +=
    `<number-of-claims>${app.claims.length}</number-of-claims>\n<us-exemplary-claim>1</us-exemplary-claim>\n` +
    fieldOfSearch(app.cpc) +
    `<figures>\n<number-of-drawing-sheets>${app.text.figures}</number-of-drawing-sheets>\n<number-of-figures>${app.text.figures}</number-of-figures>\n</figures>\n` +
    "<us-related-documents>\n"
  if (app.parent && grant.parentStatus) {
    s += continuation(app.parent.appNumber, app.parent.filingDay, grant.parentStatus, docket.grantNumber(app.parent.index), app.appNumber)
  }
  if (app.provisional) s += provisional(app.provisional.number, app.provisional.day)
  s += "<related-publication>\n" + documentId(app.pubNumber, "A1", ymd(app.pubDay)) + "</related-publication>\n</us-related-documents>\n"
  s +=
    parties(app, true) +
    "<examiners>\n<primary-examiner>\n" +
    `<last-name>${escapeXml(app.examiner.last)}</last-name>\n<first-name>${escapeXml(app.examiner.first)}</first-name>\n<department>${app.examiner.artUnit}</department>\n` +
    "</primary-examiner>\n</examiners>\n</us-bibliographic-data-grant>\n" +
    body(app, stem, false, true) +
    "</us-patent-grant>\n"
  return s
}
