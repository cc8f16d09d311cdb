/**
 * The text an application is indexed by, and the matching query text: abstract, a separator
 * token, first claim; the title alone where that is all there is. The pipeline embeds
 * documents with it and the API joins a query's abstract and claims the same way, so a query
 * that supplies both matches the indexed representation (SPEC 4.1).
 */
export const SEPARATOR = " [SEP] "

export interface IndexableDocument {
  readonly title?: string | null
  readonly abstract?: string | null
  readonly firstClaim?: string | null
}

const clean = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim()

/** Empty string when the document has no text at all (such documents get no vector). */
export const indexedText = (doc: IndexableDocument): string => {
  const abstract = clean(doc.abstract)
  const claim = clean(doc.firstClaim)
  if (abstract && claim) return `${abstract}${SEPARATOR}${claim}`
  if (abstract || claim) return abstract || claim
  return clean(doc.title)
}
