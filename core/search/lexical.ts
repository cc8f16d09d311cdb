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

export class LexicalIndex {
  private readonly scores: Float64Array
  /** Largest impact per query term seen so far (a term's postings never change within a version). */
  private readonly maxImpact = new Map<string, number>()
  /** What searches have read so far (bench/lexical.ts). */
  private readonly stats = { queries: 0, terms: 0, postingsRead: 0, bytesRead: 0 }
  private constructor(
    private readonly terms: ReadonlyMap<string, { readonly offset: number; readonly length: number }>,
    /** Posting doc id → corpus key (−1 when the application has no key). */
    private readonly docKey: Int32Array,
    private readonly file: fs.FileHandle,
    readonly selection: TermSelection = DEFAULT_TERM_SELECTION
  ) {
    this.scores = new Float64Array(docKey.length)
  }

  /** The same index (sharing its dictionary and postings file) choosing query stems another way: for tuning (bench/lexical.ts). */
  withSelection(selection: TermSelection): LexicalIndex {
    return new LexicalIndex(this.terms, this.docKey, this.file, selection)
  }

  static async open(versionDir: string, rows: Rows, corpus: SearchCorpus, selection: TermSelection = DEFAULT_TERM_SELECTION): Promise<LexicalIndex> {
    const terms = new Map<string, { offset: number; length: number }>()
    for (const r of await rows(`SELECT term, "offset", length FROM lexical_terms`)) terms.set(String(r.term), { offset: Number(r.offset), length: Number(r.length) })
    const docs = await rows(`SELECT doc, app_num FROM lexical_docs`)
    const docKey = new Int32Array(docs.length).fill(-1)
    for (const r of docs) docKey[Number(r.doc)] = corpus.keyOf.get(String(r.app_num)) ?? -1
    const file = await fs.open(path.join(versionDir, "lexical", "postings.bin"), "r")
    return new LexicalIndex(terms, docKey, file, selection)
  }

  close() {
    return this.file.close()
  }

  /** How many indexed documents use a stem. */
  documentFrequency(stem: string): number {
    return this.terms.get(stem)?.length ?? 0
  }

  /** How many documents are indexed. */
  get documents(): number {
    return this.docKey.length
  }

  /** BM25 idf of a stem; a stem the corpus never uses is as telling as the rarest. */
  idf(stem: string): number {
    const n = this.documents
    const df = this.documentFrequency(stem)
    return Math.log(1 + (n - df + 0.5) / (df + 0.5))
  }

  /**
   * The query's most telling stems: distinct stems found in the dictionary, ranked by query
   * frequency × idf, at most `limit` (MoreLikeThis-style term selection). A search query here is
   * a whole abstract and claim; its commonest words ("said", "wherein", "device") carry almost no
   * BM25 weight but have the longest posting lists, which at a million documents cost more to
   * read than everything else in a search.
   */
  queryTerms(text: string, limit = this.selection.maxTerms) {
    const maxDf = this.selection.maxDocFraction * this.docKey.length
    const qtf = new Map<string, number>()
    for (const t of tokenizePatentText(text)) {
      const df = this.terms.get(t.stem)?.length
      if (df !== undefined && df <= maxDf) qtf.set(t.stem, (qtf.get(t.stem) ?? 0) + 1)
    }
    const weight = (term: string) => qtf.get(term)! * this.idf(term)
    return [...qtf.keys()].sort((a, b) => weight(b) - weight(a) || (a < b ? -1 : 1)).slice(0, limit)
  }

  readStats(): Readonly<typeof this.stats> {
    return { ...this.stats }
  }

  /** The `depth` best keys by BM25 among those `accepts` admits. */
  async search(text: string, depth: number, accepts: (key: number) => boolean = () => true): Promise<Scored[]> {
    const terms = this.queryTerms(text)
    this.stats.queries++
    this.stats.terms += terms.length
    const slices = await Promise.all(
      terms.map(async (term) => {
        const { offset, length } = this.terms.get(term)!
        this.stats.postingsRead += length
        this.stats.bytesRead += length * 8
        const buf = new ArrayBuffer(length * 8)
        await this.file.read(new Uint8Array(buf), 0, buf.byteLength, offset * 8)
        const impacts = new Float32Array(buf, length * 4, length)
        let max = this.maxImpact.get(term)
        if (max === undefined) {
          max = 0
          for (let i = 0; i < impacts.length; i++) if (impacts[i] > max) max = impacts[i]
          this.maxImpact.set(term, max)
        }
        return { ids: new Uint32Array(buf, 0, length), impacts, max }
      })
    )
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
