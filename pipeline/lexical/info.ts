/** What the lexical stage indexes, and lexical.json from its staging tables `docs` and `terms`. */
import type { DuckDBConnection } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { BM25_B, BM25_K1, LEXICAL_INFO, type LexicalInfo } from "../../core/search/lexical-files.ts"
import { defaultPatentTokenizerSettings } from "../../core/text/tokenize.ts"

/**
 * What is indexed: title and abstract of every application but design and plant ones, which have
 * no vector and are not prior art for a utility claim (SPEC 4.2): keeping them out of the postings
 * keeps them out of hybrid results too.
 */
export const INDEXED = `SELECT app_num, title, abstract FROM applications WHERE coalesce(doc_type, '') NOT IN ('design', 'plant')`

type Layout = Required<Pick<LexicalInfo, "nextDoc" | "baseDocs" | "basePostings" | "deltaPostings">>

/**
 * Writes lexical.json for the documents in `docs` and the terms in `terms` (those with df > 0 count).
 * The average length is the exact sum of lengths over the count, so a night and a whole write of the
 * same documents give the same number, and the same BM25.
 */
export const writeLexicalInfo = async (conn: DuckDBConnection, workDir: string, layout: Layout) => {
  const [[n, sum]] = (await conn.runAndReadAll(`SELECT count(*)::BIGINT, coalesce(sum(len), 0)::BIGINT FROM docs`)).getRowsJS() as [bigint, bigint][]
  const [[terms]] = (await conn.runAndReadAll(`SELECT count(*) FILTER (WHERE df > 0)::BIGINT FROM terms`)).getRowsJS() as [bigint][]
  const documents = Number(n)
  const info: LexicalInfo = {
    documents,
    averageLength: documents > 0 ? Number(sum) / documents : 0,
    k1: BM25_K1,
    b: BM25_B,
    fields: ["title", "abstract"],
    tokenizer: defaultPatentTokenizerSettings,
    postings: "counts",
    ...layout
  }
  await fs.writeFile(path.join(workDir, LEXICAL_INFO), JSON.stringify(info, null, 2))
  return { ...info, ...layout, terms: Number(terms) }
}

export const lexicalNotes = (info: LexicalInfo & Layout) => [
  info.deltaPostings > 0
    ? `postings: ${info.basePostings} in postings.bin (documents below id ${info.baseDocs}) and ${info.deltaPostings} of documents added since, in postings.delta.bin`
    : `postings: ${info.basePostings} in postings.bin`
]
