/**
 * One split-out document → rows, by its root element: the dialect decides the extractor.
 */
import { applicationDocument } from "./application.ts"
import { parseXml, XmlSyntaxError, type XmlElement } from "./dom.ts"
import { grantDocument } from "./grant.ts"
import type { Extracted } from "./ice.ts"
import { legacyGrantDocument } from "./legacy-v25.ts"
import { papDocument } from "./pap.ts"

const EXTRACTORS: Record<string, (root: XmlElement, sourceFile: string) => Extracted> = {
  "us-patent-grant": grantDocument,
  "us-patent-application": applicationDocument,
  PATDOC: legacyGrantDocument,
  "patent-application-publication": papDocument
}

/** Whether a root element is a patent document this reader extracts. */
export const isPatentRoot = (root: string | undefined): boolean => root !== undefined && root in EXTRACTORS

const decoder = new TextDecoder("utf-8")

export const extractDocument = (bytes: Buffer, sourceFile: string): Extracted => {
  let root: XmlElement
  try {
    root = parseXml(decoder.decode(bytes))
  } catch (e) {
    if (e instanceof XmlSyntaxError) return { skip: `malformed XML: ${e.message}` }
    throw e
  }
  const extract = EXTRACTORS[root.name]
  return extract ? extract(root, sourceFile) : { skip: `not a patent document (<${root.name}>)` }
}
