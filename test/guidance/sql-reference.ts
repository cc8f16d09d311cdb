/**
 * The guidance lookups as they were answered before the tables were held in memory: one SQL
 * query over the Parquet tables per request (kept verbatim, apart from names, as the reference
 * the in-memory answers are checked against in held-tables.test.ts).
 */
import { Effect } from "effect"
import { canonicalEpoId, normalizeMpepId } from "../../core/guidance/ids.ts"
import { compareIds } from "../../core/guidance/natural-order.ts"
import { expandRejectionType, rejectionVocabulary } from "../../core/guidance/rejection-types.ts"
import { subsectionsOf } from "../../core/guidance/subsections.ts"
import { NotFound } from "../../api/domain/errors.ts"
import { formParagraphBody, formParagraphCodeOf } from "../../api/guidance/form-paragraph.ts"
import { parseNodeId } from "../../api/guidance/guidance-graph.ts"
import { json, list, num, type Query, type Row, str } from "../../api/guidance/stored.ts"

export const mpepSectionBySql = (query: Query, sectionId: string) =>
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

export const epoGuidelineBySql = (query: Query, sectionId: string) =>
  Effect.gen(function* () {
    const id = canonicalEpoId(sectionId)
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

export const formParagraphBySql = (query: Query, code: string) =>
  Effect.gen(function* () {
    const normalized = formParagraphCodeOf(code)
    const [r] = yield* query(`SELECT * FROM form_paragraph_details WHERE code = $1 LIMIT 1`, [normalized ?? code.trim()], ["form_paragraph_details"])
    if (!r) return yield* Effect.fail(new NotFound({ message: `form paragraph ${code.trim()} is not in the corpus` }))
    return formParagraphBody(r)
  })

export const formParagraphsBySql = (query: Query, search: { rejectionType?: string; mpepSection?: string; limit: number }) =>
  Effect.gen(function* () {
    const filter: Record<string, unknown> = { limit: search.limit }
    const where: string[] = []
    const params: string[] = []
    const param = (v: string) => {
      params.push(v)
      return `$${params.length}`
    }
    if (search.rejectionType !== undefined) {
      filter.rejectionType = search.rejectionType
      const expanded = expandRejectionType(search.rejectionType)
      if (!expanded) {
        yield* query(`SELECT 1 FROM form_paragraph_details LIMIT 0`, [], ["form_paragraph_details"])
        return { results: [], count: 0, filter: { ...filter, matched: null, note: `unrecognised rejectionType; ${rejectionVocabulary()}` } }
      }
      filter.matched = { rejectionTypes: expanded.labels, statutes: expanded.statutes }
      const any = [
        ...expanded.labels.map((l) => `rejection_type = ${param(l)}`),
        ...expanded.statutes.flatMap((s) => [`statute_short = ${param(s)}`, `starts_with(statute_short, ${param(`${s}(`)})`])
      ]
      where.push(`(${any.join(" OR ")})`)
    }
    if (search.mpepSection !== undefined) {
      const section = normalizeMpepId(search.mpepSection) ?? search.mpepSection
      filter.mpepSection = section
      where.push(`(mpep_section = ${param(section)} OR starts_with(mpep_section, ${param(`${section}.`)}) OR starts_with(mpep_section, ${param(`${section}(`)}))`)
    }
    const rows = yield* query(`SELECT * FROM form_paragraph_details WHERE ${where.join(" AND ")}`, params, ["form_paragraph_details"])
    const results = rows
      .sort((a, b) => compareIds(String(a.code), String(b.code)))
      .slice(0, search.limit)
      .map(formParagraphBody)
    return { results, count: results.length, filter: { ...filter, totalMatches: rows.length } }
  })

const edgeBody = (r: Row) => ({
  source: String(r.source),
  target: String(r.target),
  weight: num(r.weight),
  type: String(r.type),
  bidirectional: Boolean(r.bidirectional)
})

export const guidanceGraphBySql = (query: Query, nodeId: string, limit: number) =>
  Effect.gen(function* () {
    const parsed = parseNodeId(nodeId)
    if (!parsed) return yield* Effect.fail(new NotFound({ message: `no guidance node ${nodeId}: ids start with mpep- or epo-` }))
    const tables = ["guidance_nodes", "guidance_edges"]
    const [node] = yield* query(
      `SELECT node_id, corpus, in_degree, out_degree, is_hub FROM guidance_nodes WHERE corpus = $1 AND section_id = $2 LIMIT 1`,
      [parsed.corpus, parsed.sectionId],
      tables
    )
    if (!node) return yield* Effect.fail(new NotFound({ message: `no guidance node ${nodeId}: ids are mpep-<section> or epo-<section> of a section in the corpus` }))
    const id = String(node.node_id)
    const direction = (column: "source" | "target") =>
      query(
        `SELECT source, target, weight, type, bidirectional FROM guidance_edges WHERE ${column} = $1
         ORDER BY weight DESC, ${column === "source" ? "target" : "source"} LIMIT ${limit + 1}`,
        [id],
        tables
      )
    const [outgoing, incoming] = yield* Effect.all([direction("source"), direction("target")])
    return {
      node: { nodeId: id, inDegree: num(node.in_degree), outDegree: num(node.out_degree), isHub: Boolean(node.is_hub) },
      corpus: String(node.corpus) as "mpep" | "epo",
      outgoing: outgoing.slice(0, limit).map(edgeBody),
      incoming: incoming.slice(0, limit).map(edgeBody),
      truncated: { outgoing: outgoing.length > limit, incoming: incoming.length > limit },
      limit
    }
  })

export const designCodeBySql = (query: Query, code: string) =>
  Effect.gen(function* () {
    const [r] = yield* query(`SELECT * FROM design_code_entries WHERE code = $1 LIMIT 1`, [code.trim()], ["design_code_entries"])
    if (!r) return yield* Effect.fail(new NotFound({ message: `design code ${code} is not in the Design Search Code Manual` }))
    return {
      code: String(r.code),
      descriptions: list(r.descriptions),
      major: str(r.major),
      sub: str(r.sub),
      level: str(r.level),
      majorCode: str(r.major_code),
      subCode: str(r.sub_code),
      guidelines: list(r.guidelines),
      excludes: list(r.excludes)
    }
  })
