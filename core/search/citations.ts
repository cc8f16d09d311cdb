/**
 * The citation-graph channel. Citations between corpus applications are held as two CSR
 * adjacency lists over corpus keys (citing → cited, cited → citing), each edge flagged
 * examiner-cited or not.
 *
 * From the top dense hits (seeds, each weighted 1 / (RRF_K + rank) like a fusion vote), a
 * candidate collects evidence along three kinds of path:
 *   seed → cited        the seed's own references                          × 1.0
 *   citer → seed        later applications that cited the seed             × 0.25
 *   co-citation         cited beside the seed by the same citing application × 0.6
 * and each edge counts 1.0 whoever cited it. (Applicant citations counted 0.4 before, on the idea
 * that disclosure statements cast wider than examiners do; on the development split of the
 * held-out citations they are as good a path to the examiner's art: bench/retrieval.ts
 * --tune-plain, which chose these weights together with those in retrieve.ts.)
 * Candidates are ranked by total evidence. The seeds themselves can be ranked too (a seed cited
 * by other seeds is corroborated), but the point is the references the embedding missed.
 */
import { RRF_K } from "./fusion.ts"
import { type Scored, TopK } from "./top-k.ts"

/** An examiner's citation counts 1; the applicant's counts `applicantEdge`. */
export const EXAMINER_EDGE = 1.0

/** The weights of the paths and edges above; a benchmark may try others on its development split. */
export interface PathWeights {
  readonly forward: number
  readonly backward: number
  readonly cocitation: number
  readonly applicantEdge: number
}
export const PATH_WEIGHTS: PathWeights = { forward: 1.0, backward: 0.25, cocitation: 0.6, applicantEdge: 1.0 }
/** Citing applications followed per seed for co-citation (bounds the work on heavily cited seeds). */
export const COCITATION_FANOUT = 64

export interface CitationEdge {
  readonly citing: number
  readonly cited: number
  readonly examiner: boolean
}

interface Csr {
  readonly offsets: Uint32Array
  readonly targets: Int32Array
  readonly examiner: Uint8Array
}

/** Edges as parallel typed arrays: tens of millions of them at national scale, so no objects. */
export interface CitationEdges {
  readonly length: number
  readonly citing: Int32Array
  readonly cited: Int32Array
  readonly examiner: Uint8Array
}

export const edgesOf = (list: ReadonlyArray<CitationEdge>): CitationEdges => ({
  length: list.length,
  citing: Int32Array.from(list, (e) => e.citing),
  cited: Int32Array.from(list, (e) => e.cited),
  examiner: Uint8Array.from(list, (e) => (e.examiner ? 1 : 0))
})

/** Counting sort of edges by `from` into CSR form (targets of one source in input order). */
const csr = (size: number, from: Int32Array, to: Int32Array, flags: Uint8Array, count: number): Csr => {
  const offsets = new Uint32Array(size + 1)
  for (let i = 0; i < count; i++) offsets[from[i] + 1]++
  for (let i = 0; i < size; i++) offsets[i + 1] += offsets[i]
  const fill = offsets.slice(0, size)
  const targets = new Int32Array(count)
  const examiner = new Uint8Array(count)
  for (let i = 0; i < count; i++) {
    const at = fill[from[i]]++
    targets[at] = to[i]
    examiner[at] = flags[i]
  }
  return { offsets, targets, examiner }
}

/**
 * One edge per (citing, cited), self-citations dropped, an examiner citation winning over an
 * applicant one: each source's targets are sorted and merged in place (no map of pairs, whose
 * size V8 caps far below a national citation graph).
 */
const dedupe = (size: number, g: Csr): Csr => {
  const offsets = new Uint32Array(size + 1)
  const targets = new Int32Array(g.targets.length)
  const examiner = new Uint8Array(g.targets.length)
  let n = 0
  for (let s = 0; s < size; s++) {
    const from = g.offsets[s]
    const to = g.offsets[s + 1]
    const order = Array.from({ length: to - from }, (_, i) => from + i).sort((a, b) => g.targets[a] - g.targets[b])
    for (const j of order) {
      const t = g.targets[j]
      if (t === s) continue
      if (n > offsets[s] && targets[n - 1] === t) examiner[n - 1] |= g.examiner[j]
      else {
        targets[n] = t
        examiner[n] = g.examiner[j]
        n++
      }
    }
    offsets[s + 1] = n
  }
  return { offsets, targets: targets.slice(0, n), examiner: examiner.slice(0, n) }
}

export class CitationGraph {
  readonly forward: Csr
  readonly backward: Csr
  private readonly evidence: Float64Array

  constructor(readonly size: number, input: ReadonlyArray<CitationEdge> | CitationEdges) {
    const edges = Array.isArray(input) ? edgesOf(input as ReadonlyArray<CitationEdge>) : (input as CitationEdges)
    this.forward = dedupe(size, csr(size, edges.citing, edges.cited, edges.examiner, edges.length))
    // The backward lists are the forward ones transposed.
    const f = this.forward
    const citing = new Int32Array(f.targets.length)
    for (let s = 0; s < size; s++) citing.fill(s, f.offsets[s], f.offsets[s + 1])
    this.backward = csr(size, f.targets, citing, f.examiner, f.targets.length)
    this.evidence = new Float64Array(size)
  }

  get edgeCount() {
    return this.forward.targets.length
  }

  /** Applications of the corpus that cite `key` (its forward citations, in the patent sense). */
  citedByCount(key: number): number {
    return this.backward.offsets[key + 1] - this.backward.offsets[key]
  }

  /** The largest of `scores` over the applications `key` cites or is cited by; undefined when none has one. */
  nearestLinked(key: number, scores: ReadonlyMap<number, number>): number | undefined {
    let best: number | undefined
    for (const g of [this.forward, this.backward])
      for (let j = g.offsets[key]; j < g.offsets[key + 1]; j++) {
        const s = scores.get(g.targets[j])
        if (s !== undefined && (best === undefined || s > best)) best = s
      }
    return best
  }

  /** Candidates ranked by citation evidence from the seeds (best first), `depth` at most. */
  expand(seeds: ReadonlyArray<number>, depth: number, accepts: (key: number) => boolean = () => true, paths: PathWeights = PATH_WEIGHTS): Scored[] {
    const touched: number[] = []
    const add = (key: number, amount: number) => {
      if (this.evidence[key] === 0) touched.push(key)
      this.evidence[key] += amount
    }
    const edge = (flag: number) => (flag ? EXAMINER_EDGE : paths.applicantEdge)
    seeds.forEach((seed, i) => {
      const w = 1 / (RRF_K + i + 1)
      const f = this.forward
      for (let j = f.offsets[seed]; j < f.offsets[seed + 1]; j++) add(f.targets[j], w * paths.forward * edge(f.examiner[j]))
      const b = this.backward
      const end = Math.min(b.offsets[seed + 1], b.offsets[seed] + COCITATION_FANOUT)
      for (let j = b.offsets[seed]; j < b.offsets[seed + 1]; j++) {
        const citer = b.targets[j]
        const toSeed = edge(b.examiner[j])
        add(citer, w * paths.backward * toSeed)
        if (j >= end) continue
        for (let m = f.offsets[citer]; m < f.offsets[citer + 1]; m++) {
          const other = f.targets[m]
          if (other !== seed) add(other, w * paths.cocitation * Math.min(toSeed, edge(f.examiner[m])))
        }
      }
    })
    const top = new TopK(depth)
    for (const key of touched) {
      if (accepts(key)) top.push(key, this.evidence[key])
      this.evidence[key] = 0
    }
    return top.sorted()
  }
}

/** Partitions the citation table is read in, so no one query materialises every row as objects. */
const LOAD_PARTITIONS = 16

/** Loads citation edges between corpus applications (cited_app resolved by ingest). */
export const loadCitationEdges = async (
  rows: (sql: string) => Promise<ReadonlyArray<Record<string, unknown>>>,
  keyOf: ReadonlyMap<string, number>,
  keep: (e: CitationEdge) => boolean = () => true
): Promise<CitationEdges> => {
  let citing = new Int32Array(1 << 16)
  let cited = new Int32Array(1 << 16)
  let examiner = new Uint8Array(1 << 16)
  let length = 0
  for (let part = 0; part < LOAD_PARTITIONS; part++) {
    const batch = await rows(
      `SELECT citing_app, cited_app, bool_or(coalesce(examiner_cited, false)) AS examiner FROM citations
       WHERE cited_app IS NOT NULL AND hash(citing_app) % ${LOAD_PARTITIONS} = ${part} GROUP BY ALL`
    )
    for (const r of batch) {
      const from = keyOf.get(String(r.citing_app))
      const to = keyOf.get(String(r.cited_app))
      if (from === undefined || to === undefined) continue
      const edge = { citing: from, cited: to, examiner: Boolean(r.examiner) }
      if (!keep(edge)) continue
      if (length === citing.length) {
        const grow = <T extends Int32Array | Uint8Array>(a: T, make: (n: number) => T) => {
          const b = make(a.length * 2)
          b.set(a)
          return b
        }
        citing = grow(citing, (n) => new Int32Array(n))
        cited = grow(cited, (n) => new Int32Array(n))
        examiner = grow(examiner, (n) => new Uint8Array(n))
      }
      citing[length] = from
      cited[length] = to
      examiner[length] = edge.examiner ? 1 : 0
      length++
    }
  }
  return { length, citing: citing.slice(0, length), cited: cited.slice(0, length), examiner: examiner.slice(0, length) }
}
