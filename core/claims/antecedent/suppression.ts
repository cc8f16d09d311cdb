/**
 * Implicit antecedent basis (MPEP 2173.05(e)): definite references that need no earlier
 * recitation. Each rule returns the id reported under `includeSuppressed`; the lists are short
 * on purpose: a wider list hides real defects.
 */
import type { Mention, Reading } from "./chunker.ts"
import type { SuppressionRule } from "./types.ts"

const set = (s: string) => new Set(s.trim().split(/\s+/))

/**
 * Inherent parts and properties: "the outer surface of the sphere", "the diameter of the ellipse"
 * (Bose v. JBL), "the bottom of the enclosure". Suppressed only when tied to a thing ("of …",
 * "thereof", a possessive).
 */
export const INHERENT_ATTRIBUTES = set(`surface end side edge face portion part section segment region area zone center
  centre middle interior exterior inside outside periphery perimeter circumference diameter radius axis centerline
  length width height depth thickness size shape volume weight mass density top bottom front rear back tip apex
  corner rim wall boundary border contour outline profile orientation position location direction angle speed
  velocity acceleration rate frequency amplitude phase magnitude value level amount number quantity temperature
  pressure concentration intensity strength color colour brightness resolution duration period time timing state
  status condition mode type kind form nature content composition structure function operation performance
  efficiency capacity power energy voltage current resistance impedance flow output input identity name format
  version origin beginning start remainder rest majority minority entirety whole half total sum average mean
  median maximum minimum range extent degree proportion percentage ratio fraction presence absence existence
  occurrence use movement motion rotation distance spacing lumen core plane base bore opening interface inner
  outer upper lower circumference cross-section crosssection tail head neck body stem lip shoulder hub
  proximal distal leading trailing instance identification characteristic property parameter quality
  configuration arrangement geometry dimension dimensions coordinates coordinate midpoint centroid
  perimeter footprint outlet inlet axial radial longitudinal lateral environment vicinity surroundings
  direction course path trajectory life lifetime age history remainder balance difference product quotient
  length cost price owner source destination beginning ending completion result outcome effect response
  point space gap interval wavelength count`)

/** "The user" style: the person operating or receiving the claimed thing needs no recitation. */
export const USER_TERMS = set(`user operator driver wearer patient subject person human individual consumer customer
  occupant rider pedestrian clinician physician surgeon doctor caregiver viewer player listener owner administrator
  technician worker passenger pilot infant mammal host recipient practitioner dentist nurse animal
  vehicle-occupant`)

/** Well-known definite references: things there is only one of, and fixed phrases. */
export const WELL_KNOWN = set(`same art like following foregoing above latter former rest remainder other others
  ground earth atmosphere environment world sun moon sky internet web public invention disclosure time moment
  instant present past future fly way manner extent case event expense contrary absence presence basis vicinity
  surroundings outside inside top bottom front rear back left right center centre middle horizontal vertical
  whole entirety majority total one first second third last respective remaining gravity horizon ambient
  air sea ocean bloodstream market industry cloud formula range balance proviso provisos aid course improvement`)

/** Modifiers that point at the text itself ("the foregoing steps", "the above-mentioned parts"), not at a recitation. */
const ANAPHORIC = set(`same following foregoing preceding respective aforementioned aforesaid above-mentioned
  above-described above-identified above-referenced`)

/** Fixed phrases the next word completes: "the group consisting of", "in the form of", "the parts by weight". */
const FIXED_WITH_NEXT: ReadonlyArray<readonly [string, RegExp]> = [
  ["group", /^(?:consist|includ|compris|of$)/],
  ["form", /^of$/],
  ["order", /^(?:of|in)$/],
  ["number", /^of$/],
  ["amount", /^of$/],
  ["part", /^by$/]
]

/** Definitions by formula: "the relation: T1>T3>T2", "the structure 5′-TCT…", "the following formula". */
const FORMULA_HEADS = set(`equation equations relation relations relationship expression expressions formula formulae
  formulas structure inequality inequalities condition conditions sequence scheme reaction`)

/** Nouns of action ("the removal of fluids") and of property ("the solubility of avobenzone"). */
export const ACTION_NOUN = /(?:tion|sion|ment|ure|ing|sis|(?:ov|iev|iv|s|w|er|ni)al)$/
const PROPERTY_NOUN = /(?:ity|ness|ance|ence|ancy|ency|th|ty|ivity)$/

const RELATIONS = set(`ratio proportion difference sum product quotient average mean ratios differences`)

/** "the highest audio activity level", "the nearest node": a superlative selects by a measure. */
const SUPERLATIVES = set(`best worst highest lowest largest smallest greatest biggest longest shortest nearest closest
  farthest furthest earliest fastest slowest strongest weakest widest narrowest deepest shallowest thickest
  thinnest heaviest lightest oldest newest brightest darkest hottest coldest warmest coolest loudest softest hardest
  simplest cheapest richest poorest tallest lowermost uppermost outermost innermost topmost bottommost foremost
  rearmost hindmost utmost uttermost`)

const SEQUENCE_ID = /^\s*(?:\(\s*)?(?:(?:of|in|as\s+(?:set\s+forth|shown|depicted)\s+in|set\s+forth\s+in|according\s+to|represented\s+by)\s+)?SEQ\.?\s+ID\b/i
const FIXED_DIRECTIONS = set(`vertical horizontal longitudinal lateral transverse radial axial circumferential upward
  downward forward rearward backward clockwise counterclockwise counter-clockwise`)

/** Words after a phrase that tie it to another thing, as "of" does ("the end opposite said point"). */
const TIES = new Set(["of", "between", "opposite", "adjacent", "nearest", "closest", "facing", "near", "thereof", "therein", "therebetween"])

const CLAIM_REF_AFTER = /^\s*(?:,\s*)?(?:of|in|according to|as (?:claimed|recited|defined|set forth|described|in)(?: in)?|recited in|defined in|set forth in|as defined by)\s+(?:any (?:one )?of\s+)?(?:the\s+)?(?:claims?\s+\d|steps?\s+\(?[a-z0-9]|preceding|previous|foregoing)/i

const SYMBOL = /^[a-z]\d*$|^[a-z]{1,3}\d+[a-z0-9]*$|^\d/i

export interface SuppressionContext {
  readonly text: string
  readonly mentions: ReadonlyArray<Mention>
  /** The lower-case token two places before the determiner (the symbol in "n is the refractive index"). */
  readonly beforePrev: string
  /** Whether an -ing/-ed word of the same root appears earlier in the claim chain ("rotating" → "the rotation"). */
  verbRootBefore(word: string): boolean
  /** The chain recites steps ("comprising the steps of"): "the step" is one of them. Asked only about "the step". */
  methodClaim(): boolean
  /** A design or plant claim in formal terms: it names the article shown and recites nothing to refer back to. */
  readonly formalClaim: boolean
}

/**
 * Claims in formal terms (37 CFR 1.153, 1.164): "The ornamental design for a bottle, as shown and
 * described", "A new and distinct variety of rose plant as illustrated and described".
 */
const CLAIM_LEAD = String.raw`^\s*(?:(?:what\s+is\s+claimed\s+is|(?:I|we)\s+claim)[:,]?\s+)?`
const DESIGN_CLAIM = new RegExp(CLAIM_LEAD + String.raw`(?:the|an?)\s+(?:new,?\s+(?:and\s+)?(?:original\s+(?:and\s+)?)?)?ornamental\s+design\b`, "i")
const AS_SHOWN = /\bas\s+(?:herein\s+)?(?:shown|illustrated)\b(?!\s+in\b)/i
const FORMAL_SUBJECT = new RegExp(CLAIM_LEAD + String.raw`(?:the|an?)\s+(?:[\w,-]+\s+){0,6}?(?:design|plant|variety|cultivar)\b`, "i")

// The anchored subject pattern first: it fails at the claim's first words, where "as shown" would be sought through the whole text.
export const isFormalClaim = (text: string): boolean => DESIGN_CLAIM.test(text) || (FORMAL_SUBJECT.test(text) && AS_SHOWN.test(text))

/** Whether the phrase is tied to another thing ("of the sphere", "thereof", a possessive). */
export const isTied = (m: Mention): boolean => TIES.has(m.next) || m.thereof || (m.prev.endsWith("'s") && m.prev.length > 2)

export const suppressionFor = (m: Mention, r: Reading, ctx: SuppressionContext): SuppressionRule | undefined => {
  const head = r.head
  const first = r.words[0]
  const after = ctx.text.slice(r.end, r.end + 60)
  if (CLAIM_REF_AFTER.test(after)) return "claim-reference"
  if (USER_TERMS.has(head) || USER_TERMS.has(r.key)) return "user-style"
  if (ctx.formalClaim) return "formal-claim"
  // "the step for providing": a step-plus-function element (35 U.S.C. 112(f)) names itself.
  // "the step-down converter" is no step: the word must stand alone.
  const step = r.words.includes("step") && !/step-|-step/i.test(ctx.text.slice(r.start, r.end))
  if (step && (m.next === "of" || m.next === "for" || r.words.length > 1 || ctx.methodClaim())) return "step-reference"
  // Tied to a thing already recited ("of the sphere", "thereof"); "the length of a cable" is only reported low.
  const ofMention = m.ofNext !== undefined ? ctx.mentions[m.ofNext] : undefined
  const tied = m.thereof || (m.prev.endsWith("'s") && m.prev.length > 2) || (isTied(m) && (ofMention === undefined ? m.next !== "of" : ofMention.kind === "ref" || ofMention.kind === "each"))
  if (tied && r.words.length <= 2 && INHERENT_ATTRIBUTES.has(head)) return "inherent-attribute"
  // "the ratio of sand to fibrous material", "the difference between the two values": a relation of the things named.
  if (r.words.length === 1 && RELATIONS.has(head) && (m.next === "of" || m.next === "between")) return "inherent-attribute"
  if (tied && r.words.length === 1 && PROPERTY_NOUN.test(head)) return "inherent-attribute"
  if (tied && r.words.length === 1 && ACTION_NOUN.test(head)) return "verb-nominalization"
  for (const [word, next] of FIXED_WITH_NEXT) if (head === word && next.test(m.next)) return "well-known-definite"
  if (ANAPHORIC.has(first) || ANAPHORIC.has(/^[\w-]*/.exec(ctx.text.slice(r.start, r.end))![0].toLowerCase())) return "well-known-definite"
  if (r.words.length === 1 && WELL_KNOWN.has(head)) return "well-known-definite"
  if (FORMULA_HEADS.has(head) && (m.next === ":" || after.trimStart().startsWith("(") || SYMBOL.test(m.next) || /^\d/.test(m.next))) return "well-known-definite"
  if ((first === "formula" || first === "formulae") && r.words.length > 1) return "well-known-definite"
  // "the amino acid sequence of SEQ ID NO: 12", "the sequence set forth in SEQ ID NO: 3": the identifier defines it.
  if (SEQUENCE_ID.test(after)) return "well-known-definite"
  // "and the balance rhodium": the remainder of a composition.
  if (first === "balance" && r.words.length === 2) return "well-known-definite"
  // "the vertical direction", "the longitudinal direction": there is one, whatever the claim recites.
  if (r.words.length === 2 && (head === "direction" || head === "axis" || head === "plane") && FIXED_DIRECTIONS.has(first)) return "well-known-definite"
  if (r.words.length === 1 && ctx.verbRootBefore(head)) return "verb-nominalization"
  if (SUPERLATIVES.has(first) || (first === "most" || first === "least") && r.words.length > 1) return "superlative"
  if (m.prev === "as" || m.prev === "serves" || m.prev === "serving") return "role-designation"
  if ((m.prev === "is" || m.prev === "are" || m.prev === "represents" || m.prev === "denotes" || m.prev === "indicates") && SYMBOL.test(ctx.beforePrev)) {
    return "role-designation"
  }
  return undefined
}
