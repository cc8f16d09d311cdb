/**
 * A pre-grant publication as a us-patent-application v4.4 document, self-contained (declaration
 * and DOCTYPE) for concatenation into weekly ipaYYMMDD files.
 */
import type { Docket } from "./docket.ts"
import type { Application } from "./document.ts"
import { ymd } from "./dates.ts"
import { body, classificationsCpc, continuation, parties, provisional } from "./xml-parts.ts"
import { documentId, escapeXml } from "./xml.ts"

export const applicationXml = (docket: Docket, app: Application): string => {
  const publ = ymd(app.pubDay)
  const stem = `US${app.pubNumber}A1-${publ}`
  let s =
    '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE us-patent-application SYSTEM "us-patent-application-v44-2014-04-03.dtd" [ ]>\n' +
    `<us-patent-application lang="EN" dtd-version="v4.4 2014-04-03" file="${stem}.XML" status="PRODUCTION" id="us-patent-application" country="US" date-produced="${ymd(app.pubDay - 16)}" date-publ="${publ}">\n` +
    '<us-bibliographic-data-application lang="EN" country="US">\n<publication-reference>\n' +
    documentId(app.pubNumber, "A1", publ) +
    '</publication-reference>\n<application-reference appl-type="utility">\n' +
    documentId(app.appNumber, undefined, ymd(app.filingDay)) +
    "</application-reference>\n" +
    `<us-application-series-code>${app.appNumber.slice(0, 2)}</us-application-series-code>\n` +
    classificationsCpc(app.cpc, publ) +
    `<invention-title id="d2e43">${escapeXml(app.text.title)}</invention-title>\n`
  if (app.parent || app.provisional) {
    s += "<us-related-documents>\n"
    if (app.parent) {
      const status = docket.statusOn(app.parent.index, app.pubDay)
      s += continuation(app.parent.appNumber, app.parent.filingDay, status, docket.grantNumber(app.parent.index), app.appNumber)
    }
    if (app.provisional) s += provisional(app.provisional.number, app.provisional.day)
    s += "</us-related-documents>\n"
  }
  return s + parties(app, false) + "</us-bibliographic-data-application>\n" + body(app, stem, true, false) + "</us-patent-application>\n"
}
