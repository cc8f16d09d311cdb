/**
 * The serving structures of a version (record files under serving/, see records.ts) and the shape
 * of their records. Each is derived from the Parquet tables by pipeline/serving and read by key
 * by the API; a record holds the rows the API's SQL over the tables returned for that key.
 */

/** applications, by app_num: the application row the routes show, with its vector key (null: no vector). */
export interface ApplicationRecord {
  readonly title: string | null
  readonly abstract: string | null
  readonly pub_num: string | null
  readonly kind: string | null
  readonly art_unit: string | null
  readonly filing_date: string | null
  readonly key: number | null
}

/** claims, by app_num: every claim row in claim order. */
export interface ClaimRecordRow {
  readonly claim_num: number
  readonly text: string | null
  readonly depends_on: ReadonlyArray<number> | null
  readonly is_independent: boolean | null
}

/** points, by vector key: the map point with the attributes every patent-map route returns. */
export interface PointRecord {
  readonly app_num: string
  readonly x: number
  readonly y: number
  readonly z: number
  readonly section: string | null
  readonly art_unit: string | null
  readonly filing_date: string | null
  readonly title: string | null
}

/** citations, by citing_app: one row per citation as stored. */
export interface CitationRecordRow {
  readonly cited_app: string | null
  readonly cited_doc: string | null
  readonly examiner_cited: boolean | null
  readonly citing_filing_year: number | null
}

/** publications, by pub_num: the applications published under the number. */
export interface PublicationRecordRow {
  readonly app_num: string
  readonly kind: string | null
}

/** cpc, by app_num: symbols in served order (main, then inventive, then by symbol). */
export interface CpcRecordRow {
  readonly symbol: string
  readonly inventive: boolean
  readonly main: boolean
}

/** paragraphs, by app_num: description paragraphs in order. */
export interface ParagraphRecordRow {
  readonly seq: number
  readonly para_num: string | null
  readonly heading: string | null
  readonly text: string | null
}

/** parents, by child_app: continuity parents, earliest filed first. */
export interface ParentRecordRow {
  readonly parent_app: string
  readonly relation: string | null
  readonly parent_filed: string | null
}

/** Names of the record files; the stage writes them all, the API opens those present. */
export const RECORDS = {
  applications: "applications",
  claims: "claims",
  points: "points",
  citations: "citations",
  publications: "publications",
  cpc: "cpc",
  paragraphs: "paragraphs",
  parents: "parents",
  examiners: "examiners",
  examinerSections: "examiner_sections",
  artUnits: "art_units"
} as const
