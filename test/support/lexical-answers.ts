/**
 * What a version's lexical index answers, for comparing a night's (postings beside a linked base)
 * with a whole write's: each query's BM25 hits (application, score) and every query stem's df.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import * as path from "node:path"
import { createTableViews, tableRelation } from "../../core/artifacts/table-delta.ts"
import { loadSearchCorpus } from "../../core/search/corpus.ts"
import { LexicalIndex } from "../../core/search/lexical.ts"

const VIEWS: Readonly<Record<string, string>> = {
  "tables/applications.parquet": "applications",
  "tables/cpc_assignments.parquet": "cpc_assignments",
  "index/vectors.parquet": "vectors",
  "lexical/lexical_terms.parquet": "lexical_terms",
  "lexical/lexical_docs.parquet": "lexical_docs"
}

export const lexicalAnswers = async (versionDir: string, queries: ReadonlyArray<string>, depth = 30) => {
  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  try {
    await createTableViews(conn, versionDir, { name: (rel) => VIEWS[rel] })
    const rows = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[]
    const corpus = await loadSearchCorpus(rows)
    const lexical = await LexicalIndex.open(versionDir, rows, corpus)
    try {
      const answers = []
      for (const q of queries) {
        const hits = await lexical.search(q, depth)
        answers.push({
          query: q,
          hits: hits.map((h) => `${corpus.appNums[h.key]} ${h.score}`),
          df: lexical.queryTerms(q, Infinity).map((t) => `${t} ${lexical.documentFrequency(t)}`)
        })
      }
      return { documents: lexical.documents, answers }
    } finally {
      await lexical.close()
    }
  } finally {
    conn.closeSync()
    db.closeSync()
  }
}

/** Titles of some of a version's applications, as queries. */
export const titleQueries = async (versionDir: string, count = 40) => {
  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  try {
    const applications = await tableRelation(conn, path.join(versionDir, "tables", "applications.parquet"))
    const rows = (await conn.runAndReadAll(`SELECT title FROM ${applications} WHERE title IS NOT NULL ORDER BY hash(app_num) LIMIT ${count}`)).getRowsJS() as [string][]
    return rows.map(([t]) => t)
  } finally {
    conn.closeSync()
    db.closeSync()
  }
}
