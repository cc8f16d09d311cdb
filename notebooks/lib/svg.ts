/**
 * A tiny SVG chart kit for the notebooks: bar (with optional interval whiskers), line, scatter
 * and heat map. Self-contained SVG 1.1 strings with no scripts and no external fonts, so a chart
 * opens in any browser or image viewer and diffs readably in review. Deliberately plain: the
 * notebooks' tables carry the numbers, the charts only the shape.
 */

const W = 860
const H = 460
const M = { top: 48, right: 24, bottom: 96, left: 72 }
const PALETTE = ["#3b6ea5", "#d0743c", "#5a9e6f", "#9b5fa8", "#c2a83e", "#6f7f8f"]

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")
const fmt = (v: number) => (Math.abs(v) >= 1000 || Number.isInteger(v) ? String(Math.round(v)) : Number(v.toPrecision(3)).toString())
const n2 = (v: number) => (Math.round(v * 100) / 100).toString()

/** Roughly five round tick values covering [lo, hi]. */
export const niceTicks = (lo: number, hi: number, count = 5): number[] => {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0]
  if (hi === lo) return [lo]
  const raw = (hi - lo) / count
  const mag = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 2.5, 5, 10].map((f) => f * mag).find((s) => s >= raw) ?? 10 * mag
  // Outer ticks enclose the data, so the axis ends on a labelled value.
  const out: number[] = []
  const first = Math.floor(lo / step + 1e-9) * step
  for (let v = first; v < hi + step * (1 - 1e-9); v += step) out.push(Number(v.toPrecision(12)))
  out.push(Number((first + out.length * step).toPrecision(12)))
  return out.length > 1 && out[out.length - 2] >= hi - step * 1e-9 ? out.slice(0, -1) : out
}

const extent = (vs: number[], includeZero = false): [number, number] => {
  const finite = vs.filter(Number.isFinite)
  if (finite.length === 0) return [0, 1]
  let lo = Math.min(...finite, ...(includeZero ? [0] : []))
  let hi = Math.max(...finite, ...(includeZero ? [0] : []))
  if (lo === hi) {
    lo -= 0.5
    hi += 0.5
  }
  return [lo, hi]
}

const frame = (title: string, body: string[], subtitle?: string) =>
  [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif" font-size="11">`,
    `<title>${esc(title)}</title>`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="${M.left}" y="22" font-size="15" font-weight="bold">${esc(title)}</text>`,
    subtitle ? `<text x="${M.left}" y="38" fill="#555">${esc(subtitle)}</text>` : "",
    ...body,
    "</svg>",
    ""
  ]
    .filter(Boolean)
    .join("\n")

interface Scale {
  (v: number): number
  ticks: number[]
}
const linear = (domain: [number, number], range: [number, number], tickCount = 5): Scale => {
  const ticks = niceTicks(domain[0], domain[1], tickCount)
  const lo = Math.min(domain[0], ticks[0] ?? domain[0])
  const hi = Math.max(domain[1], ticks[ticks.length - 1] ?? domain[1])
  const f = ((v: number) => range[0] + ((v - lo) / (hi - lo || 1)) * (range[1] - range[0])) as Scale
  f.ticks = ticks
  return f
}

const yAxis = (y: Scale, label: string) => [
  ...y.ticks.map(
    (t) =>
      `<line x1="${M.left}" x2="${W - M.right}" y1="${n2(y(t))}" y2="${n2(y(t))}" stroke="#e4e4e4"/>` +
      `<text x="${M.left - 6}" y="${n2(y(t) + 4)}" text-anchor="end">${esc(fmt(t))}</text>`
  ),
  `<line x1="${M.left}" x2="${M.left}" y1="${M.top}" y2="${H - M.bottom}" stroke="#333"/>`,
  `<text transform="translate(16 ${(M.top + H - M.bottom) / 2}) rotate(-90)" text-anchor="middle">${esc(label)}</text>`
]

const xAxisNumeric = (x: Scale, label: string, tickLabel: (v: number) => string = fmt) => [
  ...x.ticks.map(
    (t) =>
      `<line x1="${n2(x(t))}" x2="${n2(x(t))}" y1="${H - M.bottom}" y2="${H - M.bottom + 4}" stroke="#333"/>` +
      `<text x="${n2(x(t))}" y="${H - M.bottom + 16}" text-anchor="middle">${esc(tickLabel(t))}</text>`
  ),
  `<line x1="${M.left}" x2="${W - M.right}" y1="${H - M.bottom}" y2="${H - M.bottom}" stroke="#333"/>`,
  `<text x="${(M.left + W - M.right) / 2}" y="${H - M.bottom + 40}" text-anchor="middle">${esc(label)}</text>`
]

const legend = (names: string[]) =>
  names.map(
    (name, i) =>
      `<rect x="${W - M.right - 180}" y="${M.top + i * 16}" width="10" height="10" fill="${PALETTE[i % PALETTE.length]}"/>` +
      `<text x="${W - M.right - 165}" y="${M.top + i * 16 + 9}">${esc(name)}</text>`
  )

export interface Bar {
  readonly label: string
  readonly value: number
  /** Interval whisker (e.g. a 95% Wilson interval), drawn when both ends are given. */
  readonly low?: number | null
  readonly high?: number | null
  /** Draw the bar faded (e.g. a thin sample). */
  readonly muted?: boolean
}

export interface BarChart {
  readonly title: string
  readonly subtitle?: string
  readonly xLabel: string
  readonly yLabel: string
  readonly bars: ReadonlyArray<Bar>
  /** Fixed value range (e.g. [0, 1] for rates); otherwise from the data and zero. */
  readonly yDomain?: [number, number]
  /** A dashed horizontal reference line (e.g. the pooled rate). */
  readonly reference?: { readonly value: number; readonly label: string }
}

export const barChart = (c: BarChart): string => {
  const values = c.bars.flatMap((b) => [b.value, b.low ?? NaN, b.high ?? NaN])
  const y = linear(c.yDomain ?? extent(values, true), [H - M.bottom, M.top])
  const slot = (W - M.left - M.right) / Math.max(1, c.bars.length)
  const bw = Math.max(1, slot * 0.7)
  const body = [...yAxis(y, c.yLabel), `<line x1="${M.left}" x2="${W - M.right}" y1="${H - M.bottom}" y2="${H - M.bottom}" stroke="#333"/>`]
  c.bars.forEach((b, i) => {
    const cx = M.left + slot * (i + 0.5)
    const y0 = y(Math.max(0, y.ticks[0] ?? 0))
    const yv = y(b.value)
    body.push(
      `<rect x="${n2(cx - bw / 2)}" y="${n2(Math.min(yv, y0))}" width="${n2(bw)}" height="${n2(Math.abs(y0 - yv))}" fill="${PALETTE[0]}" fill-opacity="${b.muted ? 0.35 : 0.85}"><title>${esc(`${b.label}: ${fmt(b.value)}`)}</title></rect>`
    )
    if (b.low != null && b.high != null) {
      const [yl, yh] = [y(b.low), y(b.high)]
      const cap = Math.min(6, bw / 2)
      body.push(
        `<path d="M${n2(cx)} ${n2(yl)}V${n2(yh)}M${n2(cx - cap)} ${n2(yl)}H${n2(cx + cap)}M${n2(cx - cap)} ${n2(yh)}H${n2(cx + cap)}" stroke="#222" fill="none"/>`
      )
    }
    body.push(
      `<text transform="translate(${n2(cx + 3)} ${H - M.bottom + 10}) rotate(-45)" text-anchor="end" font-size="${c.bars.length > 40 ? 8 : 10}">${esc(b.label)}</text>`
    )
  })
  if (c.reference && Number.isFinite(c.reference.value)) {
    const yr = n2(y(c.reference.value))
    body.push(
      `<line x1="${M.left}" x2="${W - M.right}" y1="${yr}" y2="${yr}" stroke="${PALETTE[1]}" stroke-dasharray="6 4" stroke-width="1.5"/>`,
      `<text x="${W - M.right - 4}" y="${n2(y(c.reference.value) - 4)}" text-anchor="end" fill="${PALETTE[1]}">${esc(c.reference.label)}</text>`
    )
  }
  body.push(`<text x="${(M.left + W - M.right) / 2}" y="${H - 8}" text-anchor="middle">${esc(c.xLabel)}</text>`)
  return frame(c.title, body, c.subtitle)
}

export interface Series {
  readonly name: string
  readonly points: ReadonlyArray<{ readonly x: number; readonly y: number }>
}

export interface LineChart {
  readonly title: string
  readonly subtitle?: string
  readonly xLabel: string
  readonly yLabel: string
  readonly series: ReadonlyArray<Series>
  readonly yDomain?: [number, number]
  /** Tick labels on x (e.g. years without thousands grouping). */
  readonly xTick?: (v: number) => string
}

export const lineChart = (c: LineChart): string => {
  const all = c.series.flatMap((s) => s.points)
  const x = linear(extent(all.map((p) => p.x)), [M.left, W - M.right], 8)
  const y = linear(c.yDomain ?? extent(all.map((p) => p.y), true), [H - M.bottom, M.top])
  const body = [...yAxis(y, c.yLabel), ...xAxisNumeric(x, c.xLabel, c.xTick)]
  c.series.forEach((s, i) => {
    const colour = PALETTE[i % PALETTE.length]
    const pts = s.points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y))
    if (pts.length > 1) body.push(`<polyline points="${pts.map((p) => `${n2(x(p.x))},${n2(y(p.y))}`).join(" ")}" fill="none" stroke="${colour}" stroke-width="2"/>`)
    for (const p of pts) body.push(`<circle cx="${n2(x(p.x))}" cy="${n2(y(p.y))}" r="2.5" fill="${colour}"><title>${esc(`${s.name} ${fmt(p.x)}: ${fmt(p.y)}`)}</title></circle>`)
  })
  if (c.series.length > 1) body.push(...legend(c.series.map((s) => s.name)))
  return frame(c.title, body, c.subtitle)
}

export interface ScatterChart {
  readonly title: string
  readonly subtitle?: string
  readonly xLabel: string
  readonly yLabel: string
  readonly points: ReadonlyArray<{ readonly x: number; readonly y: number; readonly label?: string; readonly group?: number }>
  /** Label the points whose label is given (keep to a handful). */
  readonly showLabels?: boolean
  readonly yDomain?: [number, number]
}

export const scatterChart = (c: ScatterChart): string => {
  const pts = c.points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y))
  const [x0, x1] = extent(pts.map((p) => p.x))
  const pad = (x1 - x0) * 0.05
  // Pad the range so edge points are not clipped, without inventing negative counts.
  const x = linear([x0 >= 0 ? Math.max(0, x0 - pad) : x0 - pad, x1 + pad], [M.left, W - M.right - 40], 8)
  const y = linear(c.yDomain ?? extent(pts.map((p) => p.y), true), [H - M.bottom, M.top])
  const body = [...yAxis(y, c.yLabel), ...xAxisNumeric(x, c.xLabel)]
  for (const p of pts) {
    const colour = PALETTE[(p.group ?? 0) % PALETTE.length]
    body.push(`<circle cx="${n2(x(p.x))}" cy="${n2(y(p.y))}" r="3.5" fill="${colour}" fill-opacity="0.6">${p.label ? `<title>${esc(p.label)}</title>` : ""}</circle>`)
    if (c.showLabels && p.label) body.push(`<text x="${n2(x(p.x) + 5)}" y="${n2(y(p.y) - 5)}" font-size="9">${esc(p.label)}</text>`)
  }
  return frame(c.title, body, c.subtitle)
}

export interface HeatMap {
  readonly title: string
  readonly subtitle?: string
  readonly rowLabel: string
  readonly colLabel: string
  readonly rows: ReadonlyArray<string>
  readonly cols: ReadonlyArray<string>
  /** values[r][c], printed inside each cell. */
  readonly values: ReadonlyArray<ReadonlyArray<number>>
  /** Shade by the value over the whole matrix, or by the cell's share of its row (flows: where a row goes). */
  readonly shadeBy?: "value" | "row-share"
}

export const heatMap = (c: HeatMap): string => {
  const side = Math.min((W - M.left - M.right - 120) / Math.max(1, c.cols.length), (H - M.top - M.bottom) / Math.max(1, c.rows.length))
  const x0 = M.left + 40
  const y0 = M.top + 24
  const max = Math.max(0, ...c.values.flat().filter(Number.isFinite))
  const rowSums = c.values.map((r) => r.reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0))
  const shade = (i: number, v: number) => (c.shadeBy === "row-share" ? (rowSums[i] > 0 ? v / rowSums[i] : 0) : max > 0 ? v / max : 0)
  const body: string[] = [
    `<text x="${x0 + (side * c.cols.length) / 2}" y="${y0 - 10}" text-anchor="middle">${esc(c.colLabel)} →</text>`,
    `<text transform="translate(${M.left - 10} ${y0 + (side * c.rows.length) / 2}) rotate(-90)" text-anchor="middle">${esc(c.rowLabel)} →</text>`
  ]
  c.cols.forEach((col, j) => body.push(`<text x="${n2(x0 + side * (j + 0.5))}" y="${y0 + side * c.rows.length + 14}" text-anchor="middle">${esc(col)}</text>`))
  c.rows.forEach((row, i) => {
    body.push(`<text x="${x0 - 6}" y="${n2(y0 + side * (i + 0.5) + 4)}" text-anchor="end">${esc(row)}</text>`)
    c.cols.forEach((col, j) => {
      const v = c.values[i]?.[j] ?? 0
      const t = shade(i, v)
      body.push(
        `<rect x="${n2(x0 + side * j)}" y="${n2(y0 + side * i)}" width="${n2(side)}" height="${n2(side)}" fill="${PALETTE[0]}" fill-opacity="${n2(0.05 + 0.9 * t)}" stroke="#fff"><title>${esc(`${row} → ${col}: ${fmt(v)}`)}</title></rect>`,
        `<text x="${n2(x0 + side * (j + 0.5))}" y="${n2(y0 + side * (i + 0.5) + 4)}" text-anchor="middle" fill="${t > 0.55 ? "#fff" : "#222"}">${esc(fmt(v))}</text>`
      )
    })
  })
  return frame(c.title, body, c.subtitle)
}
