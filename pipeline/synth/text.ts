/**
 * Title, abstract, description and claims, assembled from a topic's CPC titles and words with a
 * small set of patent-drafting templates. The text is not meant to read well; it is meant to be
 * topical (documents of one subgroup share vocabulary, of one subclass overlap), sized like real
 * documents, and structured like them: headings, numbered paragraphs, figure references, and
 * claims whose dependent claims refer only to earlier claims of their own group.
 * All returned strings except `title` are XML-escaped already (built from escaped topic words).
 */
import type { Rng } from "./random.ts"
import type { Topic } from "./topics.ts"

const NOUNS: Record<string, readonly string[]> = {
  A: ["device", "assembly", "member", "housing", "body", "container", "support", "handle", "frame", "insert"],
  B: ["assembly", "member", "frame", "drive unit", "housing", "roller", "conveyor", "tool", "actuator", "chamber"],
  C: ["composition", "compound", "mixture", "solution", "catalyst", "polymer", "layer", "reactor", "substrate", "formulation"],
  D: ["fabric", "fiber", "yarn", "layer", "web", "sheet", "roller", "binder", "coating", "strand"],
  E: ["panel", "beam", "frame", "anchor", "wall element", "support", "assembly", "housing", "bracket", "column"],
  F: ["housing", "shaft", "valve", "piston", "bearing", "chamber", "seal", "rotor", "nozzle", "conduit"],
  G: ["processor", "sensor", "controller", "circuit", "memory", "module", "signal", "interface", "detector", "display"],
  H: ["circuit", "electrode", "substrate", "transistor", "antenna", "controller", "signal", "layer", "terminal", "converter"]
}
const HEADS: Record<string, readonly string[]> = {
  A: ["device", "apparatus", "system"], B: ["apparatus", "assembly", "system"], C: ["composition", "process", "method"],
  D: ["material", "apparatus", "method"], E: ["structure", "system", "assembly"], F: ["apparatus", "assembly", "system"],
  G: ["system", "apparatus", "method"], H: ["device", "apparatus", "system"]
}
const VERBS = ["receive", "generate", "determine", "control", "adjust", "detect", "transmit", "support", "engage", "position", "measure", "store", "rotate", "seal", "convert", "regulate"]
const GERUNDS = ["providing", "receiving", "determining", "forming", "applying", "generating", "adjusting", "measuring", "coupling", "heating", "depositing", "transmitting", "selecting", "comparing"]
const ADJECTIVES = ["first", "second", "upper", "lower", "inner", "outer", "adjacent", "elongated", "flexible", "movable", "annular", "planar", "primary", "auxiliary"]
const VIEWS = ["perspective view", "schematic diagram", "cross-sectional view", "block diagram", "flow chart", "side elevation view", "top plan view", "exploded view", "graph"]
const UNITS = ["mm", "nm", "wt %", "degrees", "ms", "MHz", "kPa", "%"]

/** A small per-document drafting kit: the topic's words plus the section's generic nouns. */
const article = (s: string): string => (/^[aeiou]/i.test(s) ? "an " : "a ") + s
const capitalized = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1)

class Drafter {
  readonly nouns: readonly string[]
  readonly heads: readonly string[]
  constructor(readonly topic: Topic, readonly rng: Rng) {
    this.nouns = NOUNS[topic.section] ?? NOUNS.G
    this.heads = HEADS[topic.section] ?? HEADS.G
  }
  word(): string {
    const w = this.topic.xWords
    // Favour the most specific words (the subgroup's own title comes first).
    return w[Math.min(w.length - 1, Math.floor(this.rng.exponential(Math.max(1.5, w.length / 3))))]
  }
  phrase(): string {
    return this.rng.pick(this.topic.xPhrases.length > 0 ? this.topic.xPhrases : this.topic.xWords)
  }
  noun(): string {
    return this.rng.pick(this.nouns)
  }
  part(): string {
    return `${this.rng.pick(ADJECTIVES)} ${this.word()} ${this.noun()}`
  }
  /** A part with its indefinite article. */
  aPart(): string {
    return article(this.part())
  }
  verb(): string {
    return this.rng.pick(VERBS)
  }
  sentence(): string {
    const r = this.rng
    switch (r.int(8)) {
      case 0:
        return `The ${this.part()} is configured to ${this.verb()} the ${this.word()} ${this.noun()} based on ${this.phrase()}.`
      case 1:
        return `In some embodiments, the ${this.word()} ${this.noun()} is coupled to the ${this.part()} so as to ${this.verb()} ${this.phrase()}.`
      case 2:
        return `The ${this.noun()} may include ${this.phrase()}, and the ${this.part()} may ${this.verb()} the ${this.word()} ${this.noun()}.`
      case 3:
        return `Conventional approaches to ${this.phrase()} often fail to ${this.verb()} the ${this.word()} ${this.noun()} reliably.`
      case 4:
        return `${capitalized(this.aPart())} is disposed between the ${this.word()} ${this.noun()} and the ${this.part()}.`
      case 5:
        return `The ${this.word()} ${this.noun()} can ${this.verb()} ${this.phrase()} without affecting the ${this.part()}.`
      case 6:
        return `In one example, the ${this.part()} has a thickness of about ${r.range(1, 90)} ${r.pick(UNITS)} and is formed of ${this.phrase()}.`
      default:
        return `Accordingly, ${this.phrase()} is improved by the ${this.part()} described herein.`
    }
  }
  paragraph(min: number, max: number): string {
    const n = this.rng.range(min, max)
    let out = this.sentence()
    for (let k = 1; k < n; k++) out += " " + this.sentence()
    return out
  }
}

export interface Section {
  /** Processing-instruction name and description, e.g. ["BRFSUM", "Brief Summary"]. */
  readonly pi: readonly [string, string]
  readonly headings: ReadonlyArray<{ readonly heading: string; readonly paragraphs: readonly string[] }>
  readonly drawings?: boolean
}

export interface Claim {
  readonly num: number
  /** The claim it depends on, or 0 for an independent claim. */
  readonly dependsOn: number
  /** Escaped claim text after "N. " (before any claim-ref), e.g. "The device of ". */
  readonly lead: string
  /** Escaped text after the claim-ref (dependent) or the preamble (independent). */
  readonly body: string
  /** Independent claims: the elements, one <claim-text> each. */
  readonly elements: readonly string[]
}

export interface Text {
  /** Raw (not escaped) invention title. */
  readonly title: string
  readonly abstract: string
  readonly sections: readonly Section[]
  readonly figures: number
}

const TITLE_FORMS = [
  (s: string) => s,
  (s: string) => s,
  (s: string) => s,
  (s: string) => `${s} and method for producing the same`,
  (s: string) => `Systems and methods relating to ${s.charAt(0).toLowerCase()}${s.slice(1)}`,
  (s: string) => `${s}, and associated methods`,
  (s: string) => `Method and apparatus for ${s.charAt(0).toLowerCase()}${s.slice(1)}`
]

/** Title, abstract and description of a document (shared by a continuation family). */
export const draftText = (topic: Topic, rng: Rng): Text => {
  const d = new Drafter(topic, rng)
  const title = rng.pick(TITLE_FORMS)(topic.subject)
  const head = rng.pick(d.heads)
  const abstract = `${capitalized(article(head))} for ${topic.xSubject} is disclosed. ${d.paragraph(3, 5)}`
  const figures = rng.range(2, 8)
  const field = `The present disclosure relates generally to ${topic.xPhrases[topic.xPhrases.length - 1] ?? topic.xSubject} and, more particularly, to ${topic.xSubject}.`
  const background = [d.paragraph(2, 3), d.paragraph(2, 3)]
  const summary = [`In one aspect, ${article(head)} for ${topic.xSubject} is provided. ${d.paragraph(2, 3)}`, d.paragraph(2, 3)]
  const drawings: string[] = []
  for (let f = 1; f <= figures; f++) {
    drawings.push(`<figref idref="DRAWINGS">FIG. ${f}</figref> is ${article(rng.pick(VIEWS))} of ${d.aPart()} according to an embodiment.`)
  }
  const detailed: string[] = []
  const nDetailed = rng.range(4, 7)
  for (let k = 0; k < nDetailed; k++) {
    const f = 1 + (k % figures)
    const ref = 100 * f + 2 * rng.range(1, 20)
    detailed.push(`As shown in <figref idref="DRAWINGS">FIG. ${f}</figref>, the ${d.word()} ${d.noun()} ${ref} includes ${d.aPart()} ${ref + 2}. ${d.paragraph(2, 3)}`)
  }
  detailed.push(`While the foregoing describes ${topic.xSubject} with reference to particular embodiments, the scope of the invention is defined by the appended claims.`)
  return {
    title,
    abstract,
    figures,
    sections: [
      {
        pi: ["BRFSUM", "Brief Summary"],
        headings: [
          { heading: "FIELD", paragraphs: [field] },
          { heading: "BACKGROUND", paragraphs: background },
          { heading: "SUMMARY", paragraphs: summary }
        ]
      },
      { pi: ["brief-description-of-drawings", "Brief Description of Drawings"], headings: [{ heading: "BRIEF DESCRIPTION OF THE DRAWINGS", paragraphs: drawings }], drawings: true },
      { pi: ["DETDESC", "Detailed Description"], headings: [{ heading: "DETAILED DESCRIPTION", paragraphs: detailed }] }
    ]
  }
}

const PREDICATES = [
  (d: Drafter) => `the ${d.part()} comprises ${d.phrase()}.`,
  (d: Drafter) => `the ${d.word()} ${d.noun()} is configured to ${d.verb()} the ${d.part()}.`,
  (d: Drafter) => `the ${d.part()} is formed of ${d.phrase()}.`,
  (d: Drafter) => `the ${d.word()} ${d.noun()} is disposed adjacent to the ${d.part()}.`,
  (d: Drafter) => `the ${d.part()} has a thickness between ${d.rng.range(1, 20)} and ${d.rng.range(21, 200)} ${d.rng.pick(UNITS)}.`,
  (d: Drafter) => `the ${d.word()} ${d.noun()} further ${d.verb()}s ${d.phrase()}.`
]

/** Claims: 8–20, one to three independent claims, dependents referring back within their group. */
export const draftClaims = (topic: Topic, rng: Rng): Claim[] => {
  const d = new Drafter(topic, rng)
  const count = rng.range(8, 20)
  const starts = [1]
  if (count >= 6 && rng.chance(0.65)) starts.push(Math.floor(count * 0.45) + 1)
  if (count >= 12 && rng.chance(0.3)) starts.push(Math.floor(count * 0.75) + 1)
  const claims: Claim[] = []
  let group = 0
  let head = ""
  for (let num = 1; num <= count; num++) {
    if (starts[group + 1] === num) group++
    const independent = starts[group]
    if (num === independent) {
      const method = group === 1 || (group === 0 && topic.section === "C" && rng.chance(0.4))
      head = method ? "method" : group === 2 ? "system" : rng.pick(d.heads.filter((h) => h !== "method"))
      const nElements = rng.range(3, 5)
      const elements: string[] = []
      for (let e = 0; e < nElements; e++) {
        const last = e === nElements - 1
        const text = method
          ? `${rng.pick(GERUNDS)} ${d.aPart()} ${e === 0 ? "comprising" : "using"} ${d.phrase()}`
          : `${d.aPart()} configured to ${d.verb()} ${d.phrase()}`
        elements.push(last ? `${e > 0 ? "and " : ""}${text}.` : `${text};`)
      }
      const body = method ? `A method of ${rng.pick(GERUNDS)} ${topic.xSubject}, the method comprising:` : `${capitalized(article(head))} for ${topic.xSubject}, comprising:`
      claims.push({ num, dependsOn: 0, lead: body, body: "", elements })
    } else {
      const target = rng.chance(0.55) || num - 1 === independent ? independent : rng.range(independent, num - 1)
      claims.push({ num, dependsOn: target, lead: `The ${head} of `, body: `, wherein ${rng.pick(PREDICATES)(d)}`, elements: [] })
    }
  }
  return claims
}

