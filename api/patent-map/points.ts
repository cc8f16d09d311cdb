/**
 * Points of the patent space (SPEC 2.2) read from the served version: exact stored coordinates
 * joined with the application's art unit, filing date, title and CPC section (the main symbol's
 * section, else the alphabetically first symbol's: the atlas stage uses the same rule).
 */
import { sqlString } from "../../core/artifacts/files.ts"
import type { CitationRecordRow, PointRecord } from "../../core/serving/names.ts"

export interface PointRow {
  readonly key: number
  readonly appNum: string
  readonly x: number
  readonly y: number
  readonly z: number
  readonly section: string | null
  readonly artUnit: string | null
  readonly filingDate: string | null
  readonly title: string | null
}

export const POINT_TABLES = ["coordinates", "applications", "cpc_assignments"] as const


/** Coordinates rows chosen by key or application number, with their attributes, in key order. */
export const pointsSql = (where: { readonly keys: ReadonlyArray<number> } | { readonly appNums: ReadonlyArray<string> } | { readonly keyBelow: number }) => {
  const filter =
    "keys" in where
      ? `key IN (${where.keys.map((k) => Math.trunc(k)).join(",") || "NULL"})`
      : "appNums" in where
        ? `app_num IN (${where.appNums.map(sqlString).join(",") || "NULL"})`
        : `key < ${Math.trunc(where.keyBelow)}`
  return `
    WITH c AS (SELECT key, app_num, x, y, z FROM coordinates WHERE ${filter}),
    a AS (SELECT app_num, art_unit, strftime(filing_date, '%Y-%m-%d') AS filing_date, title
          FROM applications WHERE app_num IN (SELECT app_num FROM c)),
    s AS (SELECT app_num, coalesce(arg_min(section, symbol) FILTER (WHERE is_main), arg_min(section, symbol)) AS section
          FROM cpc_assignments WHERE app_num IN (SELECT app_num FROM c) GROUP BY app_num)
    SELECT c.key, c.app_num, c.x, c.y, c.z, a.art_unit, a.filing_date, a.title, s.section
    FROM c LEFT JOIN a USING (app_num) LEFT JOIN s USING (app_num)
    ORDER BY c.key`
}

export const toPointRow = (r: Record<string, unknown>): PointRow => ({
  key: Number(r.key),
  appNum: String(r.app_num),
  x: Number(r.x),
  y: Number(r.y),
  z: Number(r.z),
  section: (r.section as string | null) ?? null,
  artUnit: (r.art_unit as string | null) ?? null,
  filingDate: (r.filing_date as string | null) ?? null,
  title: (r.title as string | null) ?? null
})

export const pointOfRecord = (key: number, r: PointRecord): PointRow => ({
  key,
  appNum: r.app_num,
  x: Number(r.x),
  y: Number(r.y),
  z: Number(r.z),
  section: r.section ?? null,
  artUnit: r.art_unit ?? null,
  filingDate: r.filing_date ?? null,
  title: r.title ?? null
})

/**
 * A citing application's stored citations as one row per reference (the cited application, else
 * the cited document), examiner-cited when any of its citations is, in reference order: what
 * `GROUP BY coalesce(cited_app, cited_doc) ORDER BY ref` gives over the table.
 */
export const groupCitations = (rows: ReadonlyArray<CitationRecordRow>, year: number | undefined) => {
  const byRef = new Map<string, { ref: string; cited_app: string | null; examiner: boolean }>()
  for (const r of rows) {
    if (year !== undefined && Number(r.citing_filing_year) !== year) continue
    const ref = r.cited_app ?? r.cited_doc
    if (ref === null || ref === undefined) continue
    const seen = byRef.get(ref)
    if (seen) {
      seen.cited_app ??= r.cited_app
      seen.examiner ||= r.examiner_cited === true
    } else byRef.set(ref, { ref, cited_app: r.cited_app, examiner: r.examiner_cited === true })
  }
  return [...byRef.values()].sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0))
}

/** The Point fields every route returns; score, examiner and title are added where they apply. */
export const basePoint = (p: PointRow) => ({
  appNum: p.appNum,
  x: p.x,
  y: p.y,
  z: p.z,
  section: p.section,
  artUnit: p.artUnit,
  filingDate: p.filingDate
})

export const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let dot = 0, na = 0, nb = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i]
    na += a[i] * a[i]
    nb += b[i] * b[i]
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0
}

/**
 * The landing point of a located text: the centroid of the top hits weighted by 1/rank
 * (rank 1 counts twice as much as rank 2, eight times as much as rank 8).
 */
export const LANDING_HITS = 8
export const rankWeightedCentroid = (hits: ReadonlyArray<{ x: number; y: number; z: number }>) => {
  const top = hits.slice(0, LANDING_HITS)
  let w = 0
  const c = { x: 0, y: 0, z: 0 }
  top.forEach((h, i) => {
    const weight = 1 / (i + 1)
    c.x += weight * h.x
    c.y += weight * h.y
    c.z += weight * h.z
    w += weight
  })
  return { x: c.x / w, y: c.y / w, z: c.z / w }
}
