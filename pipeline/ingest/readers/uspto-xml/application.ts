/** us-patent-application, DTD v4.0–v4.6 (pre-grant publications from 2005 on). */
import type { XmlElement } from "./dom.ts"
import { iceDocument, type Extracted } from "./ice.ts"

export const applicationDocument = (root: XmlElement, sourceFile: string): Extracted =>
  iceDocument(root, "us-bibliographic-data-application", "uspto-app-xml", sourceFile)
