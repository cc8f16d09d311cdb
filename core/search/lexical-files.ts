/**
 * The lexical stage's files (pipeline/lexical/stage.ts), as the stage writes them and the search
 * reads them.
 *
 *   lexical/lexical.json           LexicalInfo
 *   lexical/lexical_docs.parquet   doc, app_num, len, text_hash: one row per indexed document
 *   lexical/lexical_terms.parquet  term, df, offset, length, delta_offset, delta_length
 *   lexical/postings.bin           per term in term order: its document ids ascending (uint32),
 *                                  then as many values (float32): term counts, or BM25 impacts in
 *                                  versions written before counts (LexicalInfo.postings)
 *   lexical/postings.delta.bin     the same for the documents added since postings.bin was
 *                                  written (ids above every id of the base), at delta_offset
 *   lexical/lexical_tf.parquet     doc, term, tf, read as a table with a delta beside it
 *                                  (core/artifacts/table-delta.ts, entity `doc`)
 *
 * A night keeps the earlier version's postings.bin (hard-linked) and writes only the new documents'
 * postings beside it: document ids are given by arrival, and a document whose text changed or went
 * leaves its id behind unused (a row of lexical_docs no more; df counts only documents that are
 * indexed). BM25 is computed from the counts at query time, because idf and the average length
 * move with every document and impacts stored in a linked file could not follow them.
 */
export const LEXICAL_INFO = "lexical/lexical.json"
export const LEXICAL_DOCS = "lexical/lexical_docs.parquet"
export const LEXICAL_TERMS = "lexical/lexical_terms.parquet"
export const LEXICAL_POSTINGS = "lexical/postings.bin"
export const LEXICAL_POSTINGS_DELTA = "lexical/postings.delta.bin"
/** Per posting document, its stems' counts: what a later build takes over. */
export const LEXICAL_TERM_COUNTS = "lexical/lexical_tf.parquet"

export interface LexicalInfo {
  /** Indexed documents (rows of lexical_docs). */
  readonly documents: number
  /** Mean length of the indexed documents in stems: their summed length over `documents`. */
  readonly averageLength: number
  readonly k1: number
  readonly b: number
  readonly fields: ReadonlyArray<string>
  readonly tokenizer: unknown
  /** What the postings' values are; absent in versions that stored impacts. */
  readonly postings?: "counts"
  /** The next document id a night gives; ids of postings.bin are below `baseDocs`. */
  readonly nextDoc?: number
  /** Document ids below this are postings.bin's; at or above it, postings.delta.bin's. */
  readonly baseDocs?: number
  /** Postings in postings.bin (entries), the measure a delta is held against. */
  readonly basePostings?: number
  /** Postings in postings.delta.bin. */
  readonly deltaPostings?: number
}

/** BM25 (k1 = 1.2, b = 0.75). */
export const BM25_K1 = 1.2
export const BM25_B = 0.75

/** BM25's idf of a term in `df` of `n` documents. */
export const bm25Idf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5))

/**
 * A posting's BM25 impact as float32, computed the same way whichever build wrote the counts:
 * idf · tf · (k1 + 1) / (tf + k1 · (1 − b + b · len / avglen)).
 */
export const bm25Impact = (idf: number, tf: number, len: number, averageLength: number, k1 = BM25_K1, b = BM25_B) =>
  Math.fround((idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * len) / Math.max(averageLength, 1e-9))))
