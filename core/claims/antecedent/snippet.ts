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
  return `${a > 0 ? "…" : ""}${(hasOddSpace(quoted) ? quoted.replace(/\s+/g, " ") : quoted).trim()}${b < text.length ? "…" : ""}`
}

/**
 * Whitespace other than a single space (what /\s\s|[^\S ]/ matches): what `normalise` has to rewrite, and most
 * phrases have none. Read code unit by code unit: the pattern's alternation cost more than the rest of a snippet.
 */
const hasOddSpace = (s: string): boolean => {
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k)
    if (c > 32 && c < 0xa0) continue
    if (c === 32) {
      if (s.charCodeAt(k + 1) === 32) return true
    } else if (
      (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
      c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
    ) return true
  }
  return false
}

/** Lower case, single spaces: the `term` of a finding. */
export const normalise = (s: string) => {
  const lower = s.toLowerCase()
  return hasOddSpace(lower) ? lower.replace(/\s+/g, " ") : lower
}
