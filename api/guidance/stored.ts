/**
 * Reading the guidance stage's Parquet rows (JSON text columns, lists and ids). The guidance
 * tables are bounded by the manuals they come from (hundreds to a few thousand rows whatever the
 * number of applications), so each is held in memory (../artifacts/held.ts) and every request is
 * a Map lookup or a filter over the held rows.
 */
import type { ArtifactStore } from "../artifacts/ArtifactStore.ts"

export type Query = ArtifactStore["query"]
export type Row = Record<string, unknown>

/** A JSON text column as a value; SQL NULL stays `fallback`. */
export const json = <A>(text: unknown, fallback: A): A => (text === null || text === undefined ? fallback : (JSON.parse(String(text)) as A))

export const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : [])

export const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v))

export const num = (v: unknown): number => (typeof v === "bigint" ? Number(v) : Number(v ?? 0))

/** Rows by a key column, the first row of the table winning as `WHERE key = $1 LIMIT 1` did. */
export const byKey = (rows: ReadonlyArray<Row>, key: (r: Row) => unknown): ReadonlyMap<string, Row> => {
  const map = new Map<string, Row>()
  for (const r of rows) {
    const k = key(r)
    if (k === null || k === undefined) continue
    if (!map.has(String(k))) map.set(String(k), r)
  }
  return map
}

