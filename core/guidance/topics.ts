/**
 * Topic category and technology domains of a guidance section. The MPEP's own numbering
 * decides the topic where it is unambiguous (2170s are definiteness, 2140s obviousness …);
 * other chapters fall back to words of the title. Technology domains are the fields of art a
 * section talks about, counted from a small lexicon; sections about no particular art are
 * "general".
 */
import { tokenizePatentText } from "../text/tokenize.ts"

/** [first, last] section number (integer part) → topic. Checked in order; first hit wins. */
const MPEP_RANGES: ReadonlyArray<readonly [number, number, string]> = [
  [201, 299, "application types and continuity"],
  [701, 705, "examination procedure"],
  [706, 706, "rejection of claims"],
  [707, 707, "office action practice"],
  [708, 709, "examination procedure"],
  [710, 711, "time periods and abandonment"],
  [712, 713, "interviews and examination procedure"],
  [714, 714, "amendments"],
  [715, 718, "affidavits and declarations"],
  [719, 799, "examination procedure"],
  [2101, 2102, "patentability overview"],
  [2103, 2106, "patent eligibility (35 U.S.C. 101)"],
  [2107, 2107, "utility (35 U.S.C. 101)"],
  [2108, 2110, "patentability overview"],
  [2111, 2117, "claim interpretation"],
  [2120, 2129, "prior art"],
  [2131, 2139, "anticipation and novelty (35 U.S.C. 102)"],
  [2141, 2149, "obviousness (35 U.S.C. 103)"],
  [2150, 2159, "AIA first inventor to file"],
  [2161, 2169, "written description and enablement (35 U.S.C. 112(a))"],
  [2171, 2179, "definiteness (35 U.S.C. 112(b))"],
  [2181, 2189, "means-plus-function (35 U.S.C. 112(f))"],
  [2190, 2199, "prosecution laches"]
]

const TITLE_TOPICS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:101|eligib|abstract idea|judicial exception)/i, "patent eligibility (35 U.S.C. 101)"],
  [/\bobvious/i, "obviousness (35 U.S.C. 103)"],
  [/\b(?:anticipat|novelty|102)\b/i, "anticipation and novelty (35 U.S.C. 102)"],
  [/\b(?:indefinite|antecedent|definite)/i, "definiteness (35 U.S.C. 112(b))"],
  [/\b(?:written description|enablement|best mode)/i, "written description and enablement (35 U.S.C. 112(a))"],
  [/\bdouble patenting/i, "double patenting"],
  [/\brestriction|election\b/i, "restriction and election"],
  [/\ballowance|allowable/i, "allowance"],
  [/\bamendment/i, "amendments"],
  [/\bdrawing/i, "drawings"],
  [/\breject/i, "rejection of claims"],
  [/\bcontinu|divisional|provisional/i, "application types and continuity"]
]

/** The topic of an MPEP section from its number, else its title. */
export const mpepTopicOf = (sectionId: string, title: string): string => {
  const n = Number(/^(\d{3,4})/.exec(sectionId)?.[1] ?? NaN)
  for (const [lo, hi, topic] of MPEP_RANGES) if (n >= lo && n <= hi) return topic
  for (const [re, topic] of TITLE_TOPICS) if (re.test(title)) return topic
  return "general examination practice"
}

/** Stems that signal a field of art; a domain needs at least two mentions to count. */
const DOMAINS: Readonly<Record<string, ReadonlyArray<string>>> = {
  "software and computing": ["comput", "softwar", "algorithm", "processor", "program", "databas", "network", "artifici", "machin-learn"],
  biotechnology: ["nucleic", "protein", "antibodi", "gene", "dna", "sequenc", "polypeptid", "cell", "microorgan", "biolog"],
  "chemistry and pharmaceuticals": ["compound", "chemic", "pharmaceut", "formul", "drug", "molecul", "alloi", "polym", "genus"],
  "mechanical arts": ["mechan", "lever", "gear", "engin", "spring", "fasten", "valv", "machin"],
  "electrical and electronics": ["circuit", "electr", "semiconductor", "signal", "voltag", "transistor"],
  "medical and diagnostics": ["diagnos", "medic", "patient", "therapi", "treatment", "diseas", "surgic"],
  "business methods": ["busi", "commerc", "financi", "market", "transact", "econom"],
  "design patents": ["ornament", "design"]
}
const domainOfStem = new Map<string, string>()
for (const [domain, stems] of Object.entries(DOMAINS)) for (const s of stems) domainOfStem.set(s, domain)

/** Fields of art the text discusses, most mentioned first; ["general"] when none stands out. */
export const technologyDomainsOf = (text: string, max = 3): string[] => {
  const counts = new Map<string, number>()
  for (const { stem } of tokenizePatentText(text)) {
    const d = domainOfStem.get(stem)
    if (d) counts.set(d, (counts.get(d) ?? 0) + 1)
  }
  const ranked = [...counts].filter(([, n]) => n >= 2).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
  return ranked.length === 0 ? ["general"] : ranked.slice(0, max).map(([d]) => d)
}
