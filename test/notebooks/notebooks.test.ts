/**
 * The analyst notebooks on the sample build: `notebooks/run-all.ts` runs every notebook against
 * the sample catalog (as `make notebooks` does), each writes its tables and charts, the charts
 * are well-formed SVG, the tables hold plausible numbers, and thin results say they are thin.
 */
import { parse as parseCsv } from "csv-parse/sync"
import { execFile } from "node:child_process"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { promisify } from "node:util"
import { SaxesParser } from "saxes"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { grid3 } from "../../notebooks/lib/nearest.ts"
import { barChart, heatMap, lineChart, scatterChart } from "../../notebooks/lib/svg.ts"
import type { Summary } from "../../notebooks/run-all.ts"
import { sampleArtifacts } from "../support/sample-artifacts.ts"

const versionDir = await sampleArtifacts()
let out: string
let summary: Summary
let stdout: string

type CsvRow = Record<string, string>
const csv = async (rel: string): Promise<CsvRow[]> => parseCsv(await fs.readFile(path.join(out, rel), "utf8"), { columns: true }) as CsvRow[]
const num = (v: string | undefined) => (v === undefined || v === "" ? null : Number(v))

/** Parses an SVG with a strict XML parser; returns the root element's name. */
const parseSvg = (text: string) => {
  const parser = new SaxesParser({ xmlns: true })
  let root: string | undefined
  const errors: string[] = []
  parser.on("opentag", (t) => {
    root ??= t.local
  })
  parser.on("error", (e) => errors.push(e.message))
  parser.write(text).close()
  if (errors.length) throw new Error(errors.join("; "))
  return root
}

beforeAll(async () => {
  out = await fs.mkdtemp(path.join(os.tmpdir(), "notebooks-"))
  const run = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "notebooks/run-all.ts", "--catalog", path.join(versionDir, "catalog.duckdb"), "--out", out],
    { cwd: path.resolve("."), maxBuffer: 16 * 1024 * 1024 }
  )
  stdout = run.stdout
  summary = JSON.parse(await fs.readFile(path.join(out, "summary.json"), "utf8")) as Summary
})

afterAll(async () => {
  if (out) await fs.rm(out, { recursive: true, force: true })
})

describe("make notebooks on the sample build", () => {
  it("runs all four notebooks without a failure and prints their findings", () => {
    expect(summary.failed).toEqual([])
    expect(summary.notebooks.map((n) => n.name).sort()).toEqual(["citation-flows", "cpc-routing-entropy", "examiner-allowance-by-art-unit", "patent-space-density"])
    for (const nb of summary.notebooks) {
      expect(nb.findings.length).toBeGreaterThan(0)
      expect(stdout).toContain(`== ${nb.name}`)
    }
  })

  it("writes every listed file, with at least one table and one SVG chart per notebook", async () => {
    for (const nb of summary.notebooks) {
      for (const f of nb.files) expect((await fs.stat(path.join(out, f))).size).toBeGreaterThan(0)
      expect(nb.files.some((f) => f.endsWith(".csv"))).toBe(true)
      expect(nb.files.some((f) => f.endsWith(".svg"))).toBe(true)
      expect(nb.files).toContain(`${nb.name}/README.md`)
    }
    await fs.access(path.join(out, "README.md"))
  })

  it("writes charts that are well-formed SVG documents", async () => {
    const svgs = summary.notebooks.flatMap((n) => n.files).filter((f) => f.endsWith(".svg"))
    expect(svgs.length).toBeGreaterThanOrEqual(6)
    for (const f of svgs) expect(parseSvg(await fs.readFile(path.join(out, f), "utf8")), f).toBe("svg")
  })

  it("allowance rates lie in [0, 1] inside their Wilson intervals and equal allowed ÷ disposed", async () => {
    const units = await csv("examiner-allowance-by-art-unit/allowance-by-art-unit.csv")
    expect(units.length).toBeGreaterThan(0)
    for (const u of units) {
      const [rate, low, high, k, n] = [num(u.allowance_rate)!, num(u.ci95_low)!, num(u.ci95_high)!, num(u.allowed)!, num(u.disposed)!]
      expect(rate).toBeGreaterThanOrEqual(0)
      expect(rate).toBeLessThanOrEqual(1)
      expect(low).toBeLessThanOrEqual(rate + 1e-9)
      expect(high).toBeGreaterThanOrEqual(rate - 1e-9)
      expect(k).toBeLessThanOrEqual(n)
      expect(rate).toBeCloseTo(k / n, 3)
      expect(["above", "below", "within noise"]).toContain(u.vs_corpus)
    }
    // Sorted by volume: the chart shows the art units with the most disposals.
    const volumes = units.map((u) => num(u.disposed)!)
    expect(volumes).toEqual([...volumes].sort((a, b) => b - a))
    for (const e of await csv("examiner-allowance-by-art-unit/examiners-within-art-unit.csv")) {
      expect(num(e.ci95_low)!).toBeLessThanOrEqual(num(e.allowance_rate)! + 1e-9)
      expect(num(e.ci95_high)!).toBeGreaterThanOrEqual(num(e.allowance_rate)! - 1e-9)
    }
  })

  it("routing entropies are non-negative, ordered as quartiles and bounded by log2 of the art units", async () => {
    for (const l of await csv("cpc-routing-entropy/entropy-by-level.csv")) {
      expect(num(l.observable)!).toBeLessThanOrEqual(num(l.symbols)!)
      if (l.entropy_median === "") continue
      expect(num(l.entropy_p25)!).toBeGreaterThanOrEqual(0)
      expect(num(l.entropy_p25)!).toBeLessThanOrEqual(num(l.entropy_median)! + 1e-9)
      expect(num(l.entropy_median)!).toBeLessThanOrEqual(num(l.entropy_p75)! + 1e-9)
    }
    const subclasses = await csv("cpc-routing-entropy/subclass-predictability.csv")
    for (const s of subclasses) {
      expect(s.subclass).toMatch(/^[A-HY]\d\d[A-Z]$/)
      expect(num(s.entropy_bits)!).toBeLessThanOrEqual(Math.log2(num(s.art_units)!) + 1e-3)
      expect(num(s.top_share_ci95_low)!).toBeLessThanOrEqual(num(s.top_share)! + 1e-9)
      expect(num(s.top_share_ci95_high)!).toBeGreaterThanOrEqual(num(s.top_share)! - 1e-9)
    }
    // The sample has few applications with both CPC and an art unit: the notebook must say so.
    if (subclasses.every((s) => s.thin === "true")) expect(summary.notebooks.find((n) => n.name === "cpc-routing-entropy")!.thin.length).toBeGreaterThan(0)
  })

  it("citation flow matrices add up to the placeable citations and the same-section shares are proportions", async () => {
    const coverage = await csv("citation-flows/coverage.csv")
    const placeable = coverage.reduce((a, r) => a + num(r.both_sections_known)!, 0)
    const matrix = await csv("citation-flows/flows-all.csv")
    expect(matrix.map((r) => r.citing_section)).toEqual(["A", "B", "C", "D", "E", "F", "G", "H", "Y"])
    let sum = 0
    for (const r of matrix) {
      const cells = Object.entries(r).filter(([k]) => k.startsWith("cited_")).map(([, v]) => num(v)!)
      expect(cells.reduce((a, b) => a + b, 0)).toBe(num(r.total))
      sum += num(r.total)!
      if (r.same_section_share !== "") expect(num(r.same_section_share)!).toBeGreaterThanOrEqual(0)
      if (r.same_section_share !== "") expect(num(r.same_section_share)!).toBeLessThanOrEqual(1)
    }
    expect(sum).toBe(placeable)
    for (const c of coverage) expect(num(c.both_sections_known)!).toBeLessThanOrEqual(num(c.cited_in_corpus)!)
    if (placeable < 200) expect(summary.notebooks.find((n) => n.name === "citation-flows")!.thin.length).toBeGreaterThan(0)
  })

  it("density rows cover the dated map points once each, with non-negative distances", async () => {
    const years = await csv("patent-space-density/density-by-year.csv")
    expect(years.length).toBeGreaterThan(0)
    const ys = years.map((y) => num(y.filing_year)!)
    expect(ys).toEqual([...ys].sort((a, b) => a - b))
    for (const y of years) {
      expect(num(y.points)!).toBeGreaterThan(0)
      expect(num(y.spread)!).toBeGreaterThanOrEqual(0)
      expect(num(y.fitted_share)!).toBeGreaterThanOrEqual(0)
      expect(num(y.fitted_share)!).toBeLessThanOrEqual(1)
      if (y.mean_nn_distance !== "") expect(num(y.mean_nn_distance)!).toBeGreaterThanOrEqual(0)
      expect(num(y.nn_measured)!).toBeLessThanOrEqual(num(y.points)!)
      expect(y.thin).toBe(String(num(y.points)! < 30))
    }
  })
})

describe("notebook helpers", () => {
  it("the 3D grid finds the same nearest neighbour as brute force", () => {
    let seed = 11
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647
    // Clustered in x and y, nearly flat in z: the shapes a UMAP frame takes.
    const n = 1500
    const xyz = new Float32Array(n * 3).map((_, i) => (i % 3 === 2 ? rnd() * 0.01 : rnd() ** 3 * 10))
    xyz.set(xyz.subarray(0, 3), 3) // an exact duplicate: its nearest neighbour is at distance 0
    const grid = grid3(xyz)
    for (let q = 0; q < n; q += 7) {
      let best = Infinity
      for (let p = 0; p < n; p++) if (p !== q) best = Math.min(best, Math.hypot(xyz[p * 3] - xyz[q * 3], xyz[p * 3 + 1] - xyz[q * 3 + 1], xyz[p * 3 + 2] - xyz[q * 3 + 2]))
      expect(grid.nearestOther(q)).toBeCloseTo(best, 5)
    }
    expect(grid.nearestOther(0)).toBe(0)
  })

  it("charts escape labels and stay well-formed with empty or degenerate data", () => {
    const odd = `A&B <"x"> 'y'`
    const charts = [
      barChart({ title: odd, xLabel: odd, yLabel: odd, bars: [{ label: odd, value: 0.5, low: 0.2, high: 0.9 }], yDomain: [0, 1], reference: { value: 0.4, label: odd } }),
      barChart({ title: "empty", xLabel: "x", yLabel: "y", bars: [] }),
      lineChart({ title: odd, xLabel: "x", yLabel: "y", series: [{ name: odd, points: [{ x: 2020, y: 1 }] }, { name: "b", points: [] }] }),
      scatterChart({ title: odd, xLabel: "x", yLabel: "y", points: [{ x: 1, y: 1, label: odd }], showLabels: true }),
      heatMap({ title: odd, rowLabel: odd, colLabel: odd, rows: [odd, "B"], cols: ["A", odd], values: [[0, 0], [0, 0]] })
    ]
    for (const svg of charts) expect(parseSvg(svg)).toBe("svg")
  })
})
