/**
 * Claim dependencies from claim text: "claim 1", "claims 1-3", "any of claims 1 to 3",
 * "claim 2 or 3", "claims 1, 4 and 7". Used by ingest for sources without <claim-ref> markup
 * and by the antecedent checker for user-supplied claims.
 */
const CLAIM_REF = /\bclaims?\s+((?:\d+\s*(?:(?:-|–|to|through|or|and|,|and\/or)\s*)?)+)/gi

/** Claim numbers the text refers to, ascending and unique (ranges expanded, capped at 500). */
export const parseClaimDependencies = (text: string): number[] => {
  const found = new Set<number>()
  for (const m of text.matchAll(CLAIM_REF)) {
    const list = m[1]
    const tokens = list.match(/\d+|-|–|to|through/gi) ?? []
    let prev: number | undefined
    let range = false
    for (const t of tokens) {
      if (/^\d+$/.test(t)) {
        const n = Number(t)
        if (range && prev !== undefined && n > prev && n - prev <= 500) {
          for (let k = prev + 1; k <= n; k++) found.add(k)
        } else found.add(n)
        prev = n
        range = false
      } else range = true
    }
  }
  return [...found].filter((n) => n > 0).sort((a, b) => a - b)
}
