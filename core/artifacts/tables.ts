/**
 * The artifact tables: one definition per table gives the DuckDB column types (for DDL and
 * Parquet), the row Schema (to validate what readers emit) and the column docs that
 * artifacts/README.md is checked against.
 *
 * Column names are snake_case because analysts query these tables directly with SQL.
 */
import { Schema } from "effect"

export type ColumnType = "VARCHAR" | "INTEGER" | "BIGINT" | "DOUBLE" | "FLOAT" | "BOOLEAN" | "DATE" | "VARCHAR[]" | "INTEGER[]" | "FLOAT[]"

export interface ColumnSpec {
  readonly type: ColumnType
  readonly doc: string
  /** Non-nullable columns make a row invalid when missing. */
  readonly required?: boolean
}

export interface TableSpec<C extends Record<string, ColumnSpec> = Record<string, ColumnSpec>> {
  readonly name: string
  readonly doc: string
  readonly columns: C
}

const col = <T extends ColumnType, R extends boolean = false>(type: T, doc: string, required?: R) =>
  ({ type, doc, required: (required ?? false) as R }) as { readonly type: T; readonly doc: string; readonly required: R }

const schemaOf = (c: ColumnSpec): Schema.Schema.Any => {
  const base: Schema.Schema.Any =
    c.type === "VARCHAR" || c.type === "DATE"
      ? Schema.String
      : c.type === "BOOLEAN"
      ? Schema.Boolean
      : c.type === "VARCHAR[]"
      ? Schema.Array(Schema.String)
      : c.type === "INTEGER[]" || c.type === "FLOAT[]"
      ? Schema.Array(Schema.Number)
      : Schema.Number
  return c.required ? base : Schema.NullOr(base)
}

/** Row schema derived from the column spec (optional columns accept null or absence). */
export const rowSchema = (t: TableSpec) =>
  Schema.Struct(
    Object.fromEntries(
      Object.entries(t.columns).map(([k, c]) => [k, c.required ? schemaOf(c) : Schema.optional(schemaOf(c))])
    ) as Record<string, Schema.Schema.Any | Schema.PropertySignature.Any>
  )

const table = <C extends Record<string, ColumnSpec>>(name: string, doc: string, columns: C): TableSpec<C> => ({
  name,
  doc,
  columns
})

// ---------------------------------------------------------------------------
// Raw tables: what the readers emit, one row per source record. The ingest stage merges them
// into the published tables below (see pipeline/ingest/published-tables.ts).
// ---------------------------------------------------------------------------

export const applicationRecords = table("application_records", "One row per application per source document, before merging.", {
  app_num: col("VARCHAR", "Application number, digits only (e.g. 15695467)", true),
  source: col("VARCHAR", "Source format: uspto-grant-xml, uspto-app-xml, ppubs-fulltext, ppubs-biblio, peds-st96, peds-search, office-action", true),
  source_file: col("VARCHAR", "Corpus-relative path of the file the record came from", true),
  pub_num: col("VARCHAR", "Publication number: patent number for grants (no leading zeros, D/PP/RE prefix kept for non-utility), 11-digit pre-grant publication number"),
  kind: col("VARCHAR", "Kind code (B1, B2, A1, S1, …)"),
  doc_type: col("VARCHAR", "utility, design, plant, reissue, provisional or other"),
  title: col("VARCHAR", "Title of the invention"),
  abstract: col("VARCHAR", "Abstract as clean text"),
  filing_date: col("DATE", "Filing date YYYY-MM-DD"),
  pub_date: col("DATE", "Publication (or grant) date YYYY-MM-DD"),
  grant_date: col("DATE", "Grant date where the source knows it"),
  country: col("VARCHAR", "Country code of the publication (US)"),
  assignees: col("VARCHAR[]", "Assignee / applicant organisation names"),
  inventors: col("VARCHAR[]", "Inventor names"),
  examiner: col("VARCHAR", "Primary examiner, surname-first upper case (e.g. PARK, HYUN D)"),
  art_unit: col("VARCHAR", "Group art unit, digits (e.g. 2863)"),
  status: col("VARCHAR", "Application status text (PEDS) or 'granted'/'published'"),
  status_date: col("DATE", "Date of the status")
})

// ---------------------------------------------------------------------------
// Entity tables (readers emit these directly; duplicates across sources are resolved in merge).
// ---------------------------------------------------------------------------

export const claims = table("claims", "Numbered claims with their dependencies.", {
  app_num: col("VARCHAR", "Application number", true),
  source: col("VARCHAR", "Source format the claim text came from", true),
  claim_num: col("INTEGER", "Claim number (1-based)", true),
  text: col("VARCHAR", "Claim text without its leading number, clean text", true),
  depends_on: col("INTEGER[]", "Claim numbers this claim refers to (empty for independent claims)", true),
  is_independent: col("BOOLEAN", "True when the claim refers to no other claim", true)
})

export const descriptionParagraphs = table("description_paragraphs", "Specification paragraphs in document order.", {
  app_num: col("VARCHAR", "Application number", true),
  source: col("VARCHAR", "Source format", true),
  seq: col("INTEGER", "Position of the paragraph in the description (0-based)", true),
  para_num: col("VARCHAR", "Published paragraph number (e.g. 0012) where the source numbers paragraphs"),
  heading: col("VARCHAR", "Nearest preceding section heading (e.g. DETAILED DESCRIPTION)"),
  text: col("VARCHAR", "Paragraph text, clean", true)
})

export const cpcAssignments = table("cpc_assignments", "CPC symbols assigned to applications.", {
  app_num: col("VARCHAR", "Application number", true),
  source: col("VARCHAR", "Source format", true),
  symbol: col("VARCHAR", "Normalised CPC symbol without spaces (e.g. H04L9/0643)", true),
  subclass: col("VARCHAR", "First four characters (e.g. H04L)", true),
  section: col("VARCHAR", "Section letter A-H or Y", true),
  is_inventive: col("BOOLEAN", "True for inventive (claimed) symbols, false for additional ones", true),
  is_main: col("BOOLEAN", "True for the main / first inventive symbol", true)
})

export const citations = table("citations", "Patent citations made by an application.", {
  citing_app: col("VARCHAR", "Citing application number", true),
  source: col("VARCHAR", "Source format", true),
  cited_doc: col("VARCHAR", "Cited document number as published, digits (patent or publication number)", true),
  cited_country: col("VARCHAR", "Country of the cited document (US where unknown)"),
  cited_kind: col("VARCHAR", "Kind code of the cited document"),
  cited_date: col("DATE", "Date of the cited document where given"),
  examiner_cited: col("BOOLEAN", "True when cited by the examiner, false for applicant/other citations", true),
  category: col("VARCHAR", "Citation category as published (cited by examiner / applicant / other / unknown)"),
  citing_filing_year: col("INTEGER", "Filing year of the citing application")
})

export const continuity = table("continuity", "Parent/child relations between applications.", {
  child_app: col("VARCHAR", "Child application number", true),
  parent_app: col("VARCHAR", "Parent application number (digits; provisionals start with 6)", true),
  relation: col("VARCHAR", "CON, CIP, DIV, PRO (provisional), NST (national stage), REI (reissue) or other", true),
  parent_filing_date: col("DATE", "Filing date of the parent where known"),
  source: col("VARCHAR", "Source format", true)
})

export const examinerRecords = table("examiner_records", "Examiner names as seen on applications, before deduplication.", {
  full_name: col("VARCHAR", "Surname-first upper case full name (e.g. PARK, HYUN D)", true),
  art_unit: col("VARCHAR", "Art unit the examiner worked the application in"),
  employee_number: col("VARCHAR", "Examiner employee number where the source gives it"),
  app_num: col("VARCHAR", "Application the name was seen on"),
  role: col("VARCHAR", "primary or assistant"),
  source: col("VARCHAR", "Source format", true)
})

export const prosecutionEvents = table("prosecution_events", "PEDS transaction history.", {
  app_num: col("VARCHAR", "Application number", true),
  seq: col("INTEGER", "Order within the application's history (0 = oldest)", true),
  event_date: col("DATE", "Date of the transaction"),
  code: col("VARCHAR", "Transaction code (e.g. CTNF, CTFR, N/=., ABN9, RCEX)"),
  description: col("VARCHAR", "Transaction description as published", true),
  source: col("VARCHAR", "Source format", true)
})

export const officeActions = table("office_actions", "Office-action documents with full text.", {
  app_num: col("VARCHAR", "Application number", true),
  document_id: col("VARCHAR", "Source document identifier", true),
  document_code: col("VARCHAR", "Document code (CTNF, CTFR, …)"),
  mail_date: col("DATE", "Mail date"),
  art_unit: col("VARCHAR", "Art unit"),
  examiner_employee_number: col("VARCHAR", "Examiner employee number"),
  rejection_101: col("BOOLEAN", "Body carries a 35 U.S.C. 101 rejection"),
  rejection_102: col("BOOLEAN", "Body carries a 35 U.S.C. 102 rejection"),
  rejection_103: col("BOOLEAN", "Body carries a 35 U.S.C. 103 rejection"),
  rejection_112: col("BOOLEAN", "Body carries a 35 U.S.C. 112 rejection"),
  rejection_dp: col("BOOLEAN", "Body carries a double-patenting rejection"),
  text: col("VARCHAR", "Body text", true),
  source: col("VARCHAR", "Source format", true)
})

// ---------------------------------------------------------------------------
// Reference tables: schemes and guidance.
// ---------------------------------------------------------------------------

export const cpcScheme = table("cpc_scheme", "The CPC scheme from the official title lists.", {
  symbol: col("VARCHAR", "Normalised symbol (A, A01, A01B, A01B1/00, A01B1/02)", true),
  level: col("INTEGER", "Hierarchy depth: 1 section, 2 class, 3 subclass, 4 main group, 5+ subgroup (dot depth + 4)", true),
  title: col("VARCHAR", "Title text", true),
  parent: col("VARCHAR", "Parent symbol (null for sections)"),
  section: col("VARCHAR", "Section letter", true)
})

export const mpepSections = table("mpep_sections", "MPEP sections.", {
  section_id: col("VARCHAR", "Section id exactly as published (e.g. 2173.05(e))", true),
  title: col("VARCHAR", "Section title", true),
  chapter: col("VARCHAR", "Chapter number (e.g. 2100)", true),
  revision: col("VARCHAR", "Revision tag as published (e.g. R-08.2017)"),
  content: col("VARCHAR", "Clean text with subsection headings on their own lines", true),
  cross_refs: col("VARCHAR[]", "MPEP section ids this section refers to, in order of appearance, repeats kept"),
  source_file: col("VARCHAR", "Corpus-relative source path", true)
})

export const epoSections = table("epo_sections", "EPO Guidelines sections.", {
  section_id: col("VARCHAR", "Canonical id: part-chapter then section with dots, e.g. G-VII-5.1 (published as 'G-VII, 5.1')", true),
  ref: col("VARCHAR", "Reference exactly as published (e.g. G-VII, 5.1)", true),
  part: col("VARCHAR", "Part letter (A-H)", true),
  chapter: col("VARCHAR", "Chapter roman numeral (e.g. VII), null for part-level entries"),
  title: col("VARCHAR", "Section title where it can be separated from the text"),
  content: col("VARCHAR", "Section text", true),
  url: col("VARCHAR", "Source URL"),
  cross_refs: col("VARCHAR[]", "Canonical ids of other sections referred to inline, repeats kept")
})

export const formParagraphs = table("form_paragraphs", "Office-action form paragraphs (templates from the MPEP, titles from the index).", {
  code: col("VARCHAR", "Paragraph code without the ¶ sign (e.g. 7.34.01)", true),
  title: col("VARCHAR", "Title"),
  template: col("VARCHAR", "Template text with [1]-style placeholders; null for index-only entries"),
  examiner_notes: col("VARCHAR", "Examiner Notes text"),
  mpep_section: col("VARCHAR", "MPEP section the paragraph is printed in"),
  chapter: col("VARCHAR", "Form-paragraph chapter (the number before the first dot)", true),
  variant: col("VARCHAR", "Variant label from the index"),
  source: col("VARCHAR", "mpep (template text) or index (title only)", true)
})

export const designCodes = table("design_codes", "USPTO Design Search Code Manual.", {
  code: col("VARCHAR", "Code (01, 01.01, 01.01.01)", true),
  level: col("VARCHAR", "category, division or section", true),
  parent: col("VARCHAR", "Parent code"),
  description: col("VARCHAR", "Description", true),
  guidelines: col("VARCHAR", "Guidelines text"),
  excludes: col("VARCHAR", "Exclusions text")
})

/** Every table a reader may emit rows for. */
export const readerTables = {
  application_records: applicationRecords,
  claims,
  description_paragraphs: descriptionParagraphs,
  cpc_assignments: cpcAssignments,
  citations,
  continuity,
  examiner_records: examinerRecords,
  prosecution_events: prosecutionEvents,
  office_actions: officeActions,
  cpc_scheme: cpcScheme,
  mpep_sections: mpepSections,
  epo_sections: epoSections,
  form_paragraphs: formParagraphs,
  design_codes: designCodes
} as const

export type ReaderTableName = keyof typeof readerTables

/** TypeScript row type for a table (nullable columns optional). */
export type RowOf<T extends TableSpec> = {
  [K in keyof T["columns"] as T["columns"][K]["required"] extends true ? K : never]: TsType<T["columns"][K]["type"]>
} & {
  [K in keyof T["columns"] as T["columns"][K]["required"] extends true ? never : K]?: TsType<T["columns"][K]["type"]> | null
}

type TsType<T extends ColumnType> = T extends "VARCHAR" | "DATE"
  ? string
  : T extends "BOOLEAN"
  ? boolean
  : T extends "VARCHAR[]"
  ? ReadonlyArray<string>
  : T extends "INTEGER[]" | "FLOAT[]"
  ? ReadonlyArray<number>
  : number

export type ApplicationRecord = RowOf<typeof applicationRecords>
export type ClaimRow = RowOf<typeof claims>
export type DescriptionParagraphRow = RowOf<typeof descriptionParagraphs>
export type CpcAssignmentRow = RowOf<typeof cpcAssignments>
export type CitationRow = RowOf<typeof citations>
export type ContinuityRow = RowOf<typeof continuity>
export type ExaminerRecordRow = RowOf<typeof examinerRecords>
export type ProsecutionEventRow = RowOf<typeof prosecutionEvents>
export type OfficeActionRow = RowOf<typeof officeActions>
export type CpcSchemeRow = RowOf<typeof cpcScheme>
export type MpepSectionRow = RowOf<typeof mpepSections>
export type EpoSectionRow = RowOf<typeof epoSections>
export type FormParagraphRow = RowOf<typeof formParagraphs>
export type DesignCodeRow = RowOf<typeof designCodes>
