/**
 * What the serving stage writes: one record file per lookup the API makes, each from one SQL
 * statement over the version's tables ordered by key. Grouped specs gather consecutive rows of a
 * key into one record (a list); the others take one row per key.
 *
 * The SQL is the API's own (the same columns, conversions and order), with the per-request
 * `WHERE key = …` lifted into an ORDER BY, so a record reads back as the rows the route read before.
 */
import { RecordFileKind } from "../../core/serving/records.ts"
import { RECORDS } from "../../core/serving/names.ts"
import { heavySections, variantArtUnitSql } from "../../core/prosecution/sections.ts"


export interface RecordSpec {
  readonly name: string
  readonly kind: RecordFileKind
  /** Tables the statement reads; the spec is skipped (and noted) when one is missing. */
  readonly tables: ReadonlyArray<string>
  /** Returns a `k` column plus the record's columns (bytewise order for text keys). */
  readonly select: string
  /**
   * The order of the select's rows, over its output columns: k first, then the order of a key's
   * rows within its record. Kept apart from the select so that a nightly build can filter the
   * select to changed keys and still order what it writes exactly as a full build does.
   */
  readonly order: string
  /** Gather rows of one key into a list (else one row per key). */
  readonly grouped: boolean
  /**
   * Tables whose nightly change lists (pipeline/ingest/changes.ts) name every key whose record may
   * differ: the record of key k is made only of rows of these tables whose entity is k. A nightly
   * build then neither fingerprints the whole table nor reads it, only the keys listed. Absent
   * where a record reads other rows (the vector key of an application moves when an application
   * before it is added) or is keyed otherwise than its table's entity.
   */
  readonly changesWith?: ReadonlyArray<string>
  /**
   * Where the record's key is not the listed tables' entity: this spec's keys of the listed
   * entities (relation `listed`, column k), then and now. `earlier(rel)` reads a file of the
   * version taken over from. The listed rows files then do not hold every row of a key: the
   * tables are read for the keys.
   */
  readonly keysOfListed?: (listed: string, earlier: (rel: string) => string) => string
  /**
   * Keys whose record changed otherwise than through the listed tables (relation, column k): a
   * later stage's output the record also reads, compared with the earlier version's.
   */
  readonly alsoChanged?: (earlier: (rel: string) => string) => string
}

export const recordSpecs: ReadonlyArray<RecordSpec> = [
  {
    name: RECORDS.applications,
    kind: RecordFileKind.Keyed,
    tables: ["applications", "vectors"],
    grouped: false,
    changesWith: ["applications"],
    // An application's vector key moves when one before it gains or loses a vector.
    alsoChanged: (earlier) => `
      SELECT coalesce(n.app_num, e.app_num) AS k
      FROM (SELECT app_num, min(key) AS key FROM vectors GROUP BY app_num) n
      FULL JOIN (SELECT app_num, min(key) AS key FROM ${earlier("index/vectors.parquet")} GROUP BY app_num) e ON e.app_num = n.app_num
      WHERE n.key IS DISTINCT FROM e.key`,
    select: `
      SELECT a.app_num AS k, any_value(a.title) AS title, any_value(a.abstract) AS abstract, any_value(a.pub_num) AS pub_num,
             any_value(a.kind) AS kind, any_value(a.art_unit) AS art_unit,
             any_value(strftime(a.filing_date, '%Y-%m-%d')) AS filing_date, min(v.key)::BIGINT AS key
      FROM applications a LEFT JOIN vectors v ON v.app_num = a.app_num
      WHERE a.app_num IS NOT NULL GROUP BY a.app_num`,
    order: "k"
  },
  {
    name: RECORDS.claims,
    kind: RecordFileKind.Keyed,
    tables: ["claims"],
    grouped: true,
    changesWith: ["claims"],
    select: `SELECT app_num AS k, claim_num, text, depends_on, is_independent FROM claims WHERE app_num IS NOT NULL`,
    order: "k, claim_num"
  },
  {
    name: RECORDS.points,
    kind: RecordFileKind.Ordinal,
    tables: ["coordinates", "applications", "cpc_assignments"],
    grouped: false,
    // The points rule of api/patent-map/points.ts: the main symbol's section, else the alphabetically first.
    select: `
      WITH a AS (SELECT app_num, any_value(art_unit) AS art_unit, any_value(strftime(filing_date, '%Y-%m-%d')) AS filing_date, any_value(title) AS title
                 FROM applications GROUP BY app_num),
      s AS (SELECT app_num, coalesce(arg_min(section, symbol) FILTER (WHERE is_main), arg_min(section, symbol)) AS section
            FROM cpc_assignments GROUP BY app_num)
      SELECT c.key AS k, c.app_num, c.x, c.y, c.z, s.section, a.art_unit, a.filing_date, a.title
      FROM coordinates c LEFT JOIN a USING (app_num) LEFT JOIN s USING (app_num)`,
    order: "k"
  },
  {
    name: RECORDS.citations,
    kind: RecordFileKind.Keyed,
    tables: ["citations"],
    grouped: true,
    changesWith: ["citations"],
    select: `SELECT citing_app AS k, cited_app, cited_doc, examiner_cited, citing_filing_year FROM citations WHERE citing_app IS NOT NULL`,
    order: "k, coalesce(cited_app, cited_doc)"
  },
  {
    name: RECORDS.publications,
    kind: RecordFileKind.Keyed,
    tables: ["publications"],
    grouped: true,
    changesWith: ["publications"],
    // Keyed by publication number: the numbers the listed applications are published under, then and now.
    keysOfListed: (listed, earlier) => `
      SELECT pub_num AS k FROM publications WHERE app_num IN (SELECT k FROM ${listed}) AND pub_num IS NOT NULL
      UNION SELECT pub_num AS k FROM ${earlier("tables/publications.parquet")} WHERE app_num IN (SELECT k FROM ${listed}) AND pub_num IS NOT NULL`,
    select: `SELECT DISTINCT pub_num AS k, app_num, kind FROM publications WHERE pub_num IS NOT NULL AND app_num IS NOT NULL`,
    order: "k, app_num"
  },
  {
    name: RECORDS.cpc,
    kind: RecordFileKind.Keyed,
    tables: ["cpc_assignments"],
    grouped: true,
    changesWith: ["cpc_assignments"],
    select: `SELECT app_num AS k, symbol, bool_or(is_inventive) AS inventive, bool_or(is_main) AS main FROM cpc_assignments
          WHERE app_num IS NOT NULL AND symbol IS NOT NULL GROUP BY app_num, symbol`,
    order: "k, main DESC, inventive DESC, symbol"
  },
  {
    name: RECORDS.paragraphs,
    kind: RecordFileKind.Keyed,
    tables: ["description_paragraphs"],
    grouped: true,
    changesWith: ["description_paragraphs"],
    select: `SELECT app_num AS k, seq, para_num, heading, text FROM description_paragraphs WHERE app_num IS NOT NULL`,
    order: "k, seq"
  },
  {
    name: RECORDS.parents,
    kind: RecordFileKind.Keyed,
    tables: ["continuity"],
    grouped: true,
    changesWith: ["continuity"],
    select: `SELECT child_app AS k, parent_app, relation, parent_filed FROM (
            SELECT DISTINCT child_app, parent_app, relation, parent_filing_date, strftime(parent_filing_date, '%Y-%m-%d') AS parent_filed FROM continuity
            WHERE child_app IS NOT NULL AND parent_app IS NOT NULL AND parent_app <> child_app)`,
    order: "k, parent_filed NULLS LAST, parent_app"
  },
  {
    name: RECORDS.examiners,
    kind: RecordFileKind.Keyed,
    tables: ["examiner_statistics", "examiners"],
    grouped: false,
    // The variant art unit per examiner aggregated once and joined (a correlated subquery per
    // examiner cost three times as much on the sample's 5,143 examiners).
    // The heavy sections (lists of applications: hundreds of kilobytes for a busy examiner) are
    // withheld by default, so the profile record carries only their sizes and the ten largest
    // document codes, which the prosecution stage wrote beside them (parsing every list here was
    // most of a night's serving stage at 1M); the sections themselves are in examiner_sections.
    // The heavy columns are never read here: the window below would carry them along.
    select: `WITH v AS (SELECT examiner_id, ${variantArtUnitSql} AS variant_art_unit FROM examiners x GROUP BY examiner_id)
          SELECT s.examiner_id AS k, s.* EXCLUDE (section_sizes, top_codes), v.variant_art_unit, s.section_sizes, s.top_codes
          FROM (SELECT * EXCLUDE (${heavySections.join(", ")}) FROM examiner_statistics
                QUALIFY row_number() OVER (PARTITION BY examiner_id ORDER BY full_name, art_unit) = 1) s
          LEFT JOIN v ON v.examiner_id = s.examiner_id
          WHERE s.examiner_id IS NOT NULL`,
    order: "k"
  },
  {
    name: RECORDS.examinerSections,
    kind: RecordFileKind.Keyed,
    tables: ["examiner_statistics"],
    grouped: false,
    // The prosecution stage writes one row per examiner (examiners.ts): no window over these
    // columns, which hold every examiner's lists of applications (hundreds of megabytes at 1M).
    select: `SELECT examiner_id AS k, ${heavySections.join(", ")} FROM examiner_statistics WHERE examiner_id IS NOT NULL`,
    order: "k"
  },
  {
    name: RECORDS.artUnits,
    kind: RecordFileKind.Keyed,
    tables: ["art_unit_profiles"],
    grouped: false,
    select: `SELECT art_unit AS k, * FROM (SELECT * FROM art_unit_profiles QUALIFY row_number() OVER (PARTITION BY art_unit) = 1)
          WHERE art_unit IS NOT NULL`,
    order: "k"
  }
]
