/**
 * GET /guidance/mpep/{sectionId}: the id is looked up exactly as given (dots and parentheses
 * are part of it), then in its normalized form ("2173.05(E)" → "2173.05(e)").
 */
import { Effect } from "effect"
import { normalizeMpepId } from "../../core/guidance/ids.ts"
import { NotFound } from "../domain/errors.ts"
import { json, list, type Query, str } from "./stored.ts"

export const getMpepSection = (query: Query, sectionId: string) =>
  Effect.gen(function* () {
    const rows = yield* query(
      `SELECT * FROM mpep_guidance WHERE section_id = $1 OR section_id = $2 ORDER BY section_id = $1 DESC LIMIT 1`,
      [sectionId, normalizeMpepId(sectionId) ?? sectionId],
      ["mpep_guidance"]
    )
    const r = rows[0]
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
