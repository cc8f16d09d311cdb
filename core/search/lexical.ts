/**
 * BM25 query scoring over the lexical stage's files (core/search/lexical-files.ts): the term
 * dictionary, the posting-id → key map and the documents' lengths are held in memory; each query
 * term's postings (uint32 ids, then float32 counts) are read from postings.bin at its offset, and
 * from postings.delta.bin where a night added documents, so a query costs one or two positioned
 * reads per distinct term and never scans a whole file. Impacts are computed as the postings are
 * read (bm25Impact), from the version's document count and average length.
 *
 * Queries are tokenised exactly as the stage tokenised documents (core/text/tokenize.ts, unigram
 * stems); a stem repeated in the query counts once, as the impacts already carry BM25's
 * saturation on the document side.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { tokenizePatentText } from "../text/tokenize.ts"
import { BM25_B, BM25_K1, bm25Idf, bm25Impact, LEXICAL_INFO, LEXICAL_POSTINGS, LEXICAL_POSTINGS_DELTA, type LexicalInfo } from "./lexical-files.ts"
import type { Rows, SearchCorpus } from "./corpus.ts"
import { type Scored, TopK } from "./top-k.ts"

/** Query stems searched at most (see queryTerms). */
export const MAX_QUERY_TERMS = 32

/**
 * How a query's stems are chosen (see queryTerms): at most `maxTerms`, and none found in more than
 * `maxDocFraction` of the indexed documents (Lucene MoreLikeThis's maxDocFreqPct).
 */
export interface TermSelection {
  readonly maxTerms: number
  readonly maxDocFraction: number
}

/**
 * Stems found in more than a tenth of the documents are left out. Chosen on the dev split of the
 * held-out citations (`bench/lexical.ts --tune`): BM25 recall@100 / MRR unchanged on the sample
 * (0.397 / 0.166 → 0.397 / 0.167) and on 100,000 synthetic applications (0.638 / 0.118 → 0.655 /
 * 0.114), where the stems it drops (16 of 32 per query) held 90% of the postings a query read;
 * 0.05 lost recall on the sample (0.382). Test split: sample 0.420 / 0.181 → 0.428 / 0.181,
 * synthetic 0.607 / 0.149 → 0.606 / 0.144; a query reads 40,112 postings instead of 404,482.
 */
export const DEFAULT_TERM_SELECTION: TermSelection = { maxTerms: MAX_QUERY_TERMS, maxDocFraction: 0.1 }

/** A term's postings: where they are in postings.bin and in postings.delta.bin, and how many indexed documents use it. */
interface TermEntry {
  readonly df: number
  readonly offset: number
  readonly length: number
  readonly deltaOffset: number
  readonly deltaLength: number
}

/** How the postings' values become impacts. */
interface Scoring {
  /** Versions that stored BM25 impacts: the values are the impacts. */
  readonly counts: boolean
  readonly documents: number
  readonly averageLength: number
  readonly k1: number
  readonly b: number
  /** Length in stems per posting id (counts only). */
  readonly docLength: Float64Array
}

export class LexicalIndex {
  private readonly scores: Float64Array
  /** Largest impact per query term seen so far (a term's postings never change within a version). */
  private readonly maxImpact = new Map<string, number>()
  /** What searches have read so far (bench/lexical.ts). */
  private readonly stats = { queries: 0, terms: 0, postingsRead: 0, bytesRead: 0 }
  private constructor(
    private readonly terms: ReadonlyMap<string, TermEntry>,
    /** Posting doc id → corpus key (−1 when the application has no key, or the id is no longer a document's). */
    private readonly docKey: Int32Array,
    private readonly scoring: Scoring,
    private readonly file: fs.FileHandle,
    private readonly deltaFile: fs.FileHandle | undefined,
    readonly selection: TermSelection = DEFAULT_TERM_SELECTION
  ) {
    this.scores = new Float64Array(docKey.length)
  }

  /** The same index (sharing its dictionary and postings files) choosing query stems another way: for tuning (bench/lexical.ts). */
  withSelection(selection: TermSelection): LexicalIndex {
    return new LexicalIndex(this.terms, this.docKey, this.scoring, this.file, this.deltaFile, selection)
  }

  static async open(versionDir: string, rows: Rows, corpus: SearchCorpus, selection: TermSelection = DEFAULT_TERM_SELECTION): Promise<LexicalIndex> {
    const info = await fs
      .readFile(path.join(versionDir, LEXICAL_INFO), "utf8")
      .then((t) => JSON.parse(t) as Partial<LexicalInfo>)
      .catch(() => ({}) as Partial<LexicalInfo>)
    const counts = info.postings === "counts"
    const terms = new Map<string, TermEntry>()
    const delta = counts ? `, delta_offset, delta_length` : ""
    for (const r of await rows(`SELECT term, df, "offset", length${delta} FROM lexical_terms`)) {
      // A term only documents gone since the base used is in no document.
      if (Number(r.df) === 0) continue
      terms.set(String(r.term), {
        df: Number(r.df),
        offset: Number(r.offset),
        length: Number(r.length),
        deltaOffset: counts ? Number(r.delta_offset) : 0,
        deltaLength: counts ? Number(r.delta_length) : 0
      })
    }
    const docs = await rows(`SELECT doc, app_num, len FROM lexical_docs`)
    let ids = info.nextDoc ?? 0
    for (const r of docs) ids = Math.max(ids, Number(r.doc) + 1)
    const docKey = new Int32Array(ids).fill(-1)
    const docLength = new Float64Array(counts ? ids : 0)
    for (const r of docs) {
      const d = Number(r.doc)
      docKey[d] = corpus.keyOf.get(String(r.app_num)) ?? -1
      if (counts) docLength[d] = Number(r.len)
    }
    const scoring: Scoring = {
      counts,
      documents: info.documents ?? docs.length,
      averageLength: info.averageLength ?? 0,
      k1: info.k1 ?? BM25_K1,
      b: info.b ?? BM25_B,
      docLength
    }
    const file = await fs.open(path.join(versionDir, LEXICAL_POSTINGS), "r")
    const deltaFile = counts ? await fs.open(path.join(versionDir, LEXICAL_POSTINGS_DELTA), "r").catch(() => undefined) : undefined
    return new LexicalIndex(terms, docKey, scoring, file, deltaFile, selection)
  }

  async close() {
    await this.file.close()
    await this.deltaFile?.close()
  }

  /** How many indexed documents use a stem. */
  documentFrequency(stem: string): number {
    return this.terms.get(stem)?.df ?? 0
  }

  /** How many documents are indexed. */
  get documents(): number {
    return this.scoring.documents
  }

  /** BM25 idf of a stem; a stem the corpus never uses is as telling as the rarest. */
  idf(stem: string): number {
    return bm25Idf(this.documents, this.documentFrequency(stem))
  }

  /**
   * The query's most telling stems: distinct stems found in the dictionary, ranked by query
   * frequency × idf, at most `limit` (MoreLikeThis-style term selection). A search query here is
   * a whole abstract and claim; its commonest words ("said", "wherein", "device") carry almost no
   * BM25 weight but have the longest posting lists, which at a million documents cost more to
   * read than everything else in a search.
   */
  queryTerms(text: string, limit = this.selection.maxTerms) {
    const maxDf = this.selection.maxDocFraction * this.documents
    const qtf = new Map<string, number>()
    for (const t of tokenizePatentText(text)) {
      const df = this.terms.get(t.stem)?.df
      if (df !== undefined && df <= maxDf) qtf.set(t.stem, (qtf.get(t.stem) ?? 0) + 1)
    }
    const weight = (term: string) => qtf.get(term)! * this.idf(term)
    return [...qtf.keys()].sort((a, b) => weight(b) - weight(a) || (a < b ? -1 : 1)).slice(0, limit)
  }

  readStats(): Readonly<typeof this.stats> {
    return { ...this.stats }
  }

  /** One slice of a term's postings (ids, then as many float32 values) read from `file`. */
  private async readSlice(file: fs.FileHandle, offset: number, length: number) {
    this.stats.postingsRead += length
    this.stats.bytesRead += length * 8
    const buf = new ArrayBuffer(length * 8)
    if (length > 0) await file.read(new Uint8Array(buf), 0, buf.byteLength, offset * 8)
    return { ids: new Uint32Array(buf, 0, length), values: new Float32Array(buf, length * 4, length) }
  }

  /** A term's postings of indexed documents, with their impacts. */
  private async postingsOf(term: string): Promise<PostingSlice> {
    const entry = this.terms.get(term)!
    const base = await this.readSlice(this.file, entry.offset, entry.length)
    const added = this.deltaFile && entry.deltaLength > 0 ? await this.readSlice(this.deltaFile, entry.deltaOffset, entry.deltaLength) : undefined
    let ids: Uint32Array
    let impacts: Float32Array
    if (!this.scoring.counts) {
      ids = base.ids
      impacts = base.values
    } else {
      // Ids no document holds now (gone or reworded since the base was written) are left out, as are
      // those without a key, which no search admits; the rest get their impact.
      const { docLength, documents, averageLength, k1, b } = this.scoring
      const idf = bm25Idf(documents, entry.df)
      const total = base.ids.length + (added?.ids.length ?? 0)
      ids = new Uint32Array(total)
      impacts = new Float32Array(total)
      let n = 0
      for (const part of added ? [base, added] : [base]) {
        for (let i = 0; i < part.ids.length; i++) {
          const d = part.ids[i]
          if (this.docKey[d] === -1) continue
          ids[n] = d
          impacts[n++] = bm25Impact(idf, part.values[i], docLength[d], averageLength, k1, b)
        }
      }
      ids = ids.subarray(0, n)
      impacts = impacts.subarray(0, n)
    }
    let max = this.maxImpact.get(term)
    if (max === undefined) {
      max = 0
      for (let i = 0; i < impacts.length; i++) if (impacts[i] > max) max = impacts[i]
      this.maxImpact.set(term, max)
    }
    return { ids, impacts, max }
  }

  /** The `depth` best keys by BM25 among those `accepts` admits. */
  async search(text: string, depth: number, accepts: (key: number) => boolean = () => true): Promise<Scored[]> {
    const terms = this.queryTerms(text)
    this.stats.queries++
    this.stats.terms += terms.length
    const slices = await Promise.all(terms.map((term) => this.postingsOf(term)))
    // Synchronous from here to the reset: concurrent queries never share the score array.
    return topByImpact(slices, depth, this.docKey, this.scores, accepts)
  }
}

/** One query term's postings: ascending posting ids, their BM25 impacts, and the largest impact. */
export interface PostingSlice {
  readonly ids: Uint32Array
  readonly impacts: Float32Array
  readonly max: number
}

const BOUND_SAMPLE = 20_000

/**
 * The `depth` best keys by summed impact, exactly as summing every posting would give them, with
 * MaxScore-style pruning (Turtle and Flood): terms are taken in order of their largest impact;
 * once the k-th best score among documents seen (a lower bound of the final k-th best) exceeds
 * what all remaining terms together could add, no unseen document can enter the top k, so the
 * remaining (long, low-idf) lists only add to the candidates, and candidates that cannot reach the
 * bound any more are dropped. Candidates are found in a long list by galloping search, since both
 * ascend, or by one pass over a list not much longer than they are many. Sums of float32 impacts
 * in float64 do not depend on their order here, so scores (and ties, broken by key) equal the
 * exhaustive sum's. `scores` is zero on entry and on exit.
 */
export const topByImpact = (
  slices: ReadonlyArray<PostingSlice>,
  depth: number,
  docKey: Int32Array,
  scores: Float64Array,
  accepts: (key: number) => boolean
): Scored[] => {
  const order = [...slices].sort((a, b) => b.max - a.max)
  // rest[j]: the most the terms from j on can add to any document.
  const rest = new Float64Array(order.length + 1)
  for (let j = order.length - 1; j >= 0; j--) rest[j] = rest[j + 1] + order[j].max
  const admitted = (d: number) => {
    const key = docKey[d]
    return key >= 0 && accepts(key)
  }
  const kthBest = (docs: ReadonlyArray<number>) => {
    const top = new TopK(depth)
    for (const d of docs) if (admitted(d)) top.push(docKey[d], scores[d])
    return top.threshold
  }
  const touched: number[] = []
  // The bound is the k-th best over a fixed sample of the documents seen first (those of the rarest,
  // weightiest terms): any subset gives a valid lower bound, and a bounded one keeps it cheap to
  // recompute as scores grow.
  let sample: number[] | undefined
  let bound = -Infinity
  let j = 0
  for (; j < order.length; j++) {
    if (!sample && touched.length >= depth && depth > 0) sample = touched.slice(0, Math.max(BOUND_SAMPLE, depth))
    if (sample) bound = Math.max(bound, kthBest(sample))
    // Strictly below the bound: an unseen document cannot even tie the k-th best.
    if (rest[j] < bound) break
    const { ids, impacts } = order[j]
    for (let i = 0; i < ids.length; i++) {
      const d = ids[i]
      if (scores[d] === 0) touched.push(d)
      scores[d] += impacts[i]
    }
  }
  let candidates = touched
  if (j < order.length) {
    const reach = rest[j]
    candidates = touched.filter((d) => scores[d] + reach >= bound && admitted(d))
    // Which documents are still candidates, for lists scanned whole.
    let live: Uint8Array | undefined
    let sorted = false
    for (; j < order.length; j++) {
      const { ids, impacts } = order[j]
      const n = ids.length
      if (candidates.length * 16 < n) {
        // Few candidates against a long list: each is found by galloping forward from where the
        // last one was (O(C log(L/C))), which needs them ascending, as the postings are.
        if (!sorted) {
          // A typed array sorts numerically in native code (an Array with a comparator costs ten times more).
          candidates = Array.from(Uint32Array.from(candidates).sort())
          sorted = true
        }
        let lo = 0
        for (const d of candidates) {
          if (lo >= n) break
          if (ids[lo] < d) {
            let step = 1
            while (lo + step < n && ids[lo + step] < d) step *= 2
            let hi = Math.min(lo + step, n)
            lo += step >>> 1
            while (lo < hi) {
              const mid = (lo + hi) >>> 1
              if (ids[mid] < d) lo = mid + 1
              else hi = mid
            }
          }
          if (lo < n && ids[lo] === d) scores[d] += impacts[lo]
        }
      } else {
        // Candidates as many as a sixteenth of the list: one pass over the list, adding where a
        // posting is a candidate's, costs less than sorting them and searching for each.
        live ??= new Uint8Array(scores.length)
        for (const d of candidates) live[d] = 1
        for (let i = 0; i < n; i++) if (live[ids[i]] === 1) scores[ids[i]] += impacts[i]
        for (const d of candidates) live[d] = 0
      }
      const next = rest[j + 1]
      candidates = candidates.filter((d) => scores[d] + next >= bound)
    }
  }
  const top = new TopK(depth)
  for (const d of candidates) if (admitted(d)) top.push(docKey[d], scores[d])
  for (const d of touched) scores[d] = 0
  return top.sorted()
}
