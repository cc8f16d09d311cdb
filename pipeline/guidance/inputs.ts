/**
 * The ingest tables this stage reads. A corpus without one of the guidance sources (no EPO
 * CSV, no design codes …) gets an empty stand-in of the same shape, so the stage still writes
 * every output and the endpoints answer 404 for ids it lacks instead of failing.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { deltaPartsOf } from "../../core/artifacts/table-delta.ts"
import { ensureTables } from "../stages/tables.ts"

const inputTables: Readonly<Record<string, string>> = {
  mpep_sections: "section_id VARCHAR, title VARCHAR, chapter VARCHAR, revision VARCHAR, content VARCHAR, cross_refs VARCHAR[], source_file VARCHAR",
  epo_sections: "section_id VARCHAR, ref VARCHAR, part VARCHAR, chapter VARCHAR, title VARCHAR, content VARCHAR, url VARCHAR, cross_refs VARCHAR[]",
  form_paragraphs:
    "code VARCHAR, title VARCHAR, template VARCHAR, examiner_notes VARCHAR, mpep_section VARCHAR, chapter VARCHAR, variant VARCHAR, sources VARCHAR[]",
  design_codes: "code VARCHAR, level VARCHAR, parent VARCHAR, description VARCHAR, guidelines VARCHAR, excludes VARCHAR"
}

/** The ingest outputs behind those tables (a night's delta files of them too): the only ones in the stage's input hash. */
export const readsGuidanceInput = (rel: string) =>
  Object.keys(inputTables).some((t) => {
    const base = `tables/${t}.parquet`
    const parts = deltaPartsOf(base)
    return rel === base || rel === parts.delta || rel === parts.replaced || rel.startsWith(`tables/${t}/`)
  })

/** Creates an empty stand-in for every input table missing from the connection. Returns their names. */
export const ensureGuidanceTables = (conn: DuckDBConnection): Promise<string[]> => ensureTables(conn, inputTables)
