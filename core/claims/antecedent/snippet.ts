/** How a finding quotes the claim: its term normalised, and a snippet of about fifty characters either side. */

export const snippetOf = (text: string, start: number, end: number): string => {
  let a = Math.max(0, start - 50)
  let b = Math.min(text.length, end + 50)
  if (a > 0) {
    const sp = text.indexOf(" ", a)
    if (sp >= 0 && sp < start) a = sp + 1
  }
  if (b < text.length) {
    const sp = text.lastIndexOf(" ", b)
    if (sp > end) b = sp
  }
  const quoted = text.slice(a, b)
  // Most snippets hold only single spaces: then collapsing whitespace would change nothing.
  return `${a > 0 ? "…" : ""}${(ODD_SPACE.test(quoted) ? quoted.replace(/\s+/g, " ") : quoted).trim()}${b < text.length ? "…" : ""}`
}

/** Whitespace other than a single space: what `normalise` has to rewrite (most phrases have none). */
const ODD_SPACE = /\s\s|[^\S ]/

/** Lower case, single spaces: the `term` of a finding. */
export const normalise = (s: string) => {
  const lower = s.toLowerCase()
  return ODD_SPACE.test(lower) ? lower.replace(/\s+/g, " ") : lower
}
