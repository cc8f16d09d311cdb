/** Reading the guidance stage's Parquet rows: JSON text columns, lists and ids. */
import type { ArtifactStore } from "../artifacts/ArtifactStore.ts"

export type Query = ArtifactStore["query"]
export type Row = Record<string, unknown>

/** A JSON text column as a value; SQL NULL stays `fallback`. */
export const json = <A>(text: unknown, fallback: A): A => (text === null || text === undefined ? fallback : (JSON.parse(String(text)) as A))

export const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : [])

export const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v))

export const num = (v: unknown): number => (typeof v === "bigint" ? Number(v) : Number(v ?? 0))
