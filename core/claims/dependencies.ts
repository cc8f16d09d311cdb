/**
 * Claim dependencies from claim text: "claim 1", "claims 1-3", "any of claims 1 to 3",
 * "claim 2 or 3", "claims 1, 4 and 7". Used by ingest for sources without <claim-ref> markup
 * and by the antecedent checker for user-supplied claims.
 */
const CLAIM_REF = /\bclaims?\s+((?:\d+\s*(?:(?:-|–|to|through|or|and|,|and\/or)\s*)?)+)/gi

/** What follows a number that is a quantity, not a claim: "… claims 1 to 3 and 90-0% by weight". */
const QUANTITY_AFTER = /^\s*(?:%|percent\b|wt\b|by\s+weight\b|parts?\b|°|degrees?\b|[mµnck]?m\b|[mµk]?g\b|ml\b|mol\b)/i
/** Everything before the list's last separator (greedy: the last one). */
const BEFORE_LAST_ITEM = /^(.*)(?:,|\band\/or\b|\band\b|\bor\b)/is

/** The matched number list, without a trailing item that turns out to be a quantity (empty when nothing is left). */
const numberList = (text: string, m: RegExpMatchArray): { list: string; phrase: string } => {
  let phrase = m[0]
  let list = m[1]
  if (QUANTITY_AFTER.test(text.slice(m.index! + m[0].length))) {
    list = BEFORE_LAST_ITEM.exec(list)?.[1].trimEnd() ?? ""
    phrase = phrase.slice(0, phrase.length - (m[1].length - list.length))
  }
  return { list, phrase }
}

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
    const { list, phrase: whole } = numberList(text, m)
    if (!list) continue
    const phrase = whole.replace(/[\s,]*(?:(?:-|–|to|through|or|and|and\/or)\s*)?$/i, "")
    out.push({ start: m.index, end: m.index + phrase.length, numbers: expand(list) })
  }
  return out
}

/** Claim numbers the text refers to, ascending and unique (ranges expanded, capped at 500). */
export const parseClaimDependencies = (text: string): number[] => {
  const found = new Set<number>()
  for (const m of text.matchAll(CLAIM_REF)) for (const n of expand(numberList(text, m).list)) found.add(n)
  return [...found].sort((a, b) => a - b)
}
