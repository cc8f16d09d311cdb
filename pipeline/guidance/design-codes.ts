/**
 * guidance/design_code_entries.parquet: the Design Search Code Manual at category, division and
 * section level, each entry with its category ("major") and division ("sub") names so one
 * lookup answers where a code sits. Guidelines and exclusions are kept, split into items.
 * A section whose division the manual omits (03.25) keeps its category and a null division.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { type Columns, writeRows } from "./write.ts"

interface DesignCodeRow {
  readonly code: string
  readonly level: string | null
  readonly parent: string | null
  readonly description: string | null
  readonly guidelines: string | null
  readonly excludes: string | null
}

export const designCodeColumns: Columns = {
  code: "VARCHAR",
  level: "VARCHAR",
  parent: "VARCHAR",
  descriptions: "VARCHAR[]",
  major: "VARCHAR",
  major_code: "VARCHAR",
  sub: "VARCHAR",
  sub_code: "VARCHAR",
  guidelines: "VARCHAR[]",
  excludes: "VARCHAR[]"
}

/** "A | B" lists as the manual prints them; the pipe separates items. */
const items = (s: string | null) => (s ?? "").split(/\s+\|\s+/).map((x) => x.trim()).filter((x) => x !== "")

export const writeDesignCodeEntries = async (conn: DuckDBConnection, file: string) => {
  const rows = (await conn.runAndReadAll(`SELECT code, level, parent, description, guidelines, excludes FROM design_codes`)).getRowObjectsJS() as unknown as DesignCodeRow[]
  const byCode = new Map(rows.map((r) => [r.code, r]))
  return writeRows(
    conn,
    "design_codes",
    designCodeColumns,
    rows.map((r) => {
      const majorCode = r.code.slice(0, 2)
      const subCode = r.code.length >= 5 ? r.code.slice(0, 5) : null
      return {
        code: r.code,
        level: r.level,
        parent: r.parent,
        descriptions: items(r.description),
        major: byCode.get(majorCode)?.description ?? null,
        major_code: majorCode,
        sub: subCode ? byCode.get(subCode)?.description ?? null : null,
        sub_code: subCode,
        guidelines: items(r.guidelines),
        excludes: items(r.excludes)
      }
    }),
    file,
    "code"
  )
}
