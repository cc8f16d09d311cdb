/**
 * The ingest tables this stage reads, with the columns it uses. A table the build did not
 * produce (a corpus without office-action text, without the CPC scheme …) is replaced by an
 * empty one of the same shape, so every figure that depends on it reads as "0 of 0" rather
 * than failing the stage.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { ensureTables } from "../stages/tables.ts"

export const inputTables: Readonly<Record<string, string>> = {
  applications:
    "app_num VARCHAR, art_unit VARCHAR, technology_center VARCHAR, examiner VARCHAR, status VARCHAR, status_date DATE, filing_date DATE, doc_type VARCHAR, title VARCHAR",
  examiners: "examiner_id VARCHAR, full_name VARCHAR, surname VARCHAR, art_unit VARCHAR, art_units VARCHAR[], employee_number VARCHAR, application_count BIGINT",
  prosecution_events: "app_num VARCHAR, seq INTEGER, event_date DATE, code VARCHAR, description VARCHAR, source VARCHAR",
  cpc_assignments: "app_num VARCHAR, symbol VARCHAR, subclass VARCHAR, section VARCHAR, is_inventive BOOLEAN, is_main BOOLEAN",
  cpc_scheme: "symbol VARCHAR, level INTEGER, title VARCHAR, parent VARCHAR, section VARCHAR",
  office_actions:
    "app_num VARCHAR, document_id VARCHAR, document_code VARCHAR, mail_date DATE, art_unit VARCHAR, examiner_employee_number VARCHAR, rejection_101 BOOLEAN, rejection_102 BOOLEAN, rejection_103 BOOLEAN, rejection_112 BOOLEAN, rejection_dp BOOLEAN",
  claims: "app_num VARCHAR, claim_num INTEGER, is_independent BOOLEAN, source VARCHAR"
}

/** Creates an empty stand-in for every input table missing from the connection. Returns their names. */
export const ensureInputTables = (conn: DuckDBConnection): Promise<string[]> => ensureTables(conn, inputTables)
