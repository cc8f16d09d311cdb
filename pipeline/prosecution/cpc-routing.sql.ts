/**
 * prosecution/cpc_routing.parquet: the empirical CPC → art-unit routing. For every CPC symbol
 * at every level (section, class, subclass, main group, each subgroup level), the art units
 * that examined applications classified under it.
 *
 * An application counts once under a symbol when any of its CPC symbols (inventive or
 * additional) is that symbol or lies below it. Ancestors come from the scheme's parent chain
 * (so intermediate subgroup levels are included) and, for symbols the scheme does not know,
 * from the symbol's own syntax (A → A01 → A01B → A01B1/00). Only applications with an art
 * unit count.
 *
 *   total_count        applications under the symbol
 *   distribution       [{au, count, probability = count / total_count}] by count desc, then au
 *   unique_art_units   number of art units in the distribution (the true total; the API truncates the list)
 *   top_art_unit       the first entry; top_art_unit_probability its probability
 *   entropy            Shannon entropy of the distribution in bits (0 = one art unit takes all;
 *                      log2(unique_art_units) = spread evenly). Low entropy: the symbol predicts the art unit.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { copyToParquet } from "../stages/tables.ts"

/** Level of a symbol from its syntax: 1 section, 2 class, 3 subclass, 4 main group, 5 subgroup. */
export const syntacticLevelSql = (col: string) => `CASE
    WHEN length(${col}) = 1 THEN 1
    WHEN length(${col}) = 3 THEN 2
    WHEN length(${col}) = 4 THEN 3
    WHEN ${col} LIKE '%/00' THEN 4
    ELSE 5 END`

export const cpcRoutingSql: ReadonlyArray<string> = [
  `CREATE OR REPLACE TEMP TABLE cpc_used AS
   SELECT DISTINCT upper(replace(symbol, ' ', '')) AS symbol FROM cpc_assignments WHERE symbol IS NOT NULL AND trim(symbol) <> ''`,
  `CREATE OR REPLACE TEMP TABLE cpc_ancestors AS
   WITH RECURSIVE chain(symbol, ancestor) AS (
     SELECT symbol, symbol FROM cpc_used
     UNION
     SELECT c.symbol, p.parent FROM chain c JOIN cpc_scheme p ON p.symbol = c.ancestor
     WHERE p.parent IS NOT NULL AND p.parent <> '')
   SELECT symbol, ancestor FROM chain
   UNION SELECT symbol, substr(symbol, 1, 1) FROM cpc_used WHERE length(symbol) >= 1
   UNION SELECT symbol, substr(symbol, 1, 3) FROM cpc_used WHERE length(symbol) >= 3
   UNION SELECT symbol, substr(symbol, 1, 4) FROM cpc_used WHERE length(symbol) >= 4
   UNION SELECT symbol, regexp_extract(symbol, '^([A-HY]\\d\\d[A-Z]\\d+)/', 1) || '/00' FROM cpc_used
     WHERE regexp_matches(symbol, '^[A-HY]\\d\\d[A-Z]\\d+/')`,
  `CREATE OR REPLACE TEMP TABLE cpc_routed AS
   SELECT DISTINCT an.ancestor AS symbol, a.app_num, s.art_unit AS au
   FROM cpc_assignments a
   JOIN cpc_ancestors an ON an.symbol = upper(replace(a.symbol, ' ', ''))
   JOIN app_stats s ON s.app_num = a.app_num
   WHERE s.art_unit IS NOT NULL`
]

export const cpcRoutingSelect = `
  WITH c AS (SELECT symbol, au, count(*) AS n FROM cpc_routed GROUP BY symbol, au),
  t AS (SELECT symbol, sum(n) AS total FROM c GROUP BY symbol)
  SELECT c.symbol,
    coalesce(any_value(sc.level), ${syntacticLevelSql("c.symbol")})::INTEGER AS level,
    any_value(t.total)::INTEGER AS total_count,
    count(*)::INTEGER AS unique_art_units,
    (max(c.n) / any_value(t.total))::DOUBLE AS top_art_unit_probability,
    greatest(0.0, -sum((c.n / t.total) * log2(c.n / t.total)))::DOUBLE AS entropy,
    list(struct_pack(au := c.au, count := c.n::INTEGER, probability := (c.n / t.total)::DOUBLE) ORDER BY c.n DESC, c.au) AS distribution
  FROM c JOIN t USING (symbol) LEFT JOIN cpc_scheme sc ON sc.symbol = c.symbol
  GROUP BY c.symbol
  ORDER BY c.symbol`

export const writeCpcRouting = async (conn: DuckDBConnection, file: string) => {
  for (const sql of cpcRoutingSql) await conn.run(sql)
  // The top art unit is the first distribution entry (ties broken by the lower art unit).
  return copyToParquet(
    conn,
    `SELECT symbol, level, total_count, unique_art_units, distribution[1].au AS top_art_unit, top_art_unit_probability, entropy, distribution
     FROM (${cpcRoutingSelect})`,
    file
  )
}
