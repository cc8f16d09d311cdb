/**
 * guidance/epo_guidance.parquet: every EPO Guidelines section with key rules, examiner
 * actions, citations (Articles, Rules, decisions, other sections) and its place in the
 * hierarchy: the nearest held ancestor as parent and the sections whose parent it is as
 * children, in natural order.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { epoCitationsOf } from "../../core/guidance/epo-citations.ts"
import { parentIdOf } from "../../core/guidance/graph.ts"
import { compareIds } from "../../core/guidance/natural-order.ts"
import { examinerActionsOf, keyRulesOf } from "../../core/guidance/rules.ts"
import { type Columns, writeRows } from "./write.ts"

export interface EpoSectionRow {
  readonly section_id: string
  readonly ref: string
  readonly part: string | null
  readonly chapter: string | null
  readonly title: string | null
  readonly content: string
  readonly url: string | null
  readonly cross_refs: ReadonlyArray<string>
}

export const epoColumns: Columns = {
  section_id: "VARCHAR",
  ref: "VARCHAR",
  title: "VARCHAR",
  part: "VARCHAR",
  chapter: "VARCHAR",
  content: "VARCHAR",
  key_rules: "VARCHAR[]",
  examiner_actions: "VARCHAR[]",
  citations: "JSON",
  parent_section: "VARCHAR",
  child_sections: "VARCHAR[]",
  source_url: "VARCHAR",
  cross_refs: "VARCHAR[]"
}

export const readEpoSections = async (conn: DuckDBConnection): Promise<EpoSectionRow[]> =>
  (await conn.runAndReadAll(`SELECT section_id, ref, part, chapter, title, content, url, cross_refs FROM epo_sections`)).getRowObjectsJS() as unknown as EpoSectionRow[]

export const writeEpoGuidance = (conn: DuckDBConnection, sections: ReadonlyArray<EpoSectionRow>, file: string) => {
  const held = new Set(sections.map((s) => s.section_id))
  const parentOf = (id: string) => {
    for (let p = parentIdOf("epo", id); p; p = parentIdOf("epo", p)) if (held.has(p)) return p
    return null
  }
  const children = new Map<string, string[]>()
  for (const s of sections) {
    const p = parentOf(s.section_id)
    if (p) children.set(p, [...(children.get(p) ?? []), s.section_id])
  }
  return writeRows(
    conn,
    "epo",
    epoColumns,
    sections.map((s) => ({
      ...s,
      cross_refs: [...(s.cross_refs ?? [])],
      key_rules: keyRulesOf(s.content),
      examiner_actions: examinerActionsOf(s.content),
      citations: epoCitationsOf(s.content, s.cross_refs ?? []),
      parent_section: parentOf(s.section_id),
      child_sections: (children.get(s.section_id) ?? []).sort(compareIds),
      source_url: s.url
    })),
    file,
    "section_id"
  )
}
