/** Comparing the words after two phrases: whether they describe the same recitation. */

export const ARTICLES = new Set(["a", "an", "the", "said"])
/** "displayed at a browser" / "displayed in the browser": the preposition does not tell them apart. */
const PLACE_WORDS = new Set(["in", "at", "on", "onto", "into", "within"])

export const firstWords = (q: string, n: number) => q.split(" ", n).join(" ")

const comparedWords = (q: string): string[] =>
  q.replace(/\bat least\b/g, "").split(" ").filter((w) => w !== "" && !ARTICLES.has(w) && !PLACE_WORDS.has(w) && w !== "thereof")

/** The first words after two phrases agree ("within the knee joint" / "within the knee joint that …"). */
export const sameQualifier = (a: string, b: string): boolean => {
  if (a === "" || b === "") return false
  // "between at least a first point …" / "between said first and second points": articles and "at least" do not tell them apart.
  // "the region thereof extending under …" / "a region extending under …": "thereof" only says whose.
  const x = comparedWords(a)
  const y = comparedWords(b)
  if (x.length === 0 || y.length === 0) return false
  // A label ("(i-1)") says which one by itself.
  if (x[0].startsWith("(") || y[0].startsWith("(")) return x[0] === y[0]
  const n = Math.min(2, x.length, y.length)
  for (let k = 0; k < n; k++) if (x[k] !== y[k]) return false
  return true
}

/** One qualifier starts with the other, articles aside ("where the unit is able to" / "where the unit is unable to" differ). */
export const samePrefix = (a: string, b: string): boolean => {
  const x = a.split(" ").filter((w) => w !== "" && !ARTICLES.has(w))
  const y = b.split(" ").filter((w) => w !== "" && !ARTICLES.has(w))
  const n = Math.min(x.length, y.length)
  if (n === 0) return false
  for (let k = 0; k < n; k++) if (x[k] !== y[k]) return false
  return true
}

/** Prepositions: "a change of flow rate for the pump" and "the change in flow rate of the pump" say the same with others. */
const PREPOSITIONS = new Set(["of", "for", "in", "at", "on", "onto", "into", "within", "to", "from", "by", "upon", "over", "under", "through", "across", "along"])

const contentWords = (q: string): string[] =>
  q.replace(/\b(?:at least(?: one)?|one or more)\b/g, "").split(" ").filter((w) => w !== "" && !ARTICLES.has(w) && !PREPOSITIONS.has(w) && w !== "thereof")

/** The first content words after two phrases agree, whatever the prepositions between them (at least two words, up to four). */
export const sameContent = (a: string, b: string): boolean => {
  const x = contentWords(a)
  const y = contentWords(b)
  const n = Math.min(4, x.length, y.length)
  if (n < 2) return false
  for (let k = 0; k < n; k++) if (x[k] !== y[k]) return false
  return true
}
