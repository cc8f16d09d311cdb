/** The guidance stage over the sample build's tables: row counts, and graph degrees recounted here from the ingest cross_refs. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { guidanceRuntime, guidanceVersion } from "./support.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const sampleDir = await sampleArtifacts()

let version: Awaited<ReturnType<typeof guidanceVersion>>
let g: ReturnType<typeof guidanceRuntime>
beforeAll(async () => {
  version = await guidanceVersion(sampleDir)
  g = guidanceRuntime(version.dir)
})
afterAll(async () => {
  await g?.dispose()
  version?.remove()
})

const count = async (table: string) => Number((await g.sql(`SELECT count(*)::INTEGER AS n FROM ${table}`))[0].n)

describe("guidanceStage", () => {
  it("writes one row per ingested section, paragraph and design code, and reports the counts", async () => {
    const { result } = version
    expect(result.outputs).toHaveLength(6)
    expect(result.rowCounts.mpep_guidance).toBe(await count("mpep_sections"))
    expect(result.rowCounts.epo_guidance).toBe(await count("epo_sections"))
    expect(result.rowCounts.form_paragraph_details).toBe(await count("form_paragraphs"))
    expect(result.rowCounts.design_code_entries).toBe(await count("design_codes"))
    expect(result.rowCounts.guidance_nodes).toBe((await count("mpep_sections")) + (await count("epo_sections")))
    expect(result.rowCounts.guidance_edges).toBe(await count("guidance_edges"))
  })

  it("marks exactly the paragraphs without template text as truncated at source", async () => {
    const [r] = await g.sql(
      `SELECT count(*) FILTER (WHERE truncated_at_source <> (template IS NULL))::INTEGER AS wrong, count(*) FILTER (WHERE truncated_at_source)::INTEGER AS truncated FROM form_paragraph_details`
    )
    expect(r.wrong).toBe(0)
    expect(r.truncated).toBeGreaterThan(0)
  })

  it("gives MPEP nodes the degrees counted from the sections' cross-references", async () => {
    const rows = await g.sql(`SELECT section_id, cross_refs FROM mpep_sections`)
    const held = new Set(rows.map((r) => String(r.section_id)))
    // A reference to a section the corpus lacks counts for its nearest held ancestor.
    const resolve = (id: string): string | undefined => {
      let c: string | undefined = id
      while (c && !held.has(c)) c = /\)$/.test(c) ? c.replace(/\([^()]*\)$/, "") : c.includes(".") ? c.replace(/\.\d+$/, "") : undefined
      return c
    }
    const cited = new Map<string, Set<string>>()
    const citing = new Map<string, Set<string>>()
    for (const r of rows) {
      const source = String(r.section_id)
      for (const ref of (r.cross_refs as string[]) ?? []) {
        const target = resolve(ref)
        if (!target || target === source) continue
        cited.set(target, (cited.get(target) ?? new Set()).add(source))
        citing.set(source, (citing.get(source) ?? new Set()).add(target))
      }
    }
    const nodes = await g.sql(`SELECT section_id, in_degree, out_degree FROM guidance_nodes WHERE corpus = 'mpep'`)
    expect(nodes).toHaveLength(held.size)
    for (const n of nodes) {
      const id = String(n.section_id)
      expect([id, n.in_degree, n.out_degree]).toEqual([id, cited.get(id)?.size ?? 0, citing.get(id)?.size ?? 0])
    }
    const [e] = await g.sql(`SELECT sum(weight)::INTEGER AS w FROM guidance_edges WHERE source = 'mpep-707.07(d)'`)
    const [src] = await g.sql(`SELECT cross_refs FROM mpep_sections WHERE section_id = '707.07(d)'`)
    expect(e.w).toBe((src.cross_refs as string[]).filter((ref) => resolve(ref) && resolve(ref) !== "707.07(d)").length)
  })

  it("flags edges bidirectional exactly when the reverse edge exists, and hubs as the top percentile by degree", async () => {
    const [b] = await g.sql(`
      SELECT count(*) FILTER (WHERE e.bidirectional <> (r.source IS NOT NULL))::INTEGER AS wrong
      FROM guidance_edges e LEFT JOIN guidance_edges r ON r.source = e.target AND r.target = e.source`)
    expect(b.wrong).toBe(0)
    for (const corpus of ["mpep", "epo"]) {
      const nodes = await g.sql(`SELECT degree, is_hub FROM guidance_nodes WHERE corpus = $1 AND degree > 0 ORDER BY degree DESC`, [corpus])
      const hubs = nodes.filter((n) => n.is_hub)
      expect(hubs.length).toBeGreaterThanOrEqual(1)
      expect(hubs.length).toBeLessThanOrEqual(Math.ceil(nodes.length * 0.02) + 5)
      const minHub = Math.min(...hubs.map((n) => Number(n.degree)))
      for (const n of nodes) expect(n.is_hub).toBe(Number(n.degree) >= minHub)
    }
  })

  it("gives every EPO section with a held ancestor a parent that lists it among its children", async () => {
    const rows = await g.sql(`SELECT section_id, parent_section, child_sections FROM epo_guidance`)
    const byId = new Map(rows.map((r) => [String(r.section_id), r]))
    let withParent = 0
    for (const r of rows) {
      if (r.parent_section === null) continue
      withParent++
      expect(byId.get(String(r.parent_section))!.child_sections as string[]).toContain(r.section_id)
    }
    expect(withParent).toBeGreaterThan(1500)
  })
})
