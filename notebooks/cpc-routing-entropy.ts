/**
 * # CPC routing entropy: how well does a CPC symbol predict the art unit?
 *
 * Question: at each level of the CPC hierarchy (section → class → subclass → main group →
 * subgroups), how concentrated is the art-unit distribution of the applications classified
 * there, and which subclasses route most and least predictably?
 *
 * Method: reads `cpc_routing` (prosecution stage; one row per CPC symbol at every level, with
 * the Shannon entropy in bits of its art-unit distribution and the share of its top art unit).
 * Per level: the entropy quartiles over symbols seen on at least two applications (a symbol
 * seen once has entropy 0 by construction, which says nothing). Subclasses are ranked by the
 * 95% Wilson interval of their top art unit's share: most predictive = highest lower bound,
 * least predictive = lowest upper bound, so a subclass needs volume to rank at either end.
 * The Miller–Madow column adds (K − 1) / (2N ln 2) bits, the first-order correction for the
 * downward bias of plug-in entropy on N observations over K seen art units.
 *
 * Caveats: only applications carrying both CPC symbols and an art unit feed the routing, and
 * in the bundled sample those are few (the notebook prints how many); entropy is not comparable
 * across symbols of very different volume (it tends to grow with N as rarer art units appear);
 * an application counts under every symbol it carries, inventive or additional.
 */
import { shortCpcTitle } from "../pipeline/prosecution/art-units.ts"
import { wilsonInterval } from "../pipeline/prosecution/statistics.ts"
import { pct, round, runIfMain, type Notebook } from "./lib/notebook.ts"
import { barChart, scatterChart } from "./lib/svg.ts"

/** Symbols below this many applications are reported but called thin. */
const MIN_SUPPORT = 20
const TOP = 10

const levelName = (level: number) =>
  level === 1 ? "section" : level === 2 ? "class" : level === 3 ? "subclass" : level === 4 ? "main group" : `subgroup (depth ${level - 4})`

interface LevelRow extends Record<string, unknown> {
  level: number
  symbols: number
  observable: number
  supported: number
  entropy_p25: number | null
  entropy_median: number | null
  entropy_p75: number | null
  entropy_mean: number | null
  top_share_mean: number | null
}

interface SubclassRow extends Record<string, unknown> {
  subclass: string
  title: string | null
  applications: number
  art_units: number
  top_art_unit: string
  top_share: number
  entropy_bits: number
  entropy_miller_madow: number
  normalised_entropy: number | null
}

export const notebook: Notebook = {
  name: "cpc-routing-entropy",
  question: "How well does a CPC symbol predict the examining art unit, by level, and which subclasses route most and least predictably?",
  tables: ["applications", "cpc_assignments", "cpc_routing", "cpc_scheme"],
  run: async ({ catalog, table, chart }) => {
    // Cell 1: the routing base: applications that carry both a CPC symbol and an art unit.
    const [base] = await catalog.rows<{ applications: number; with_art_unit: number; with_cpc: number; with_both: number }>(`
      SELECT count(*) AS applications, count(art_unit) AS with_art_unit,
        count(*) FILTER (WHERE app_num IN (SELECT app_num FROM cpc_assignments)) AS with_cpc,
        count(*) FILTER (WHERE art_unit IS NOT NULL AND app_num IN (SELECT app_num FROM cpc_assignments)) AS with_both
      FROM applications`)

    // Cell 2: entropy distribution per CPC level (observable = seen on ≥ 2 applications).
    const levels = await catalog.rows<LevelRow>(`
      SELECT level, count(*) AS symbols,
        count(*) FILTER (WHERE total_count >= 2) AS observable,
        count(*) FILTER (WHERE total_count >= ${MIN_SUPPORT}) AS supported,
        quantile_cont(entropy, 0.25) FILTER (WHERE total_count >= 2) AS entropy_p25,
        median(entropy) FILTER (WHERE total_count >= 2) AS entropy_median,
        quantile_cont(entropy, 0.75) FILTER (WHERE total_count >= 2) AS entropy_p75,
        avg(entropy) FILTER (WHERE total_count >= 2) AS entropy_mean,
        avg(top_art_unit_probability) FILTER (WHERE total_count >= 2) AS top_share_mean
      FROM cpc_routing GROUP BY level ORDER BY level`)

    // Cell 3: every subclass seen on ≥ 2 applications, with its scheme title.
    const subclasses = await catalog.rows<SubclassRow>(`
      SELECT r.symbol AS subclass, s.title, r.total_count AS applications, r.unique_art_units AS art_units,
        r.top_art_unit, r.top_art_unit_probability AS top_share, r.entropy AS entropy_bits,
        r.entropy + (r.unique_art_units - 1) / (2 * r.total_count * ln(2)) AS entropy_miller_madow,
        CASE WHEN r.unique_art_units > 1 THEN r.entropy / log2(r.unique_art_units) END AS normalised_entropy
      FROM cpc_routing r LEFT JOIN cpc_scheme s ON s.symbol = r.symbol
      WHERE r.level = 3 AND r.total_count >= 2
      ORDER BY r.symbol`)

    // Cell 4: rank by the Wilson interval of the top art unit's share.
    const ranked = subclasses.map((s) => {
      const ci = wilsonInterval(Math.round(s.top_share * s.applications), s.applications)
      return { ...s, top_share_low: ci?.low ?? 0, top_share_high: ci?.high ?? 1, thin: s.applications < MIN_SUPPORT }
    })
    const most = [...ranked].sort((a, b) => b.top_share_low - a.top_share_low || b.applications - a.applications).slice(0, TOP)
    const least = [...ranked].sort((a, b) => a.top_share_high - b.top_share_high || b.applications - a.applications).slice(0, TOP)
    const shape = (rows: typeof ranked, rank: string) =>
      rows.map((r, i) => ({
        rank: `${rank} ${i + 1}`,
        subclass: r.subclass,
        title: r.title ? shortCpcTitle(r.title) : null,
        applications: r.applications,
        art_units: r.art_units,
        top_art_unit: r.top_art_unit,
        top_share: round(r.top_share),
        top_share_ci95_low: r.top_share_low,
        top_share_ci95_high: r.top_share_high,
        entropy_bits: round(r.entropy_bits),
        entropy_miller_madow: round(r.entropy_miller_madow),
        normalised_entropy: round(r.normalised_entropy),
        thin: r.thin
      }))

    const baseLine = `Routing base: ${base.with_both} of ${base.applications} applications carry both CPC symbols and an art unit (${base.with_cpc} have CPC, ${base.with_art_unit} an art unit).`
    await table(
      "entropy-by-level",
      levels.map((l) => ({ ...l, level_name: levelName(l.level) })),
      ["# Routing entropy by CPC level (bits)", "", baseLine, `Quartiles over symbols seen on ≥ 2 applications (\`observable\`); \`supported\` counts symbols with ≥ ${MIN_SUPPORT}.`]
    )
    await table("subclass-predictability", [...shape(most, "most"), ...shape(least, "least")], [
      "# Most and least predictive subclasses",
      "",
      baseLine,
      `Ranked by the 95% Wilson interval of the top art unit's share (most: highest lower bound; least: lowest upper bound). \`thin\`: fewer than ${MIN_SUPPORT} applications.`
    ])

    const charted = levels.filter((l) => l.observable > 0)
    await chart(
      "entropy-by-level",
      barChart({
        title: "Art-unit routing entropy by CPC level",
        subtitle: "Bar: median entropy (bits) over symbols on ≥ 2 applications; whiskers: interquartile range. 0 = one art unit takes all.",
        xLabel: "CPC level",
        yLabel: "entropy (bits)",
        bars: charted.map((l) => ({ label: `${levelName(l.level)} (n=${l.observable})`, value: l.entropy_median ?? 0, low: l.entropy_p25, high: l.entropy_p75, muted: l.observable < 10 }))
      })
    )
    await chart(
      "subclass-entropy-vs-volume",
      scatterChart({
        title: "Subclasses: routing entropy against volume",
        subtitle: "Each point a CPC subclass seen on ≥ 2 applications with an art unit.",
        xLabel: "applications (with an art unit)",
        yLabel: "entropy (bits)",
        points: ranked.map((r) => ({ x: r.applications, y: r.entropy_bits, label: r.subclass, group: r.thin ? 1 : 0 })),
        showLabels: ranked.length <= 40
      })
    )

    const findings = [
      baseLine,
      ...charted.slice(0, 4).map((l) => `${levelName(l.level)}: median entropy ${round(l.entropy_median, 2)} bits over ${l.observable} observable symbols (mean top-unit share ${pct(l.top_share_mean)}).`),
      most[0] ? `Most predictive subclass: ${most[0].subclass} (${pct(most[0].top_share)} to ${most[0].top_art_unit}, n=${most[0].applications}).` : "No subclass is seen on two applications with an art unit.",
      least[0] ? `Least predictive subclass: ${least[0].subclass} (top unit ${pct(least[0].top_share)}, ${least[0].art_units} art units, n=${least[0].applications}).` : ""
    ].filter(Boolean)
    const thin: string[] = []
    const supportedSubclasses = ranked.filter((r) => !r.thin).length
    if (supportedSubclasses < TOP)
      thin.push(`${supportedSubclasses === 0 ? "No subclass has" : `Only ${supportedSubclasses} subclass(es) have`} ≥ ${MIN_SUPPORT} applications with an art unit (the routing base is ${base.with_both} applications): the rankings are illustrative, not conclusions.`)
    const sparse = charted.filter((l) => l.observable < 10)
    if (sparse.length) thin.push(`Fewer than 10 symbols seen on ≥ 2 applications at: ${sparse.map((l) => `${levelName(l.level)} (${l.observable})`).join(", ")}.`)
    return { findings, thin }
  }
}

await runIfMain(import.meta.url, notebook)
