/**
 * # Density of the patent space over filing years
 *
 * Question: as filings accumulate year by year, do new applications land in crowded regions of
 * the 3D patent map or in open space, and does each year's cloud spread out or tighten?
 *
 * Method: `coordinates` (map stage: one 3D point per indexed application, frame scaled to
 * ±10) joined to `applications.filing_date`. Per filing year:
 *   - points: applications placed on the map;
 *   - spread: root-mean-square distance of the year's points from the year's centroid
 *     (independent of how many points the year has);
 *   - drift: distance of the year's centroid from the centroid of the whole map;
 *   - mean NN distance: for each application of the year, the distance to its nearest other
 *     application of ANY year (exact, through a 3D grid over the whole map), averaged. Small
 *     = the year's filings sit in dense regions. At most QUERIES_PER_YEAR applications per
 *     year are measured (a fixed hash order of app_num), against every point.
 *   - density index: the map-wide mean NN distance ÷ the year's (> 1: denser than average).
 *
 * Caveats: the map is UMAP fitted on a sample (`fitted = true`); the other points are placed
 * at a weighted mean of fitted neighbours, which pulls them inward and shortens NN distances
 * (the `fitted_share` column shows the mix per year); UMAP distances are only locally
 * meaningful, so compare years, not absolute values; years with few points (THIN_YEAR) give
 * noisy spreads and are left out of the chart but kept in the table.
 */
import { round, runIfMain, type Notebook } from "./lib/notebook.ts"
import { grid3 } from "./lib/nearest.ts"
import { barChart, lineChart } from "./lib/svg.ts"

const QUERIES_PER_YEAR = 2000
const THIN_YEAR = 30

interface YearRow extends Record<string, unknown> {
  filing_year: number
  points: number
  fitted_share: number
  cx: number
  cy: number
  cz: number
  spread: number
}

export const notebook: Notebook = {
  name: "patent-space-density",
  question: "Do each year's filings land in crowded or open regions of the 3D patent map, and does the yearly cloud spread or tighten?",
  tables: ["coordinates", "applications"],
  run: async ({ catalog, table, chart }) => {
    // Cell 1: every point of the map, with its filing year where known, in a fixed order.
    const points = await catalog.rows<{ x: number; y: number; z: number; filing_year: number | null }>(`
      SELECT c.x, c.y, c.z, year(a.filing_date)::INTEGER AS filing_year
      FROM coordinates c LEFT JOIN applications a USING (app_num)
      ORDER BY hash(c.app_num), c.app_num`)
    const all = new Float32Array(points.length * 3)
    points.forEach((p, i) => all.set([p.x, p.y, p.z], i * 3))

    // Cell 2: per-year counts, centroid and spread (root-mean-square radius about the centroid).
    const years = await catalog.rows<YearRow>(`
      SELECT year(a.filing_date)::INTEGER AS filing_year, count(*) AS points,
        avg(c.fitted::INTEGER) AS fitted_share,
        avg(c.x) AS cx, avg(c.y) AS cy, avg(c.z) AS cz,
        sqrt(var_pop(c.x) + var_pop(c.y) + var_pop(c.z)) AS spread
      FROM coordinates c JOIN applications a USING (app_num)
      WHERE a.filing_date IS NOT NULL GROUP BY 1 ORDER BY 1`)
    const [centre] = await catalog.rows<{ cx: number; cy: number; cz: number; spread: number }>(`
      SELECT avg(x) AS cx, avg(y) AS cy, avg(z) AS cz, sqrt(var_pop(x) + var_pop(y) + var_pop(z)) AS spread FROM coordinates`)

    // Cell 3: nearest-neighbour distances against the whole map (hash order = a fixed sample).
    const rowsByYear = new Map<number, number[]>()
    points.forEach((p, i) => {
      if (p.filing_year === null) return
      const list = rowsByYear.get(p.filing_year) ?? []
      if (list.length < QUERIES_PER_YEAR) list.push(i)
      rowsByYear.set(p.filing_year, list)
    })
    const globalSample = points.map((_, i) => i).filter((i) => i % Math.max(1, Math.ceil(points.length / 20_000)) === 0)
    const grid = grid3(all)
    const meanNearestNeighbour = (rows: ReadonlyArray<number>) => {
      const ds = rows.map(grid.nearestOther).filter(Number.isFinite)
      return ds.length ? ds.reduce((a, b) => a + b, 0) / ds.length : null
    }
    const globalNn = meanNearestNeighbour(globalSample)

    const rows = years.map((y) => {
      const nn = meanNearestNeighbour(rowsByYear.get(y.filing_year) ?? [])
      return {
        filing_year: y.filing_year,
        points: y.points,
        fitted_share: round(y.fitted_share),
        spread: round(y.spread),
        drift: round(Math.hypot(y.cx - centre.cx, y.cy - centre.cy, y.cz - centre.cz)),
        mean_nn_distance: round(nn),
        nn_measured: rowsByYear.get(y.filing_year)?.length ?? 0,
        density_index: nn !== null && nn > 0 && globalNn !== null ? round(globalNn / nn, 3) : null,
        thin: y.points < THIN_YEAR
      }
    })

    await table("density-by-year", rows, [
      "# Density of the patent map by filing year",
      "",
      `${points.length} points on the map; map-wide spread ${round(centre?.spread, 3)}, mean nearest-neighbour distance ${round(globalNn, 4)}.`,
      `\`mean_nn_distance\`: to the nearest application of any year, over up to ${QUERIES_PER_YEAR} applications per year (\`nn_measured\`). \`density_index\` = map-wide ÷ year (> 1: denser than average). \`thin\`: fewer than ${THIN_YEAR} points.`
    ])

    const charted = rows.filter((r) => !r.thin)
    const year = (v: number) => String(Math.round(v))
    await chart(
      "density-by-year",
      lineChart({
        title: "Mean nearest-neighbour distance by filing year",
        subtitle: `Lower = the year's filings sit in denser regions of the map. Years with ≥ ${THIN_YEAR} points; map-wide mean ${round(globalNn, 4)}.`,
        xLabel: "filing year",
        yLabel: "mean NN distance (map units)",
        xTick: year,
        series: [{ name: "mean NN distance", points: charted.map((r) => ({ x: r.filing_year, y: r.mean_nn_distance ?? NaN })) }]
      })
    )
    await chart(
      "spread-by-year",
      lineChart({
        title: "Spread and centroid drift of each filing year's cloud",
        subtitle: `Years with ≥ ${THIN_YEAR} points. Map frame ±10; map-wide spread ${round(centre?.spread, 3)}.`,
        xLabel: "filing year",
        yLabel: "distance (map units)",
        xTick: year,
        series: [
          { name: "spread (RMS radius)", points: charted.map((r) => ({ x: r.filing_year, y: r.spread ?? NaN })) },
          { name: "centroid drift", points: charted.map((r) => ({ x: r.filing_year, y: r.drift ?? NaN })) }
        ]
      })
    )
    await chart(
      "points-by-year",
      barChart({
        title: "Applications on the map by filing year",
        subtitle: `Faded: fewer than ${THIN_YEAR} points (left out of the density chart).`,
        xLabel: "filing year",
        yLabel: "applications",
        bars: rows.map((r) => ({ label: String(r.filing_year), value: r.points, muted: r.thin }))
      })
    )

    const densest = [...charted].sort((a, b) => (b.density_index ?? 0) - (a.density_index ?? 0))[0]
    const sparsest = [...charted].sort((a, b) => (a.density_index ?? Infinity) - (b.density_index ?? Infinity))[0]
    const undated = points.filter((p) => p.filing_year === null).length
    const findings = [
      `${points.length} applications on the map over ${rows.length} filing years (${undated} without a filing date); ${charted.length} years have ≥ ${THIN_YEAR} points.`,
      densest ? `Densest year: ${densest.filing_year} (density index ${densest.density_index}, mean NN ${densest.mean_nn_distance}, n=${densest.points}).` : "No year has enough points to compare.",
      sparsest && sparsest !== densest ? `Sparsest year: ${sparsest.filing_year} (density index ${sparsest.density_index}, n=${sparsest.points}).` : "",
      charted.length >= 2
        ? `Spread went from ${charted[0].spread} (${charted[0].filing_year}) to ${charted[charted.length - 1].spread} (${charted[charted.length - 1].filing_year}).`
        : ""
    ].filter(Boolean)
    const thin: string[] = []
    const thinYears = rows.filter((r) => r.thin)
    if (thinYears.length) thin.push(`${thinYears.length} filing year(s) have fewer than ${THIN_YEAR} points (${thinYears.map((r) => r.filing_year).join(", ")}): kept in the table, left out of the chart.`)
    if (charted.length < 3) thin.push(`Only ${charted.length} year(s) have ≥ ${THIN_YEAR} points: no trend can be read.`)
    return { findings, thin }
  }
}

await runIfMain(import.meta.url, notebook)
