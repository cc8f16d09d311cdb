/**
 * BM25 query scoring over the lexical stage's files (pipeline/lexical/stage.ts): the term
 * dictionary and the posting-id → key map are held in memory; each query term's postings slice
 * (uint32 ids, then float32 impacts) is read from postings.bin at its offset, so a query costs
 * one positioned read per distinct term and never scans the whole file.
 *
 * Queries are tokenised exactly as the stage tokenised documents (core/text/tokenize.ts, unigram
 * stems); a stem repeated in the query counts once, as the impacts already carry BM25's
 * saturation on the document side.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { tokenizePatentText } from "../text/tokenize.ts"
import type { Rows, SearchCorpus } from "./corpus.ts"
import { type Scored, TopK } from "./top-k.ts"

/** Query stems searched at most (see queryTerms). */
export const MAX_QUERY_TERMS = 32

export class LexicalIndex {
  private readonly scores: Float64Array
  private constructor(
    private readonly terms: ReadonlyMap<string, { readonly offset: number; readonly length: number }>,
    /** Posting doc id → corpus key (−1 when the application has no key). */
    private readonly docKey: Int32Array,
    private readonly file: fs.FileHandle,
    private readonly maxQueryTerms = MAX_QUERY_TERMS
  ) {
    this.scores = new Float64Array(docKey.length)
  }

  static async open(versionDir: string, rows: Rows, corpus: SearchCorpus): Promise<LexicalIndex> {
    const terms = new Map<string, { offset: number; length: number }>()
    for (const r of await rows(`SELECT term, "offset", length FROM lexical_terms`)) terms.set(String(r.term), { offset: Number(r.offset), length: Number(r.length) })
    const docs = await rows(`SELECT doc, app_num FROM lexical_docs`)
    const docKey = new Int32Array(docs.length).fill(-1)
    for (const r of docs) docKey[Number(r.doc)] = corpus.keyOf.get(String(r.app_num)) ?? -1
    const file = await fs.open(path.join(versionDir, "lexical", "postings.bin"), "r")
    return new LexicalIndex(terms, docKey, file)
  }

  close() {
    return this.file.close()
  }

  /** BM25 idf of a stem; a stem the corpus never uses is as telling as the rarest. */
  idf(stem: string): number {
    const n = this.docKey.length
    const df = this.terms.get(stem)?.length ?? 0
    return Math.log(1 + (n - df + 0.5) / (df + 0.5))
  }

  /**
   * The query's most telling stems: distinct stems found in the dictionary, ranked by query
   * frequency × idf, at most `limit` (MoreLikeThis-style term selection). A search query here is
   * a whole abstract and claim; its commonest words ("said", "wherein", "device") carry almost no
   * BM25 weight but have the longest posting lists, which at a million documents cost more to
   * read than everything else in a search.
   */
  queryTerms(text: string, limit = this.maxQueryTerms) {
    const qtf = new Map<string, number>()
    for (const t of tokenizePatentText(text)) if (this.terms.has(t.stem)) qtf.set(t.stem, (qtf.get(t.stem) ?? 0) + 1)
    const weight = (term: string) => qtf.get(term)! * this.idf(term)
    return [...qtf.keys()].sort((a, b) => weight(b) - weight(a) || (a < b ? -1 : 1)).slice(0, limit)
  }

  /** The `depth` best keys by BM25 among those `accepts` admits. */
  async search(text: string, depth: number, accepts: (key: number) => boolean = () => true): Promise<Scored[]> {
    const slices = await Promise.all(
      this.queryTerms(text).map(async (term) => {
        const { offset, length } = this.terms.get(term)!
        const buf = new ArrayBuffer(length * 8)
        await this.file.read(new Uint8Array(buf), 0, buf.byteLength, offset * 8)
        return { ids: new Uint32Array(buf, 0, length), impacts: new Float32Array(buf, length * 4, length) }
      })
    )
    // Accumulate synchronously: no await between here and the reset, so concurrent queries
    // never share the score array.
    const touched: number[] = []
    for (const { ids, impacts } of slices) {
      for (let i = 0; i < ids.length; i++) {
        const d = ids[i]
        if (this.scores[d] === 0) touched.push(d)
        this.scores[d] += impacts[i]
      }
    }
    const top = new TopK(depth)
    for (const d of touched) {
      const key = this.docKey[d]
      if (key >= 0 && accepts(key)) top.push(key, this.scores[d])
      this.scores[d] = 0
    }
    return top.sorted()
  }
}
