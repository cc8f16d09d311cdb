/**
 * Claim dependencies from claim text: "claim 1", "claims 1-3", "any of claims 1 to 3",
 * "claim 2 or 3", "claims 1, 4 and 7". Used by ingest for sources without <claim-ref> markup
 * and by the antecedent checker for user-supplied claims.
 */
const CLAIM_REF = /\bclaims?\s+((?:\d+\s*(?:(?:-|–|to|through|or|and|,|and\/or)\s*)?)+)/gi

/** One "claim(s) N…" phrase: where it sits in the text and the claim numbers it names. */
export interface ClaimReference {
  readonly start: number
  readonly end: number
  readonly numbers: ReadonlyArray<number>
}

const expand = (list: string): number[] => {
  const found: number[] = []
  const tokens = list.match(/\d+|-|–|to|through/gi) ?? []
  let prev: number | undefined
  let range = false
  for (const t of tokens) {
    if (/^\d+$/.test(t)) {
      const n = Number(t)
      if (range && prev !== undefined && n > prev && n - prev <= 500) {
        for (let k = prev + 1; k <= n; k++) found.push(k)
      } else found.push(n)
      prev = n
      range = false
    } else range = true
  }
  return found.filter((n) => n > 0)
}

/** Every claim reference in the text, in order, with offsets of the whole phrase ("claims 1-3"). */
export const findClaimReferences = (text: string): ClaimReference[] => {
  const out: ClaimReference[] = []
  for (const m of text.matchAll(CLAIM_REF)) {
    const phrase = m[0].replace(/[\s,]*(?:(?:-|–|to|through|or|and|and\/or)\s*)?$/i, "")
    out.push({ start: m.index, end: m.index + phrase.length, numbers: expand(m[1]) })
  }
  return out
}

/** Claim numbers the text refers to, ascending and unique (ranges expanded, capped at 500). */
export const parseClaimDependencies = (text: string): number[] => {
  const found = new Set<number>()
  for (const m of text.matchAll(CLAIM_REF)) for (const n of expand(m[1])) found.add(n)
  return [...found].sort((a, b) => a - b)
}
