/**
 * GET /guidance/mpep/{sectionId}: the id is looked up exactly as given (dots and parentheses
 * are part of it), then in its normalized form ("2173.05(E)" → "2173.05(e)").
 */
import { Effect } from "effect"
import { normalizeMpepId } from "../../core/guidance/ids.ts"
import { type CorpusUnavailable, NotFound } from "../domain/errors.ts"
import { byKey, json, list, type Query, type Row, str } from "./stored.ts"

/** The MPEP sections of the served version by section id. */
export type MpepSections = ReadonlyMap<string, Row>

export const loadMpepSections = (query: Query): Effect.Effect<MpepSections, CorpusUnavailable> =>
  Effect.map(query(`SELECT * FROM mpep_guidance`, [], ["mpep_guidance"]), (rows) => byKey(rows, (r) => r.section_id))

export const getMpepSection = (sections: Effect.Effect<MpepSections, CorpusUnavailable>, sectionId: string) =>
  Effect.gen(function* () {
    const held = yield* sections
    const r = held.get(sectionId) ?? held.get(normalizeMpepId(sectionId) ?? sectionId)
    if (!r) return yield* Effect.fail(new NotFound({ message: `MPEP section ${sectionId} is not in the corpus` }))
    return {
      sectionId: String(r.section_id),
      title: String(r.title),
      chapter: str(r.chapter),
      revision: str(r.revision),
      topicCategory: str(r.topic_category),
      content: { text: String(r.content), subsections: json(r.subsections, []) },
      keyRules: list(r.key_rules),
      examinerActions: list(r.examiner_actions),
      legalReferences: json(r.legal_references, []),
      crossReferences: list(r.cross_refs).filter((id, i, all) => all.indexOf(id) === i),
      technologyDomains: list(r.technology_domains),
      enrichedSummary: json(r.enriched_summary, null)
    }
  })
