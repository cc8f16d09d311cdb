/**
 * The published tables as SQL over the raw_* tables: one row per real entity.
 *
 * When one application appears in several sources, each field is taken from the most
 * authoritative source that has it (grant XML, then ppubs full text, application XML,
 * ppubs biblio, PEDS ST96, PEDS search, office actions), except the prosecution status,
 * which PEDS knows best. Document-shaped data (claims, description, CPC, events) is taken
 * whole from the single best (source, file) of the application, never mixed from two documents.
 *
 * Every table is a function of its entities one by one (see `entity`): the nightly merge
 * recomputes only the entities that changed (merge.ts).
 */
const prio = (col = "source") => `CASE ${col}
  WHEN 'uspto-grant-xml' THEN 1 WHEN 'ppubs-fulltext' THEN 2 WHEN 'uspto-app-xml' THEN 3
  WHEN 'ppubs-biblio' THEN 4 WHEN 'peds-st96' THEN 5 WHEN 'peds-search' THEN 6 ELSE 9 END`

const statusPrio = `CASE source WHEN 'peds-st96' THEN 1 WHEN 'peds-search' THEN 2 ELSE 3 + ${prio()} END`

/**
 * An order "(leading…, _doc, _seq)" as one integer, so arg_min compares integers, not structs:
 * `_pos` is (_doc, _seq) packed into a BIGINT (see mergePartitions) and each leading key, a small
 * number from 0 to 15 (a priority, a boolean), takes four bits above it in a HUGEINT.
 */
const rank = (...leading: string[]) =>
  leading.length === 0 ? "_pos" : `(${leading.map((k, i) => `((${k})::HUGEINT << ${64 + 4 * (leading.length - 1 - i)})`).join(" + ")} + _pos)`

const pick = (col: string, order = rank("prio"), cond = `${col} IS NOT NULL`) => `arg_min(${col}, ${order}) FILTER (WHERE ${cond})`
const textCond = (col: string) => `${col} IS NOT NULL AND trim(${col}) <> ''`
const pickText = (col: string) => pick(col, undefined, textCond(col))
const pickDate = (col: string) => `TRY_CAST(${pick(col, undefined, `TRY_CAST(${col} AS DATE) IS NOT NULL`)} AS DATE)`

/** The best (source, file) per application for document-shaped tables. */
const bestDoc = (raw: string, key = "app_num") => `
  SELECT ${key}, arg_min(source, ${rank(prio())}) AS b_source, arg_min(_file, ${rank(prio())}) AS b_file
  FROM ${raw} GROUP BY ${key}`

/** The value a column has in the document's first row for the group (rows of one document are ordered). */
const first = (col: string) => `arg_min(r.${col}, r._pos)`

/**
 * Text columns are not aggregated. An aggregate's state holds its value, DuckDB cannot spill the
 * strings a hash-aggregate state holds, and a million applications' abstracts, claims and
 * paragraphs in those states need several GB. So the aggregate keeps the winning row's `_pos`
 * (an integer, unique per raw table) and the text is fetched from the raw table by a join after
 * it (a join and the table it fills can spill). The position is taken with the same order and
 * condition as the value was, and arg_min skips rows whose value is NULL, so the position is
 * that of the first row with a value: the very row the value came from, column by column.
 */
const pickTextPos = (col: string) => `arg_min(_pos, ${rank("prio")}) FILTER (WHERE ${textCond(col)})`
const firstPos = (col: string) => `min(r._pos) FILTER (WHERE r.${col} IS NOT NULL)`

/** `select` with each of `texts` (there: the position of the row to take it from) replaced by the raw row's value. */
const fetchTexts = (select: string, raw: string, texts: ReadonlyArray<string>) =>
  texts.length === 0
    ? select
    : `
      WITH w AS (${select})
      SELECT w.* REPLACE (${texts.map((c) => `f_${c}.${c} AS ${c}`).join(", ")})
      FROM w ${texts.map((c) => `LEFT JOIN ${raw} f_${c} ON f_${c}._pos = w.${c}`).join(" ")}`

/**
 * A document-shaped table taken whole from each application's best (source, file), one row per
 * (app_num, key); `columns` maps output columns to aggregates over the alias `r`, and `texts`
 * names those of them that are `first` of a text column (fetched after the aggregate, see
 * fetchTexts). Every row of a group has the best source, so grouping by it too changes no group
 * and keeps the source out of the aggregate states.
 */
const fromBestDocument = (raw: string, key: string, columns: Readonly<Record<string, string>>, texts: ReadonlyArray<string> = []) =>
  fetchTexts(
    `
      WITH best AS (${bestDoc(raw)})
      SELECT r.app_num, r.${key}, ${Object.entries(columns).map(([name, expr]) => `${texts.includes(name) ? firstPos(name) : expr} AS ${name}`).join(", ")},
        r.source AS source
      FROM ${raw} r JOIN best b ON r.app_num = b.app_num AND r.source = b.b_source AND r._file = b.b_file
      GROUP BY r.app_num, r.${key}, r.source`,
    raw,
    texts
  )

/**
 * What one entity of a table is. Every row whose `column` holds a key is computed from the rows
 * of `raw` whose `rawKey` (an expression over a raw row; `column` when absent) equals that key,
 * and from nothing else except what `alsoFrom` names: the nightly merge relies on it to take
 * over the rows of every entity whose raw rows did not change.
 */
export interface Entity {
  readonly column: string
  readonly raw: string
  readonly rawKey?: string
  /**
   * Another raw table the rows also read across entities: `keys` selects the keys whose rows
   * change when rows of `raw` change, given those changed rows as the relation `changed`.
   */
  readonly alsoFrom?: { readonly raw: string; readonly keys: (changed: string) => string }
}

export interface PublishedTable {
  readonly name: string
  /** SELECT producing the table from the raw_* staging tables. */
  readonly select: string
  readonly orderBy: string
  readonly entity: Entity
}

/** One row per key, each column from the key's first raw row that has it (reference tables: the scheme, the manuals). */
const firstRowOfKey = (raw: string, key: string, columns: ReadonlyArray<string>) =>
  `SELECT ${key}, ${columns.map((c) => `arg_min(${c}, _pos) AS ${c}`).join(", ")} FROM ${raw} GROUP BY ${key}`

/** An examiner is one name, however spaced or cased. */
const examinerName = (col: string) => `upper(regexp_replace(trim(${col}), '\\s+', ' ', 'g'))`

const byApplication = (raw: string): Entity => ({ column: "app_num", raw })

export const publishedTables: ReadonlyArray<PublishedTable> = [
  {
    name: "applications",
    entity: byApplication("raw_application_records"),
    orderBy: "app_num",
    select: fetchTexts(
      `
      WITH r AS (SELECT *, ${prio()} AS prio, ${statusPrio} AS sprio FROM raw_application_records),
      grants AS (
        SELECT app_num, arg_min(pub_num, ${rank("prio")}) AS patent_number FROM r
        WHERE pub_num IS NOT NULL
          AND (status = 'granted' OR grant_date IS NOT NULL OR regexp_matches(coalesce(kind, ''), '^(B|S|P|E|H|RE)'))
          AND NOT regexp_matches(pub_num, '^\\d{11}$')
        GROUP BY app_num),
      pgpubs AS (
        SELECT app_num, arg_min(pub_num, ${rank("prio")}) AS pgpub_number FROM r
        WHERE pub_num IS NOT NULL AND regexp_matches(pub_num, '^\\d{11}$') GROUP BY app_num)
      SELECT r.app_num,
        coalesce(any_value(g.patent_number), any_value(p.pgpub_number)) AS pub_num,
        any_value(g.patent_number) AS patent_number,
        any_value(p.pgpub_number) AS pgpub_number,
        ${pickText("kind")} AS kind,
        coalesce(${pickText("doc_type")}, 'utility') AS doc_type,
        ${pickTextPos("title")} AS title,
        ${pickTextPos("abstract")} AS abstract,
        ${pickDate("filing_date")} AS filing_date,
        ${pickDate("pub_date")} AS pub_date,
        ${pickDate("grant_date")} AS grant_date,
        coalesce(${pickText("country")}, 'US') AS country,
        coalesce(${pick("assignees", undefined, "len(assignees) > 0")}, []::VARCHAR[]) AS assignees,
        coalesce(${pick("inventors", undefined, "len(inventors) > 0")}, []::VARCHAR[]) AS inventors,
        ${pickText("examiner")} AS examiner,
        ${pickText("art_unit")} AS art_unit,
        CASE WHEN ${pickText("art_unit")} IS NOT NULL THEN substr(${pickText("art_unit")}, 1, 2) || '00' END AS technology_center,
        ${pick("status", rank("sprio"), "status IS NOT NULL AND trim(status) <> ''")} AS status,
        TRY_CAST(${pick("status_date", rank("sprio"), "TRY_CAST(status_date AS DATE) IS NOT NULL")} AS DATE) AS status_date,
        list_sort(list_distinct(list(r.source))) AS sources
      FROM r LEFT JOIN grants g USING (app_num) LEFT JOIN pgpubs p USING (app_num)
      GROUP BY r.app_num`,
      "raw_application_records",
      ["title", "abstract"]
    )
  },
  {
    name: "publications",
    entity: byApplication("raw_application_records"),
    orderBy: "pub_num, app_num",
    select: `
      SELECT pub_num, app_num, arg_min(kind, ${rank(prio())}) AS kind, TRY_CAST(arg_min(pub_date, ${rank(prio())}) AS DATE) AS pub_date,
        CASE WHEN regexp_matches(pub_num, '^\\d{11}$') THEN 'pre-grant publication' ELSE 'patent' END AS pub_type
      FROM raw_application_records WHERE pub_num IS NOT NULL AND pub_num <> ''
      GROUP BY pub_num, app_num`
  },
  {
    name: "claims",
    entity: byApplication("raw_claims"),
    orderBy: "app_num, claim_num",
    select: fromBestDocument("raw_claims", "claim_num", {
      text: first("text"),
      depends_on: first("depends_on"),
      is_independent: first("is_independent")
    }, ["text"])
  },
  {
    name: "description_paragraphs",
    entity: byApplication("raw_description_paragraphs"),
    orderBy: "app_num, seq",
    select: fromBestDocument("raw_description_paragraphs", "seq", {
      para_num: first("para_num"),
      heading: first("heading"),
      text: first("text")
    }, ["heading", "text"])
  },
  {
    name: "cpc_assignments",
    entity: byApplication("raw_cpc_assignments"),
    orderBy: "app_num, is_main DESC, is_inventive DESC, symbol",
    select: fromBestDocument("raw_cpc_assignments", "symbol", {
      subclass: "any_value(r.subclass)",
      section: "any_value(r.section)",
      is_inventive: "bool_or(r.is_inventive)",
      is_main: "bool_or(r.is_main)"
    })
  },
  {
    name: "citations",
    entity: {
      column: "citing_app",
      raw: "raw_citations",
      // cited_app comes from the publications: a publication that appears, moves or goes changes
      // the rows of every application citing it.
      alsoFrom: {
        raw: "raw_application_records",
        keys: (changed) => `SELECT citing_app FROM raw_citations WHERE cited_doc IN (SELECT pub_num FROM ${changed} WHERE pub_num IS NOT NULL)`
      }
    },
    orderBy: "citing_app, examiner_cited DESC, cited_doc",
    select: `
      WITH c AS (
        SELECT citing_app, cited_doc, bool_or(examiner_cited) AS examiner_cited,
          arg_min(category, ${rank("NOT examiner_cited", prio())}) AS category,
          arg_min(cited_country, ${rank(prio())}) AS cited_country, arg_min(cited_kind, ${rank(prio())}) AS cited_kind,
          TRY_CAST(arg_min(cited_date, ${rank(prio())}) AS DATE) AS cited_date, max(citing_filing_year) AS citing_filing_year,
          arg_min(source, ${rank(prio())}) AS source
        FROM raw_citations GROUP BY citing_app, cited_doc),
      pubs AS (SELECT pub_num, min(app_num) AS app_num FROM raw_application_records WHERE pub_num IS NOT NULL GROUP BY pub_num)
      SELECT c.*, pubs.app_num AS cited_app FROM c LEFT JOIN pubs ON pubs.pub_num = c.cited_doc
      -- Some sources list the application's own pre-grant publication among its references: not prior art.
      WHERE pubs.app_num IS DISTINCT FROM c.citing_app`
  },
  {
    name: "continuity",
    entity: { column: "child_app", raw: "raw_continuity" },
    orderBy: "child_app, parent_app, relation",
    // A relation seen only from the parent's side carries no type (OTHER); the child's own record
    // names it (CON, DIV, …), so OTHER is dropped wherever a typed row exists for the same pair.
    select: `
      WITH c AS (
        SELECT child_app, parent_app, relation, TRY_CAST(max(parent_filing_date) AS DATE) AS parent_filing_date,
          arg_min(source, ${prio()}) AS source
        FROM raw_continuity WHERE child_app <> parent_app GROUP BY child_app, parent_app, relation)
      SELECT * FROM c WHERE relation <> 'OTHER'
        OR NOT EXISTS (SELECT 1 FROM c t WHERE t.child_app = c.child_app AND t.parent_app = c.parent_app AND t.relation <> 'OTHER')`
  },
  {
    name: "examiners",
    entity: { column: "full_name", raw: "raw_examiner_records", rawKey: examinerName("full_name") },
    orderBy: "examiner_id",
    select: `
      WITH n AS (
        SELECT ${examinerName("full_name")} AS full_name, art_unit, employee_number, app_num
        FROM raw_examiner_records WHERE trim(full_name) <> ''),
      au AS (SELECT full_name, art_unit, count(*) AS k FROM n WHERE art_unit IS NOT NULL GROUP BY ALL)
      SELECT trim(regexp_replace(lower(n.full_name), '[^a-z0-9]+', '-', 'g'), '-') AS examiner_id,
        n.full_name,
        trim(split_part(n.full_name, ',', 1)) AS surname,
        (SELECT arg_max(art_unit, (k, art_unit)) FROM au WHERE au.full_name = n.full_name) AS art_unit,
        list_sort(list_distinct(list(n.art_unit) FILTER (WHERE n.art_unit IS NOT NULL))) AS art_units,
        max(n.employee_number) AS employee_number,
        count(DISTINCT n.app_num) AS application_count
      FROM n GROUP BY n.full_name`
  },
  {
    name: "prosecution_events",
    entity: byApplication("raw_prosecution_events"),
    orderBy: "app_num, seq",
    select: fromBestDocument("raw_prosecution_events", "seq", {
      event_date: `TRY_CAST(${first("event_date")} AS DATE)`,
      code: first("code"),
      description: first("description")
    }, ["description"])
  },
  {
    name: "office_actions",
    entity: { column: "document_id", raw: "raw_office_actions" },
    orderBy: "app_num, mail_date, document_id",
    select: fetchTexts(
      `
      SELECT document_id, arg_min(app_num, _pos) AS app_num, arg_min(document_code, _pos) AS document_code,
        TRY_CAST(arg_min(mail_date, _pos) AS DATE) AS mail_date, arg_min(art_unit, _pos) AS art_unit,
        arg_min(examiner_employee_number, _pos) AS examiner_employee_number,
        bool_or(rejection_101) AS rejection_101, bool_or(rejection_102) AS rejection_102, bool_or(rejection_103) AS rejection_103,
        bool_or(rejection_112) AS rejection_112, bool_or(rejection_dp) AS rejection_dp,
        min(_pos) FILTER (WHERE text IS NOT NULL) AS text, any_value(source) AS source
      FROM raw_office_actions GROUP BY document_id`,
      "raw_office_actions",
      ["text"]
    )
  },
  {
    name: "cpc_scheme",
    entity: { column: "symbol", raw: "raw_cpc_scheme" },
    orderBy: "symbol",
    select: firstRowOfKey("raw_cpc_scheme", "symbol", ["level", "title", "parent", "section"])
  },
  {
    name: "mpep_sections",
    entity: { column: "section_id", raw: "raw_mpep_sections" },
    orderBy: "section_id",
    select: firstRowOfKey("raw_mpep_sections", "section_id", ["title", "chapter", "revision", "content", "cross_refs", "source_file"])
  },
  {
    name: "epo_sections",
    entity: { column: "section_id", raw: "raw_epo_sections" },
    orderBy: "section_id",
    select: firstRowOfKey("raw_epo_sections", "section_id", ["ref", "part", "chapter", "title", "content", "url", "cross_refs"])
  },
  {
    name: "form_paragraphs",
    entity: { column: "code", raw: "raw_form_paragraphs" },
    orderBy: "code",
    select: `
      SELECT code,
        coalesce(arg_min(title, _pos) FILTER (WHERE source = 'index' AND title IS NOT NULL), arg_min(title, _pos) FILTER (WHERE title IS NOT NULL)) AS title,
        arg_min(template, _pos) FILTER (WHERE template IS NOT NULL) AS template,
        arg_min(examiner_notes, _pos) FILTER (WHERE examiner_notes IS NOT NULL) AS examiner_notes,
        arg_min(mpep_section, _pos) FILTER (WHERE mpep_section IS NOT NULL) AS mpep_section,
        arg_min(chapter, _pos) AS chapter,
        arg_min(variant, _pos) FILTER (WHERE variant IS NOT NULL) AS variant,
        list_sort(list_distinct(list(source))) AS sources
      FROM raw_form_paragraphs GROUP BY code`
  },
  {
    name: "design_codes",
    entity: { column: "code", raw: "raw_design_codes" },
    orderBy: "code",
    select: firstRowOfKey("raw_design_codes", "code", ["level", "parent", "description", "guidelines", "excludes"])
  }
]
