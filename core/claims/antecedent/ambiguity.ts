/**
 * Ambiguous references: "the lever" after two levers. The recitations that compete are narrowed
 * by what the reference says of itself (its "of" phrase, its owner, the list it stands in, the
 * words after it) before it is called ambiguous.
 */
import { type Mention, qualifierAt, type Reading } from "./chunker.ts"
import type { ClaimScan, Resolution } from "./claim-scan.ts"
import { type Intro, ofChain, ORIGIN_SPAN } from "./intro-index.ts"
import { sameContent, samePrefix, sameQualifier } from "./qualifiers.ts"
import { DEFINED_BY } from "./severity.ts"

/** "X", "Y1", "R6", "T2": a symbol a claim defines by a phrase. */
const SYMBOL_WORD = /^(?:[A-Z][a-z]?\d*|[a-z]\d+|[A-Z]{1,2}\d*'?)$/

/** A relative clause, a "between" phrase or a participle right after a reference: it says which one by describing it. */
const DESCRIBED_BY = /^\s*(?:where|in which|at which|between|(?!(?:need|feed|seed|speed|bleed|red|bed|shed|based|used|provided|compared|followed|required|combined|determined|received)\b)[a-z]{2,}ed\b)/
/** Nouns of a relation that a "between" phrase fixes by itself ("the distance between A and B"). */
const RELATIONS = new Set(["distance", "gap", "space", "spacing", "angle", "difference", "ratio", "interval", "clearance", "relationship", "relation", "offset", "separation", "overlap", "correlation", "delay", "phase"])

/**
 * Quantities a thing has by being what it is: "the light power of the first light beam", "the free-space operating
 * wavelength". A reference to one needs no recitation (MPEP 2173.05(e), inherent characteristics), so reciting it
 * again ("a light power of the first light beam is P1 … a light power of the first light beam is reduced") does not
 * make two of it. Short on purpose: parts and regions ("a portion", "an area") may well be two.
 */
const MEASURES = new Set(["power", "wavelength", "frequency", "voltage", "current", "temperature", "pressure", "length", "width", "height", "depth", "thickness", "diameter", "radius", "weight", "mass", "density", "speed", "velocity", "concentration", "intensity", "resistance", "impedance", "capacitance", "inductance", "viscosity"])
/** Words after a recitation that place the quantity ("a temperature at the inlet" and "a temperature at the outlet" are two). */
const PLACED = /^(?:at|in|on|within|near|during|across|along|between|before|after|when|while)\b/

/** "for each respective chamber", "at an end of each of the elements": the words right after a reference take it once per member. */
export const EACH_AFTER = /^\s*(?:for|of|in|at|on|to|from|with)\s+(?:(?:an?|the|one)\s+[a-z-]+\s+of\s+)?(?:each|every|respective)\b/

/** What ends the clause an element was recited in. */
const CLAUSE_BREAK = /[;:]|\bwhere(?:in|by)\b/i

/** Reports a singular reference that more than one recitation of its chain could answer. */
export const checkAmbiguity = (scan: ClaimScan, m: Mention, r: Reading, found: Resolution, counting: Intro[]) => {
  const { text, tokens } = scan
  const rivals = narrowRivals(scan, m, r, scan.inOneLine(counting))
  const distinctKeys = new Set(rivals.map((i) => i.key))
  // "wherein X is the amount in atomic percent of said palladium": a symbol is being defined, not a thing picked.
  const defines = (m.prev === "is" || m.prev === "are") && m.detTok >= 2 && SYMBOL_WORD.test(text.slice(tokens[m.detTok - 2].start, tokens[m.detTok - 2].end))
  // "the state where the stopping unit is brought …", "the distance between a region … and a region …": a description no recitation shares picks its own.
  const describedBy = DESCRIBED_BY.exec(text.slice(r.end, r.end + 20))?.[0].trim()
  const ownQualifier = describedBy === undefined ? "" : qualifierAt(tokens, m.tokEnd)
  const described = describedBy !== undefined && (describedBy !== "between" || RELATIONS.has(r.head)) && !rivals.some((i) => samePrefix(i.qualifier, ownQualifier))
  // "the regulating member for each respective working chamber": one per member of a plurality, whichever.
  const perEach = EACH_AFTER.test(text.slice(r.end, r.end + 40))
  const ambiguous = !defines && !described && !perEach && ((found.how === "exact" && rivals.length > 1) || (found.how === "suffix" && distinctKeys.size > 1 && !r.plural))
  // "each said axis" after "a respective axis": each of them, whichever.
  // "for each linear light gradient …, said linear light gradient": each of them in turn; "the voltage divided by the divider" says which.
  if (
    ambiguous && !m.det.startsWith("each") && !scan.distributive.has(r.key) && !DEFINED_BY.test(text.slice(r.end, r.end + 40)) &&
    !refersToLatest(scan, rivals, r.start) && !scan.inheritedAmbiguity.has(r.key)
  ) {
    scan.ambiguityReported.add(r.key)
    scan.issue("ambiguous-reference", "medium", scan.termOf(r), r.start, r.end)
  }
}

/** The recitations the reference could still mean once its own words have had their say. */
const narrowRivals = (scan: ClaimScan, m: Mention, r: Reading, recited: Intro[]): Intro[] => {
  let rivals = recited
  if (rivals.length > 1 && m.ofNext !== undefined) {
    const ofKey = ofChain(scan.mentions, m)
    // "the amount of salt" after "an amount of salt" and "an amount of sugar": the "of" phrase decides;
    // "the address of said selected portion" after addresses of other things is an attribute of its own.
    rivals = rivals.filter((i) => i.ofKey === ofKey)
  }
  if (rivals.length > 1) {
    // "the access opening in the fastening bracket" after "the fastening bracket having an access opening": its owner decides.
    const where = ownerNamedAfter(scan, m)
    const owned = where === undefined ? [] : rivals.filter((i) => i.owner === where)
    if (owned.length === 1) rivals = owned
  }
  if (rivals.length > 1 && m.scope !== undefined) {
    // "c) a second ceramic substrate comprising: a body …; pads bonded to the upper side of the body": the body of the element whose parts are being listed.
    const listed = rivals.filter((i) => (i.owner ?? i.listedIn) === m.scope)
    if (listed.length === 1) rivals = listed
  }
  if (rivals.length > 1) {
    // "said PCD" after "a proximity communication device (PCD)" and "another PCD" twice: the one first recited, never the others.
    const first = rivals.filter((i) => !i.another)
    if (first.length <= 1) rivals = first
  }
  if (rivals.length > 1) {
    // "provides electric power to an electrically powered fracturing module …; an electrically powered fracturing module
    // operatively associated with …": a passing mention inside another element's description, then the element itself.
    const elements = rivals.filter((i) => i.clauseStart)
    if (elements.length === 1 && rivals.every((i) => i === elements[0] || !i.elementStart)) rivals = elements
  }
  if (rivals.length > 1 && !r.plural) {
    // "sending a command to the server instance" after "a number of server instances …" and "activating a server instance
    // in the pool": a singular reference names the one thing recited singly; the plurality is "the server instances".
    const single = rivals.filter((i) => i.number === "sg")
    if (single.length === 1 && rivals.every((i) => i === single[0] || i.number === "pl")) rivals = single
  }
  if (rivals.length > 1 && m.ofNext === undefined) {
    // "said center" after "a center of gravity" and "a center (B)": a reference without an "of" phrase names the recitation without one.
    const plain = rivals.filter((i) => i.ofKey === undefined)
    if (plain.length > 0 && plain.length < rivals.length) rivals = plain
  }
  if (rivals.length > 1 && MEASURES.has(r.head) && rivals.every((i) => i.key === rivals[0].key && i.ofKey === rivals[0].ofKey && !PLACED.test(i.qualifier))) {
    // "set the light power of the first light beam" after "a light power of the first light beam is P1" and "a light power
    // of the first light beam is reduced": one quantity of one thing, recited twice.
    return rivals.slice(0, 1)
  }
  if (rivals.length > 1) {
    // "the electromagnetic field within the knee joint" after one "… within the knee joint" and one "… within a medial area": the words after it decide.
    const own = qualifierAt(scan.tokens, m.tokEnd)
    const same = rivals.filter((i) => sameQualifier(i.qualifier, own))
    if (same.length === 1) rivals = same
    else if (same.length > 1) {
      // "the change of flow rate for the fluid pump" after changes of flow rate for the pump and for the blender: read on.
      const longer = same.filter((i) => samePrefix(i.qualifier, own))
      if (longer.length === 1) rivals = longer
    } else {
      // "the change in flow rate of the electrically powered blender module" after "a change of flow rate for the fluid
      // pump" and "a change of flow rate for the electrically powered blender module": prepositions aside, the words say which.
      const worded = rivals.filter((i) => sameContent(i.qualifier, own))
      if (worded.length === 1) rivals = worded
    }
  }
  return rivals
}

/** The key of the phrase right after "in", "on", "of" or "at" following a reference: where the thing is. */
const ownerNamedAfter = (scan: ClaimScan, m: Mention): string | undefined => {
  const next = scan.mentions[m.index + 1]
  if (!next || next.kind === "bare" || next.detTok !== m.tokEnd + 1) return undefined
  const between = scan.tokens[m.tokEnd]?.l
  return between === "in" || between === "on" || between === "of" || between === "at" ? next.readings[0]?.key : undefined
}

/**
 * "divide a parallax component image into pieces …, the parallax component image being obtained
 * by …": in the clause that recited it, "the" points at the latest recitation. A "wherein"
 * clause speaks of the whole and keeps the ambiguity ("a lever …; and a lever …, wherein the lever").
 */
const refersToLatest = (scan: ClaimScan, rivals: Intro[], at: number): boolean => {
  let latest: Intro | undefined
  for (const i of rivals) if (i.claim === scan.number && (!latest || i.origin > latest.origin)) latest = i
  if (!latest) return false
  const from = latest.origin - scan.number * ORIGIN_SPAN
  return at - from < 400 && !CLAUSE_BREAK.test(scan.text.slice(from, at))
}
