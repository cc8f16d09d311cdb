/**
 * Reader for USPTO full-text XML: grants (us-patent-grant v4.x, PATDOC v2.5) and pre-grant
 * publications (us-patent-application v4.x, patent-application-publication v1.5/v1.6), one
 * document or a whole weekly file of concatenated documents per corpus file. The dialect is
 * detected per document, so one reader serves both folders; rows carry source
 * "uspto-grant-xml" or "uspto-app-xml" by document type.
 *
 * Streaming: documents are split out of the byte stream and parsed one at a time. A document
 * that does not parse or lacks an application number becomes a skip event; non-patent
 * documents (sequence listings) are skipped without being buffered.
 */
import { skip, type CorpusReader } from "../../../../core/corpus/reader.ts"
import { extractDocument, isPatentRoot } from "./document.ts"
import { splitDocuments } from "./split.ts"

export const usptoXmlReader: CorpusReader = async function* (file) {
  for await (const doc of splitDocuments(file.open(), isPatentRoot)) {
    const where = `document ${doc.index} (byte ${doc.byteOffset})`
    if (!doc.bytes) {
      yield skip(file.path, where, `not a patent document (<${doc.root ?? "no root element"}>)`)
      continue
    }
    let result
    try {
      result = extractDocument(doc.bytes, file.path)
    } catch (e) {
      // An extractor bug on one odd document must not stop the file.
      result = { skip: `could not extract: ${e instanceof Error ? e.message : String(e)}` }
    }
    if ("skip" in result) yield skip(file.path, where, result.skip)
    else yield* result.events
  }
}

/** The same reader under the names the two corpus folders are wired with. */
export const usptoGrantXmlReader: CorpusReader = usptoXmlReader
export const usptoApplicationXmlReader: CorpusReader = usptoXmlReader
