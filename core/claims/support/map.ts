/**
 * Support mapping (SPEC 2.7): every claim term is looked up in the specification, each place it
 * is found is graded from its sentence, and the term takes the strongest grade. Pure: the caller
 * supplies claims and paragraphs, from a request or from the warehouse.
 */
import { claimDefinition } from "./claim-cues.ts"
import { gradeLocation } from "./cues.ts"
import { findTerm, matchRank, type TermMatch } from "./match.ts"
import { claimTerms, type ClaimTerm } from "./terms.ts"
import { buildTextIndex, type TextIndex } from "./text-index.ts"
import {
  type ClaimSupport, emptyCounts, type Grade, gradeRank, type SpecParagraph, stronger, type SupportLocation, type SupportMap,
  type TermSupport
} from "./types.ts"

export interface MapOptions {
  /** Locations kept per term (the strongest first). */
  readonly maxLocations?: number
}

const SNIPPET = 240

const snippetOf = (text: string, sentence: { start: number; end: number }, start: number, end: number): string => {
  let a = sentence.start
  let b = sentence.end
  if (b - a > SNIPPET) {
    const room = Math.max(0, SNIPPET - (end - start))
    a = Math.max(sentence.start, start - Math.floor(room / 2))
    b = Math.min(sentence.end, a + SNIPPET)
    a = Math.max(sentence.start, b - SNIPPET)
  }
  const s = text.slice(a, b).replace(/\s+/g, " ").trim()
  return `${a > sentence.start ? "…" : ""}${s}${b < sentence.end ? "…" : ""}`
}

/** Cross-references name parent titles; they carry no disclosure of their own. */
const countsAsDisclosure = (p: SpecParagraph) => p.sectionKind !== "cross-reference" && p.sectionKind !== "claims"

/** Graded locations of one term, strongest first, plus the strongest grade. */
export const locateTerm = (index: TextIndex, words: ReadonlyArray<string>): { grade: Grade; locations: SupportLocation[] } => {
  const found: Array<SupportLocation & { readonly rank: number }> = []
  for (const m of findTerm(index, words)) {
    const ip = index.paragraphs[m.p]
    if (!countsAsDisclosure(ip.para)) continue
    found.push(located(ip.para, ip.sentences[m.sentence] ?? { start: 0, end: ip.para.text.length }, m, found.length))
  }
  found.sort((a, b) => gradeRank(a.grade) - gradeRank(b.grade) || matchRank(a.match) - matchRank(b.match) || a.rank - b.rank)
  const grade = found.length > 0 ? found[0].grade : "UNDESCRIBED"
  return { grade, locations: found.map(({ rank: _, ...l }) => l) }
}

const located = (para: SpecParagraph, sentence: { start: number; end: number }, m: TermMatch, rank: number) => {
  const cue = gradeLocation(para.text, sentence, m.start, m.end, m.kind)
  return {
    section: para.section,
    sectionKind: para.sectionKind,
    paragraph: para.paragraph,
    start: m.start,
    end: m.end,
    sectionOffset: para.sectionOffset,
    snippet: snippetOf(para.text, sentence, m.start, m.end),
    grade: cue.grade,
    ...(cue.cue !== undefined ? { cue: cue.cue } : {}),
    match: m.kind,
    rank
  }
}

export interface MappedTerm extends TermSupport {
  readonly words: ReadonlyArray<string>
}

export interface MappedClaim extends Omit<ClaimSupport, "terms"> {
  readonly terms: ReadonlyArray<MappedTerm>
}

export interface Mapped extends Omit<SupportMap, "claims"> {
  readonly claims: ReadonlyArray<MappedClaim>
}

/** Map every claim term of the set to the paragraphs. */
export const mapClaimSupport = (
  claims: ReadonlyArray<{ readonly number?: number; readonly text: string }>,
  paragraphs: ReadonlyArray<SpecParagraph>,
  options: MapOptions = {}
): Mapped => {
  const maxLocations = options.maxLocations ?? 5
  const index = buildTextIndex(paragraphs)
  const sets = claimTerms(claims)
  const texts = sets.map((s) => ({ number: s.claim.number, text: s.claim.text }))
  const grades = emptyCounts()
  const cache = new Map<string, { grade: Grade; locations: SupportLocation[] }>()
  let termCount = 0
  const out: MappedClaim[] = sets.map(({ claim, terms }) => ({
    number: claim.number,
    isIndependent: claim.isIndependent,
    dependsOn: claim.dependsOn,
    terms: terms.map((t: ClaimTerm): MappedTerm => {
      let hit = cache.get(t.key)
      if (!hit) cache.set(t.key, (hit = locateTerm(index, t.words)))
      const defined = claimDefinition(t.words, { number: claim.number, text: claim.text, start: t.start, end: t.end }, texts)
      const grade = defined ? stronger("CLAIM_DEFINED", hit.grade) : hit.grade
      grades[grade]++
      termCount++
      return {
        term: t.key,
        words: t.words,
        display: t.display,
        start: t.start,
        end: t.end,
        grade,
        specificationGrade: hit.grade,
        ...(defined ? { claimCue: defined.cue, definedInClaim: defined.claimNumber } : {}),
        locationCount: hit.locations.length,
        support: hit.locations.slice(0, maxLocations)
      }
    })
  }))
  return {
    claims: out,
    grades,
    stats: {
      claimCount: out.length,
      termCount,
      paragraphCount: paragraphs.length,
      undescribedCount: grades.UNDESCRIBED,
      supportedShare: termCount === 0 ? 0 : Math.round(((termCount - grades.UNDESCRIBED) / termCount) * 1000) / 1000
    }
  }
}

/** Whether each term key is found in the paragraphs at all (for the continuity walk), with its grade there. */
export const gradeTermsIn = (
  terms: ReadonlyArray<{ readonly term: string; readonly words: ReadonlyArray<string> }>,
  paragraphs: ReadonlyArray<SpecParagraph>
): Map<string, { grade: Grade; location?: SupportLocation }> => {
  const index = buildTextIndex(paragraphs)
  const out = new Map<string, { grade: Grade; location?: SupportLocation }>()
  for (const t of terms) {
    if (out.has(t.term)) continue
    const r = locateTerm(index, t.words)
    out.set(t.term, r.locations.length > 0 ? { grade: r.grade, location: r.locations[0] } : { grade: r.grade })
  }
  return out
}
