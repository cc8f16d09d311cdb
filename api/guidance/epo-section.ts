/**
 * GET /guidance/epo/{sectionId}: canonical ids are part-chapter-section ("G-VII-5.1"); the
 * variants the path charset allows ("g-vii-5.1", "GVII5.1", "G-VII5.1") resolve to it.
 */
import { Effect } from "effect"
import { canonicalEpoId } from "../../core/guidance/ids.ts"
import { subsectionsOf } from "../../core/guidance/subsections.ts"
import { type CorpusUnavailable, NotFound } from "../domain/errors.ts"
import { byKey, json, list, type Query, type Row, str } from "./stored.ts"

/** The EPO Guidelines sections of the served version by canonical section id. */
export type EpoSections = ReadonlyMap<string, Row>

export const loadEpoSections = (query: Query): Effect.Effect<EpoSections, CorpusUnavailable> =>
  Effect.map(query(`SELECT * FROM epo_guidance`, [], ["epo_guidance"]), (rows) => byKey(rows, (r) => r.section_id))

export const getEpoGuideline = (sections: Effect.Effect<EpoSections, CorpusUnavailable>, sectionId: string) =>
  Effect.gen(function* () {
    // The table is read even for an id that is no Guidelines reference, so a version without it
    // answers 503 rather than 404.
    const held = yield* sections
    const r = held.get(canonicalEpoId(sectionId) ?? sectionId)
    if (!r) return yield* Effect.fail(new NotFound({ message: `EPO Guidelines section ${sectionId} is not in the corpus` }))
    return {
      sectionId: String(r.section_id),
      reference: str(r.ref),
      title: str(r.title) ?? String(r.ref),
      part: str(r.part),
      chapter: str(r.chapter),
      content: { text: String(r.content), subsections: subsectionsOf(String(r.content)) },
      keyRules: list(r.key_rules),
      examinerActions: list(r.examiner_actions),
      citations: json(r.citations, []),
      parentSection: str(r.parent_section),
      childSections: list(r.child_sections),
      sourceUrl: str(r.source_url)
    }
  })
