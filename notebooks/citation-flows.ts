/**
 * # Citation flows between CPC sections
 *
 * Question: when an application cites another application of the corpus, how often does the
 * citation stay within its own CPC section, which sections draw on which, and do examiner
 * citations flow differently from applicant citations?
 *
 * Method: each application's section is the section of its main CPC symbol
 * (`cpc_assignments.is_main`; when a source marks several main symbols the commonest section
 * wins, ties to the lower letter). A flow is a `citations` row whose citing application and
 * cited application (`cited_app`, set only when the cited document is itself in the corpus)
 * both have a main section. Who cited comes from `examiner_cited` and the published category:
 * examiner, applicant, other, or unknown (the source does not say). Same-section share is
 * compared with what independence of the margins would give (Σ row share × column share).
 *
 * Caveats: only citations of documents inside the corpus can be placed, so the flows describe
 * the corpus' internal citation graph, shaped by how the corpus was assembled; foreign and
 * non-patent citations are out of reach; in the bundled sample few citations qualify (the
 * coverage table says how many) and almost none is marked as examiner-cited.
 */
import { pct, round, runIfMain, type Notebook, type Row } from "./lib/notebook.ts"
import { heatMap } from "./lib/svg.ts"

const SECTIONS = ["A", "B", "C", "D", "E", "F", "G", "H", "Y"]
const CITERS = ["examiner", "applicant", "other", "unknown"] as const
/** Below this many placed citations a matrix is called thin. */
const MIN_FLOWS = 200

// Shared SQL: the main section of each application, and each citation's citer.
const mainSectionCte = `main_section AS (
    SELECT app_num, arg_max(section, n * 100 - ascii(section)) AS section FROM (
      SELECT app_num, coalesce(section, substr(symbol, 1, 1)) AS section, count(*) AS n
      FROM cpc_assignments WHERE is_main GROUP BY ALL)
    GROUP BY app_num)`
const citerSql = `CASE WHEN examiner_cited THEN 'examiner'
    WHEN lower(category) LIKE '%applicant%' THEN 'applicant'
    WHEN lower(category) LIKE '%other%' THEN 'other'
    ELSE 'unknown' END`

interface Flow extends Record<string, unknown> {
  citer: string
  citing_section: string
  cited_section: string
  n: number
}

const matrixOf = (flows: ReadonlyArray<Flow>) => {
  const m = SECTIONS.map(() => SECTIONS.map(() => 0))
  for (const f of flows) {
    const i = SECTIONS.indexOf(f.citing_section)
    const j = SECTIONS.indexOf(f.cited_section)
    if (i >= 0 && j >= 0) m[i][j] += f.n
  }
  return m
}

/** Observed same-section share and the share independence of the margins would give. */
const diagonal = (m: number[][]) => {
  const total = m.flat().reduce((a, b) => a + b, 0)
  if (total === 0) return { total, observed: null, expected: null }
  const rows = m.map((r) => r.reduce((a, b) => a + b, 0))
  const cols = SECTIONS.map((_, j) => m.reduce((a, r) => a + r[j], 0))
  const observed = m.reduce((a, r, i) => a + r[i], 0) / total
  const expected = rows.reduce((a, r, i) => a + (r / total) * (cols[i] / total), 0)
  return { total, observed, expected }
}

const matrixRows = (m: number[][]): Row[] =>
  SECTIONS.map((s, i) => ({
    citing_section: s,
    ...Object.fromEntries(SECTIONS.map((t, j) => [`cited_${t}`, m[i][j]])),
    total: m[i].reduce((a, b) => a + b, 0),
    same_section_share: m[i].reduce((a, b) => a + b, 0) > 0 ? round(m[i][i] / m[i].reduce((a, b) => a + b, 0)) : null
  }))

export const notebook: Notebook = {
  name: "citation-flows",
  question: "How do citations flow between CPC sections inside the corpus, and do examiner and applicant citations differ?",
  tables: ["citations", "cpc_assignments"],
  run: async ({ catalog, table, chart }) => {
    // Cell 1: coverage: how many citations can be placed at all, by citer.
    const coverage = await catalog.rows<{ citer: string; citations: number; cited_in_corpus: number; citing_section_known: number; both_sections_known: number }>(`
      WITH ${mainSectionCte}
      SELECT ${citerSql} AS citer, count(*) AS citations, count(c.cited_app) AS cited_in_corpus,
        count(m1.section) AS citing_section_known, count(m1.section) FILTER (WHERE m2.section IS NOT NULL) AS both_sections_known
      FROM citations c
      LEFT JOIN main_section m1 ON m1.app_num = c.citing_app
      LEFT JOIN main_section m2 ON m2.app_num = c.cited_app
      GROUP BY citer ORDER BY citations DESC`)

    // Cell 2: the flows (citing main section → cited main section), by citer.
    const flows = await catalog.rows<Flow>(`
      WITH ${mainSectionCte}
      SELECT ${citerSql} AS citer, m1.section AS citing_section, m2.section AS cited_section, count(*) AS n
      FROM citations c
      JOIN main_section m1 ON m1.app_num = c.citing_app
      JOIN main_section m2 ON m2.app_num = c.cited_app
      GROUP BY ALL ORDER BY citer, citing_section, cited_section`)

    // Cell 3: one matrix for all citers and one per citer that has any flow.
    const groups = [{ name: "all", flows }, ...CITERS.map((c) => ({ name: c, flows: flows.filter((f) => f.citer === c) }))]
    const summary: Row[] = []
    const thin: string[] = []
    for (const g of groups) {
      const m = matrixOf(g.flows)
      const d = diagonal(m)
      summary.push({
        citer: g.name,
        placed_citations: d.total,
        same_section_share: round(d.observed),
        same_section_expected_if_independent: round(d.expected),
        lift: d.observed !== null && d.expected ? round(d.observed / d.expected, 2) : null
      })
      if (d.total === 0 && g.name !== "all") continue
      const note = d.total < MIN_FLOWS ? ` Thin: only ${d.total} placed citations.` : ""
      await table(`flows-${g.name}`, matrixRows(m), [
        `# Citation flows, ${g.name === "all" ? "all citers" : `cited by ${g.name}`}: citing main section (rows) → cited main section (columns)`,
        "",
        `${d.total} citations with both main sections known. Same-section share ${pct(d.observed)} (independence would give ${pct(d.expected)}).${note}`
      ])
      await chart(
        `flows-${g.name}`,
        heatMap({
          title: `Citation flows between CPC sections (${g.name === "all" ? "all citers" : `${g.name} citations`})`,
          subtitle: `${d.total} in-corpus citations with both main sections known; same-section ${pct(d.observed)} vs ${pct(d.expected)} if independent; shade = share of the row.${note}`,
          rowLabel: "citing section",
          colLabel: "cited section",
          rows: SECTIONS,
          cols: SECTIONS,
          values: m,
          shadeBy: "row-share"
        })
      )
      if (d.total < MIN_FLOWS) thin.push(`${g.name === "all" ? "All citers" : `Citations by ${g.name}`}: only ${d.total} citations have both main sections known (fewer than ${MIN_FLOWS}).`)
    }
    for (const c of CITERS) if (!flows.some((f) => f.citer === c) && coverage.some((r) => r.citer === c)) thin.push(`No ${c} citation can be placed (its cited documents are outside the corpus or lack a main CPC symbol): no ${c} matrix is written.`)

    await table("coverage", coverage, ["# Which citations can be placed", "", "`both_sections_known` rows are the flows; everything else lacks the cited document in the corpus or a main CPC symbol."])
    await table("same-section-summary", summary, ["# Same-section citation share by citer", "", "`lift` = observed ÷ expected under independence of the row and column margins."])

    const total = coverage.reduce((a, r) => a + r.citations, 0)
    const placed = coverage.reduce((a, r) => a + r.both_sections_known, 0)
    const all = summary[0]
    const findings = [
      `${placed} of ${total} citations (${pct(total ? placed / total : null, 2)}) connect two corpus applications with known main sections.`,
      `Same-section share ${pct(all.same_section_share as number | null)} against ${pct(all.same_section_expected_if_independent as number | null)} under independence (lift ${all.lift ?? "n/a"}).`,
      ...summary.slice(1).filter((s) => (s.placed_citations as number) > 0).map((s) => `Cited by ${s.citer}: ${s.placed_citations} placed, same-section ${pct(s.same_section_share as number | null)}.`)
    ]
    return { findings, thin }
  }
}

await runIfMain(import.meta.url, notebook)
