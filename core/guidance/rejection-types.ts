/**
 * The two vocabularies form paragraphs are searched by: rejection labels (obviousness,
 * indefiniteness …) and statutes (103, 112(b), 37 CFR 1.84 …), each expandable into the other.
 * A paragraph's statute comes from its own title or template; its label from its wording, else
 * from its statute.
 */
import { legalReferencesOf } from "./legal-references.ts"

/** Label → the statutes (short form) it rests on. Double patenting and allowance rest on none. */
export const REJECTION_LABELS: Readonly<Record<string, ReadonlyArray<string>>> = {
  anticipation: ["102"],
  obviousness: ["103"],
  indefiniteness: ["112(b)"],
  enablement: ["112(a)"],
  written_description: ["112(a)"],
  means_plus_function: ["112(f)"],
  abstract_idea: ["101"],
  double_patenting: [],
  restriction: ["121"],
  allowance: [],
  drawing_objection: ["1.83", "1.84"]
}

const ALIASES: Readonly<Record<string, string>> = {
  novelty: "anticipation",
  obvious: "obviousness",
  indefinite: "indefiniteness",
  definiteness: "indefiniteness",
  eligibility: "abstract_idea",
  subject_matter_eligibility: "abstract_idea",
  mpf: "means_plus_function",
  election: "restriction",
  drawings: "drawing_objection"
}

// Pre-AIA 112 paragraphs are the AIA subsections by another name.
const PARAGRAPH_LETTER: Record<string, string> = { first: "(a)", second: "(b)", third: "(c)", fourth: "(d)", fifth: "(e)", sixth: "(f)" }

/** The short statute ("103", "112(b)", "1.84") of a title or template, where it names one. */
export const statuteOf = (text: string): { statute: string; statuteShort: string } | undefined => {
  const refs = legalReferencesOf(text).filter((r) => r.type === "statute" || r.type === "regulation")
  const usc = refs.find((r) => r.type === "statute")
  if (usc && usc.type === "statute") {
    const sub = usc.subsection ?? (usc.paragraph ? PARAGRAPH_LETTER[usc.paragraph] ?? "" : "")
    const short = `${usc.section}${sub}`
    return { statute: `35 U.S.C. ${short}`, statuteShort: short }
  }
  const cfr = refs.find((r) => r.type === "regulation")
  return cfr && cfr.type === "regulation" ? { statute: `37 CFR ${cfr.section}${cfr.subsection ?? ""}`, statuteShort: cfr.section } : undefined
}

const WORDING: ReadonlyArray<readonly [RegExp, string]> = [
  [/double patenting/i, "double_patenting"],
  [/\brestrict|\belection\b|\belect\b/i, "restriction"],
  [/\ballowab|\ballowance\b/i, "allowance"],
  [/\bdrawings?\b/i, "drawing_objection"],
  [/means[- ]plus[- ]function|112\s?\(f\)|sixth paragraph|6th paragraph/i, "means_plus_function"],
  [/written description/i, "written_description"],
  [/\benabl/i, "enablement"],
  [/indefinite|112\s?\(b\)|second paragraph|2nd paragraph|antecedent/i, "indefiniteness"],
  [/\bobvious|\b103\b/i, "obviousness"],
  [/\banticipat|\b102\b/i, "anticipation"],
  [/abstract idea|judicial exception|ineligible|\b101\b/i, "abstract_idea"]
]

/** The label a paragraph's title (else template) speaks to, else its statute's label. */
export const rejectionTypeOf = (title: string | null, statuteShort: string | null): string | null => {
  for (const [re, label] of WORDING) if (title && re.test(title)) return label
  if (statuteShort) {
    const labels = labelsForStatute(statuteShort)
    if (labels.length === 1) return labels[0]
  }
  return null
}

export const labelsForStatute = (short: string): string[] =>
  Object.entries(REJECTION_LABELS)
    .filter(([, statutes]) => statutes.some((s) => s === short || s.startsWith(`${short}(`) || short.startsWith(`${s}(`)))
    .map(([label]) => label)

export interface RejectionTypeQuery {
  readonly labels: ReadonlyArray<string>
  readonly statutes: ReadonlyArray<string>
}

/**
 * "obviousness", "Written description", "112(b)", "112b", "35 USC 103", "37 CFR 1.84", "1.84"
 * → both vocabularies; undefined when the value is in neither.
 */
export const expandRejectionType = (raw: string): RejectionTypeQuery | undefined => {
  const word = raw.trim().toLowerCase().replace(/[\s-]+/g, "_")
  const label = REJECTION_LABELS[word] ? word : ALIASES[word]
  if (label) return { labels: [label], statutes: REJECTION_LABELS[label] }
  const s = raw
    .trim()
    .replace(/^(?:pre[-_ ]?AIA\s*)?(?:35\s*U\.?\s?S\.?\s?C\.?|37\s*C\.?\s?F\.?\s?R\.?)?\s*(?:section\s*)?/i, "")
    .replace(/\s+/g, "")
    .replace(/^(\d{1,3})([a-f])$/i, (_, n: string, l: string) => `${n}(${l.toLowerCase()})`)
    .toLowerCase()
  const usc = /^(\d{1,3})((?:\([a-z0-9]{1,3}\))*)$/.exec(s)
  if (usc && Number(usc[1]) >= 1 && Number(usc[1]) <= 390) return { labels: labelsForStatute(s), statutes: [s] }
  if (/^1\.\d{1,4}$/.test(s)) return { labels: labelsForStatute(s), statutes: [s] }
  return undefined
}

/** Whether a paragraph's statute falls under a queried statute ("112" covers "112(b)"). */
export const statuteMatches = (paragraphStatute: string, queried: string): boolean =>
  paragraphStatute === queried || paragraphStatute.startsWith(`${queried}(`)

export const rejectionVocabulary = (): string =>
  `labels: ${Object.keys(REJECTION_LABELS).join(", ")}; statutes: a 35 U.S.C. section (101, 102, 103, 112(a), 112(b), 112(f), 121 …) or a 37 CFR rule (1.84 …)`
