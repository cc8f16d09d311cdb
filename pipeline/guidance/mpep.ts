/**
 * guidance/mpep_guidance.parquet: every MPEP section of the ingest table with what the API
 * serves beyond the text: subsections, key rules, examiner actions, parsed legal references,
 * topic, technology domains and an extractive summary. Works for any chapter the ingest
 * readers take; nothing here knows which chapters the corpus holds.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { legalReferencesOf } from "../../core/guidance/legal-references.ts"
import { examinerActionsOf, keyRulesOf } from "../../core/guidance/rules.ts"
import { subsectionsOf } from "../../core/guidance/subsections.ts"
import { extractiveSummaryOf } from "../../core/guidance/summary.ts"
import { mpepTopicOf, technologyDomainsOf } from "../../core/guidance/topics.ts"
import { type Columns, writeRows } from "./write.ts"

export interface MpepSectionRow {
  readonly section_id: string
  readonly title: string
  readonly chapter: string
  readonly revision: string | null
  readonly content: string
  readonly cross_refs: ReadonlyArray<string>
  readonly source_file: string | null
}

export const mpepColumns: Columns = {
  section_id: "VARCHAR",
  title: "VARCHAR",
  chapter: "VARCHAR",
  revision: "VARCHAR",
  topic_category: "VARCHAR",
  content: "VARCHAR",
  subsections: "JSON",
  key_rules: "VARCHAR[]",
  examiner_actions: "VARCHAR[]",
  legal_references: "JSON",
  technology_domains: "VARCHAR[]",
  enriched_summary: "JSON",
  cross_refs: "VARCHAR[]",
  source_file: "VARCHAR"
}

/** A reserved section or one whose text was moved: its cross-references say where to. */
export const isRedirect = (title: string, content: string) => /^\[?reserved\]?$/i.test(title.trim()) || /^\[Editor Note:[^\]]*moved/i.test(content.trim())

export const readMpepSections = async (conn: DuckDBConnection): Promise<MpepSectionRow[]> =>
  (await conn.runAndReadAll(`SELECT section_id, title, chapter, revision, content, cross_refs, source_file FROM mpep_sections`)).getRowObjectsJS() as unknown as MpepSectionRow[]

export const writeMpepGuidance = (conn: DuckDBConnection, sections: ReadonlyArray<MpepSectionRow>, file: string) =>
  writeRows(
    conn,
    "mpep",
    mpepColumns,
    sections.map((s) => ({
      ...s,
      cross_refs: [...(s.cross_refs ?? [])],
      topic_category: mpepTopicOf(s.section_id, s.title),
      subsections: subsectionsOf(s.content),
      key_rules: keyRulesOf(s.content),
      examiner_actions: examinerActionsOf(s.content),
      legal_references: legalReferencesOf(s.content),
      technology_domains: technologyDomainsOf(`${s.title}\n${s.content}`),
      enriched_summary: extractiveSummaryOf(s.content)
    })),
    file,
    "section_id"
  )
