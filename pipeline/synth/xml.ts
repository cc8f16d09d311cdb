/** XML text helpers shared by the grant and application writers. */

const NEEDS_ESCAPE = /[&<>"]/
const ESCAPES: Record<string, string> = { "&": "&#x26;", "<": "&#x3c;", ">": "&#x3e;", '"': "&#x22;" }

/** Escapes text for element content or attribute values (entity style as in USPTO files: &#x26;). */
export const escapeXml = (s: string): string => (NEEDS_ESCAPE.test(s) ? s.replace(/[&<>"]/g, (c) => ESCAPES[c]) : s)

export const pad = (n: number, width: number): string => String(n).padStart(width, "0")

/** <document-id> with optional kind, name and date, one element per line as in weekly files. */
export const documentId = (number: string, kind: string | undefined, date: string | undefined, name?: string): string =>
  "<document-id>\n<country>US</country>\n<doc-number>" + number + "</doc-number>\n" +
  (kind !== undefined ? "<kind>" + kind + "</kind>\n" : "") +
  (name !== undefined ? "<name>" + name + "</name>\n" : "") +
  (date !== undefined ? "<date>" + date + "</date>\n" : "") +
  "</document-id>\n"
