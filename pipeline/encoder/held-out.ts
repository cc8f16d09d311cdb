/**
 * CPC main groups the encoder never trains on, so the similarity benchmark
 * (bench/encoder-similarity.ts) can score titles the model has not read: about one main group
 * in forty, chosen by a fixed hash of the main-group symbol (e.g. "H04L9"), every subgroup under
 * it included. Classes and subclasses (no "/") are never held out.
 */
export const heldOutShare = 40

const fnv1a = (s: string) => {
  let h = 2166136261
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0
  return h
}

/** The main group of a CPC symbol ("H04L9/0643" → "H04L9"), or undefined above main-group level. */
export const mainGroupOf = (symbol: string): string | undefined => {
  const slash = symbol.indexOf("/")
  return slash < 0 ? undefined : symbol.slice(0, slash)
}

export const isHeldOutCpcSymbol = (symbol: string): boolean => {
  const group = mainGroupOf(symbol)
  return group !== undefined && fnv1a(group) % heldOutShare === 0
}

/**
 * The half of the held-out main groups a benchmark may tune on ("dev") and the half it reports on
 * ("test"), by the next digit of the same hash; undefined for a symbol that is not held out.
 */
export const heldOutSplit = (symbol: string): "dev" | "test" | undefined => {
  if (!isHeldOutCpcSymbol(symbol)) return undefined
  return Math.floor(fnv1a(mainGroupOf(symbol)!) / heldOutShare) % 2 === 0 ? "dev" : "test"
}
