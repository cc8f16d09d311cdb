/** us-patent-grant, DTD v4.0–v4.5 (grants from 2005 on). */
import type { XmlElement } from "./dom.ts"
import { iceDocument, type Extracted } from "./ice.ts"

export const grantDocument = (root: XmlElement, sourceFile: string): Extracted =>
  iceDocument(root, "us-bibliographic-data-grant", "uspto-grant-xml", sourceFile)
