/**
 * # Allowance rates by art unit, with 95% Wilson intervals
 *
 * Question: how often does each group art unit allow the applications it disposes of, and
 * which art units differ from the corpus as a whole by more than their sampling noise?
 *
 * Method: the rates are READ from `art_unit_profiles.statistics` (the JSON the prosecution
 * stage serves through the API, section `allowance.allowance_rate`), not recomputed from the raw
 * tables, so this notebook shows exactly what the API reports. Definition (quoted from the data
 * in the output): allowed ÷ (allowed + abandoned) over applications with a PEDS history; pending
 * applications are outside the denominator. A check cell recomputes every Wilson interval from
 * the numerator and denominator with the pipeline's own `wilsonInterval` and counts mismatches.
 * The pooled corpus rate is Σ allowed ÷ Σ disposed; an art unit is called "above" or "below"
 * when its whole interval lies on one side of the pooled rate.
 *
 * Caveats: art units with few disposals have intervals spanning most of [0, 1] (the volume
 * tier says so: insufficient < 5, low < 20, moderate < 100, high ≥ 100); the rate reflects the
 * corpus' selection of applications (the sample is a seed set, not a random draw of the USPTO);
 * an application counts under the art unit the corpus records for it, not every unit it visited.
 * "Above"/"below" is an uncorrected per-unit comparison: with hundreds of art units a few will
 * cross the pooled rate by chance. The examiner table (examiner_statistics.portfolio, same
 * definition) compares each examiner with the art unit they are most often seen in, a part
 * against a whole that contains it.
 */
import { wilsonInterval } from "../pipeline/prosecution/statistics.ts"
import { pct, runIfMain, type Notebook } from "./lib/notebook.ts"
import { barChart, scatterChart } from "./lib/svg.ts"

/** Art units drawn in the chart (the ones with the most disposals). */
const CHART_UNITS = 30

interface UnitRate extends Record<string, unknown> {
  art_unit: string
  technology_center: string | null
  derived_title: string | null
  examiners: number
  allowed: number
  disposed: number
  pending: number | null
  allowance_rate: number
  ci95_low: number
  ci95_high: number
  tier: string
}

export const notebook: Notebook = {
  name: "examiner-allowance-by-art-unit",
  question: "How often does each art unit allow what it disposes of, and which art units differ from the corpus beyond sampling noise?",
  tables: ["art_unit_profiles", "examiner_statistics"],
  run: async ({ catalog, table, chart }) => {
    // Cell 1: one row per art unit with at least one disposal, straight from the served JSON.
    const units = await catalog.rows<UnitRate>(`
      WITH r AS (
        SELECT art_unit, technology_center, title AS derived_title, examiner_count AS examiners,
          statistics -> '$.allowance' AS a
        FROM art_unit_profiles WHERE statistics IS NOT NULL)
      SELECT art_unit, technology_center, derived_title, examiners,
        (a ->> '$.allowance_rate.numerator')::INTEGER AS allowed,
        (a ->> '$.allowance_rate.denominator')::INTEGER AS disposed,
        (a ->> '$.pending')::INTEGER AS pending,
        (a ->> '$.allowance_rate.value')::DOUBLE AS allowance_rate,
        (a ->> '$.allowance_rate.ci95.low')::DOUBLE AS ci95_low,
        (a ->> '$.allowance_rate.ci95.high')::DOUBLE AS ci95_high,
        a ->> '$.allowance_rate.tier' AS tier
      FROM r WHERE (a ->> '$.allowance_rate.denominator')::INTEGER > 0
      ORDER BY disposed DESC, art_unit`)

    // Cell 2: the definition as the data states it (so the table never drifts from the API).
    const [def] = await catalog.rows<{ definition: string | null; label: string | null }>(`
      SELECT any_value(statistics ->> '$.allowance.definitions.allowance_rate') AS definition,
        any_value(statistics ->> '$.allowance.allowance_rate.denominator_label') AS label
      FROM art_unit_profiles WHERE statistics IS NOT NULL`)

    // Cell 3: check the stored intervals against the pipeline's Wilson function.
    const mismatches = units.filter((u) => {
      const ci = wilsonInterval(u.allowed, u.disposed)
      return !ci || Math.abs(ci.low - u.ci95_low) > 1e-3 || Math.abs(ci.high - u.ci95_high) > 1e-3
    })

    // Cell 4: pooled corpus rate and each unit's position relative to it.
    const allowed = units.reduce((s, u) => s + u.allowed, 0)
    const disposed = units.reduce((s, u) => s + u.disposed, 0)
    const pooled = disposed > 0 ? allowed / disposed : null
    const pooledCi = wilsonInterval(allowed, disposed)
    const rows = units.map((u) => ({
      ...u,
      vs_corpus: pooled === null ? "n/a" : u.ci95_low > pooled ? "above" : u.ci95_high < pooled ? "below" : "within noise"
    }))
    const thinUnits = units.filter((u) => u.disposed < 20).length

    const preamble = [
      "# Allowance rate by art unit (95% Wilson intervals)",
      "",
      `Source: \`art_unit_profiles.statistics\` → \`allowance.allowance_rate\` (read, not recomputed). Definition: ${def?.definition ?? "allowed ÷ (allowed + abandoned)"}; denominator: ${def?.label ?? "disposed applications"}.`,
      `Pooled corpus rate: ${pct(pooled)} (${allowed}/${disposed}, 95% CI ${pct(pooledCi?.low)}–${pct(pooledCi?.high)}). \`vs_corpus\` compares each unit's interval with it.`,
      `${thinUnits} of ${units.length} art units have fewer than 20 disposals (tier insufficient/low): read their rates through the interval, not the point.`
    ]
    await table("allowance-by-art-unit", rows, preamble)

    const charted = units.slice(0, CHART_UNITS)
    await chart(
      "allowance-by-art-unit",
      barChart({
        title: `Allowance rate by art unit (the ${charted.length} with most disposals)`,
        subtitle: `Bars: allowed ÷ disposed; whiskers: 95% Wilson interval; faded: < 20 disposals. Pooled corpus rate ${pct(pooled)}.`,
        xLabel: "art unit",
        yLabel: "allowance rate",
        yDomain: [0, 1],
        reference: pooled === null ? undefined : { value: pooled, label: `corpus ${pct(pooled)}` },
        bars: charted.map((u) => ({ label: `${u.art_unit} (n=${u.disposed})`, value: u.allowance_rate, low: u.ci95_low, high: u.ci95_high, muted: u.disposed < 20 }))
      })
    )

    // Cell 5: examiners inside their art unit (examiner_statistics.portfolio, same definition).
    // The unit is the one the examiner is most often seen in; an examiner's applications are
    // part of that unit's rate, so the comparison is of a part with its whole.
    const examiners = await catalog.rows<{ examiner_id: string; full_name: string; art_unit: string | null; allowed: number; disposed: number; allowance_rate: number; ci95_low: number; ci95_high: number; tier: string }>(`
      SELECT examiner_id, full_name, art_unit,
        (portfolio ->> '$.allowance_rate.numerator')::INTEGER AS allowed,
        (portfolio ->> '$.allowance_rate.denominator')::INTEGER AS disposed,
        (portfolio ->> '$.allowance_rate.value')::DOUBLE AS allowance_rate,
        (portfolio ->> '$.allowance_rate.ci95.low')::DOUBLE AS ci95_low,
        (portfolio ->> '$.allowance_rate.ci95.high')::DOUBLE AS ci95_high,
        portfolio ->> '$.allowance_rate.tier' AS tier
      FROM examiner_statistics WHERE (portfolio ->> '$.allowance_rate.denominator')::INTEGER > 0
      ORDER BY art_unit NULLS LAST, disposed DESC, examiner_id`)
    const unitRate = new Map(units.map((u) => [u.art_unit, u.allowance_rate]))
    const examinerRows = examiners.map((e) => {
      const ref = e.art_unit === null ? undefined : unitRate.get(e.art_unit)
      return { ...e, art_unit_rate: ref ?? null, vs_art_unit: ref === undefined ? "n/a" : e.ci95_low > ref ? "above" : e.ci95_high < ref ? "below" : "within noise" }
    })
    await table("examiners-within-art-unit", examinerRows, [
      "# Examiner allowance rates against their art unit",
      "",
      "Source: `examiner_statistics.portfolio` → `allowance_rate` (same definition). `art_unit` is the unit the examiner is most often seen in; `vs_art_unit` compares the examiner's 95% interval with that unit's rate, of which the examiner's own applications are a part.",
      `${examiners.filter((e) => e.disposed >= 20).length} of ${examiners.length} examiners have at least 20 disposals.`
    ])
    await chart(
      "examiner-funnel",
      scatterChart({
        title: "Examiner allowance rate against volume",
        subtitle: `Each point an examiner with ≥ 1 disposal; rates of small volumes scatter widely by chance. Pooled corpus rate ${pct(pooled)}.`,
        xLabel: "disposed applications",
        yLabel: "allowance rate",
        yDomain: [0, 1],
        points: examiners.map((e) => ({ x: e.disposed, y: e.allowance_rate, label: `${e.full_name} (${e.art_unit ?? "?"}): ${e.allowed}/${e.disposed}`, group: e.disposed < 20 ? 1 : 0 }))
      })
    )
    const examinersOff = examinerRows.filter((e) => e.vs_art_unit === "above" || e.vs_art_unit === "below").length

    const above = rows.filter((r) => r.vs_corpus === "above").map((r) => r.art_unit)
    const below = rows.filter((r) => r.vs_corpus === "below").map((r) => r.art_unit)
    const findings = [
      `${units.length} art units with at least one disposal; pooled allowance rate ${pct(pooled)} (${allowed}/${disposed}, 95% CI ${pct(pooledCi?.low)}–${pct(pooledCi?.high)}).`,
      `Above the corpus beyond noise: ${above.length ? above.slice(0, 10).join(", ") + (above.length > 10 ? ` … (${above.length})` : "") : "none"}; below: ${below.length ? below.slice(0, 10).join(", ") + (below.length > 10 ? ` … (${below.length})` : "") : "none"}.`,
      units[0] ? `Largest: art unit ${units[0].art_unit}, ${pct(units[0].allowance_rate)} of ${units[0].disposed} (95% CI ${pct(units[0].ci95_low)}–${pct(units[0].ci95_high)}).` : "No art unit has a disposal.",
      `${examiners.length} examiners with a disposal; ${examinersOff} differ from their art unit's rate beyond their own interval.`,
      `Wilson check: ${mismatches.length} stored interval(s) differ from a recomputation by more than 0.001.`
    ]
    const thin: string[] = []
    if (units.length === 0) thin.push("No art unit has a disposed application with a PEDS history: nothing to estimate.")
    else if (thinUnits / units.length > 0.5) thin.push(`${thinUnits} of ${units.length} art units (${pct(thinUnits / units.length, 0)}) have fewer than 20 disposals: most per-unit rates are too uncertain to rank.`)
    if (mismatches.length) thin.push(`Stored intervals disagree with the recomputation for: ${mismatches.map((m) => m.art_unit).join(", ")}.`)
    return { findings, thin }
  }
}

await runIfMain(import.meta.url, notebook)
