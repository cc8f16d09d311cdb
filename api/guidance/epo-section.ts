/**
 * GET /guidance/epo/{sectionId}: canonical ids are part-chapter-section ("G-VII-5.1"); the
 * variants the path charset allows ("g-vii-5.1", "GVII5.1", "G-VII5.1") resolve to it.
 */
import { Effect } from "effect"
import { canonicalEpoId } from "../../core/guidance/ids.ts"
import { subsectionsOf } from "../../core/guidance/subsections.ts"
import { NotFound } from "../domain/errors.ts"
import { json, list, type Query, str } from "./stored.ts"

export const getEpoGuideline = (query: Query, sectionId: string) =>
  Effect.gen(function* () {
    const id = canonicalEpoId(sectionId)
    // An id that is no Guidelines reference still goes to the table, so a version without it
    // answers 503 rather than 404.
    const [r] = yield* query(`SELECT * FROM epo_guidance WHERE section_id = $1 LIMIT 1`, [id ?? sectionId], ["epo_guidance"])
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
