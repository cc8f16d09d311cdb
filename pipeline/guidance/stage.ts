/**
 * The guidance stage: what the /guidance endpoints serve, derived from the ingest tables
 * mpep_sections, epo_sections, form_paragraphs and design_codes (the ingest readers parse the
 * MPEP HTML/markdown, the EPO CSV, the form-paragraph index and the design-code TSV).
 *
 * Outputs (guidance/)
 *   mpep_guidance.parquet           section_id, title, chapter, revision, topic_category, content, subsections (JSON),
 *                                   key_rules, examiner_actions, legal_references (JSON), technology_domains,
 *                                   enriched_summary (JSON, extractive), cross_refs, source_file
 *   epo_guidance.parquet            section_id (canonical G-VII-5.1), ref (as published), title, part, chapter, content,
 *                                   key_rules, examiner_actions, citations (JSON), parent_section, child_sections,
 *                                   source_url, cross_refs
 *   form_paragraph_details.parquet  code, title, template, brackets (JSON), statute, statute_short, rejection_type,
 *                                   category, is_aia, pre_aia_equivalent, mpep_section, examiner_notes, must_follow,
 *                                   related_paragraphs (JSON), truncated_at_source, chapter, variant, sources
 *   guidance_edges.parquet          corpus, source, target (node ids mpep-…/epo-…), weight, type, bidirectional
 *   guidance_nodes.parquet          corpus, node_id, section_id, in_degree, out_degree, degree, is_hub
 *   design_code_entries.parquet     code, level, parent, descriptions, major, major_code, sub, sub_code, guidelines, excludes
 */
import { Effect } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { type Stage, type StageResult, stagePromise } from "../stages/Stage.ts"
import { withTables } from "../stages/tables.ts"
import { writeDesignCodeEntries } from "./design-codes.ts"
import { readEpoSections, writeEpoGuidance } from "./epo.ts"
import { readFormParagraphs, writeFormParagraphDetails } from "./form-paragraphs.ts"
import { writeGuidanceGraph } from "./graph.ts"
import { ensureGuidanceTables, readsGuidanceInput } from "./inputs.ts"
import { readMpepSections, writeMpepGuidance } from "./mpep.ts"

export const guidanceOutputs = {
  mpep_guidance: "guidance/mpep_guidance.parquet",
  epo_guidance: "guidance/epo_guidance.parquet",
  form_paragraph_details: "guidance/form_paragraph_details.parquet",
  guidance_edges: "guidance/guidance_edges.parquet",
  guidance_nodes: "guidance/guidance_nodes.parquet",
  design_code_entries: "guidance/design_code_entries.parquet"
} as const

export const guidanceStage: Stage = {
  name: "guidance",
  sources: ["pipeline/guidance", "core/guidance"],
  dependsOn: ["ingest"],
  readsOutput: readsGuidanceInput,
  readsCorpusFile: () => false,
  run: (ctx) =>
    stagePromise(async (): Promise<StageResult> => {
      await fs.rm(path.join(ctx.workDir, "guidance"), { recursive: true, force: true })
      const out = (rel: string) => path.join(ctx.workDir, rel)
      return withTables(ctx.workDir, async (conn) => {
        const notes: string[] = []
        const missing = await ensureGuidanceTables(conn)
        if (missing.length) notes.push(`input tables absent, read as empty: ${missing.join(", ")}`)
        const mpep = await readMpepSections(conn)
        const epo = await readEpoSections(conn)
        const rowCounts: Record<string, number> = {}
        rowCounts.mpep_guidance = await writeMpepGuidance(conn, mpep, out(guidanceOutputs.mpep_guidance))
        ctx.progress.info(`mpep sections: ${rowCounts.mpep_guidance}`)
        rowCounts.epo_guidance = await writeEpoGuidance(conn, epo, out(guidanceOutputs.epo_guidance))
        ctx.progress.info(`epo sections: ${rowCounts.epo_guidance}`)
        rowCounts.form_paragraph_details = await writeFormParagraphDetails(conn, await readFormParagraphs(conn), out(guidanceOutputs.form_paragraph_details))
        const graph = await writeGuidanceGraph(conn, mpep, epo, { edges: out(guidanceOutputs.guidance_edges), nodes: out(guidanceOutputs.guidance_nodes) })
        rowCounts.guidance_edges = graph.edges
        rowCounts.guidance_nodes = graph.nodes
        notes.push(...graph.notes)
        rowCounts.design_code_entries = await writeDesignCodeEntries(conn, out(guidanceOutputs.design_code_entries))
        return { outputs: Object.values(guidanceOutputs), rowCounts, notes }
      })
    })
}
