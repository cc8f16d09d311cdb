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

export class LexicalIndex {
  private readonly scores: Float64Array
  private constructor(
    private readonly terms: ReadonlyMap<string, { readonly offset: number; readonly length: number }>,
    /** Posting doc id → corpus key (−1 when the application has no key). */
    private readonly docKey: Int32Array,
    private readonly file: fs.FileHandle
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

  /** Distinct query stems found in the dictionary. */
  queryTerms(text: string) {
    return [...new Set(tokenizePatentText(text).map((t) => t.stem))].filter((s) => this.terms.has(s))
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
