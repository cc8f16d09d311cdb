/**
 * Which reader reads which corpus file. Decided by the corpus layout (folder and extension,
 * as in the bucket) and, where one folder holds two JSON dialects, by the file's first bytes.
 */
import type { CorpusReader } from "../../core/corpus/reader.ts"
import { cpcTitleReader } from "./readers/cpc-titles.ts"
import { designCodeReader } from "./readers/design-codes.ts"
import { epoGuidelinesReader } from "./readers/epo-csv.ts"
import { formParagraphIndexReader } from "./readers/form-paragraph-index.ts"
import { mpepHtmlReader } from "./readers/mpep-html.ts"
import { mpepMarkdownReader } from "./readers/mpep-markdown.ts"
import { officeActionReader } from "./readers/office-actions.ts"
import { pedsSearchReader } from "./readers/peds-search.ts"
import { pedsSt96Reader } from "./readers/peds-st96.ts"
import { ppubsBiblioReader, ppubsFulltextReader } from "./readers/ppubs.ts"
import { usptoXmlReader } from "./readers/uspto-xml/index.ts"

export interface ReaderChoice {
  readonly name: string
  readonly reader: CorpusReader
}

/** The reader for a corpus path; `head` is the first bytes of the (gunzipped) file, for sniffing. */
export const chooseReader = (path: string, head: string): ReaderChoice | undefined => {
  const p = path.toLowerCase()
  if (/^uspto\/(grants|applications)\/.*\.xml(\.gz)?$/.test(p)) return { name: "uspto-xml", reader: usptoXmlReader }
  if (/^uspto\/ppubs\/.*\.json(\.gz)?$/.test(p)) {
    return /fulltext/.test(p) || /"claimsHtml"|"descriptionHtml"/.test(head)
      ? { name: "ppubs-fulltext", reader: ppubsFulltextReader }
      : { name: "ppubs-biblio", reader: ppubsBiblioReader }
  }
  if (/^peds\/.*\.json(\.gz)?$/.test(p)) {
    if (/office-action/.test(p) || /"legacyDocumentCodeIdentifier"|"bodyText"/.test(head)) return { name: "office-actions", reader: officeActionReader }
    if (/"patentCaseMetadata"/.test(head)) return { name: "peds-st96", reader: pedsSt96Reader }
    return { name: "peds-search", reader: pedsSearchReader }
  }
  if (/^cpc\/.*\.txt(\.gz)?$/.test(p)) return { name: "cpc-titles", reader: cpcTitleReader }
  if (/^mpep\/.*\.html?(\.gz)?$/.test(p)) return { name: "mpep-html", reader: mpepHtmlReader }
  if (/^mpep\/.*\.md(\.gz)?$/.test(p)) return { name: "mpep-markdown", reader: mpepMarkdownReader }
  if (/^epo\/.*\.csv(\.gz)?$/.test(p)) return { name: "epo-guidelines", reader: epoGuidelinesReader }
  if (/^form-paragraphs\/.*\.tsv(\.gz)?$/.test(p)) return { name: "form-paragraph-index", reader: formParagraphIndexReader }
  if (/^design-codes\/.*\.tsv(\.gz)?$/.test(p)) return { name: "design-codes", reader: designCodeReader }
  return undefined
}
