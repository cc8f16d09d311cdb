/**
 * The citation-graph channel. Citations between corpus applications are held as two CSR
 * adjacency lists over corpus keys (citing → cited, cited → citing), each edge flagged
 * examiner-cited or not.
 *
 * From the top dense hits (seeds, each weighted 1 / (RRF_K + rank) like a fusion vote), a
 * candidate collects evidence along three kinds of path:
 *   seed → cited        the seed's own references                          × 1.0
 *   citer → seed        later applications that cited the seed             × 0.5
 *   co-citation         cited beside the seed by the same citing application × 0.3
 * and each edge counts 1.0 when the examiner cited it, 0.4 when the applicant did: examiners
 * cite what actually bears on the claims, applicants' disclosure statements cast wider.
 * Candidates are ranked by total evidence. The seeds themselves can be ranked too (a seed cited
 * by other seeds is corroborated), but the point is the references the embedding missed.
 */
import { RRF_K } from "./fusion.ts"
import { type Scored, TopK } from "./top-k.ts"

export const EXAMINER_EDGE = 1.0
export const APPLICANT_EDGE = 0.4
export const FORWARD_PATH = 1.0
export const BACKWARD_PATH = 0.5
export const COCITATION_PATH = 0.3
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

const csr = (size: number, edges: ReadonlyArray<CitationEdge>, from: (e: CitationEdge) => number, to: (e: CitationEdge) => number): Csr => {
  const offsets = new Uint32Array(size + 1)
  for (const e of edges) offsets[from(e) + 1]++
  for (let i = 0; i < size; i++) offsets[i + 1] += offsets[i]
  const fill = offsets.slice(0, size)
  const targets = new Int32Array(edges.length)
  const examiner = new Uint8Array(edges.length)
  for (const e of edges) {
    const at = fill[from(e)]++
    targets[at] = to(e)
    examiner[at] = e.examiner ? 1 : 0
  }
  return { offsets, targets, examiner }
}

export class CitationGraph {
  readonly forward: Csr
  readonly backward: Csr
  private readonly evidence: Float64Array

  constructor(readonly size: number, edges: ReadonlyArray<CitationEdge>) {
    // One edge per (citing, cited): an examiner citation wins over an applicant one.
    const unique = new Map<string, CitationEdge>()
    for (const e of edges) {
      if (e.citing === e.cited) continue
      const id = `${e.citing}:${e.cited}`
      const seen = unique.get(id)
      if (!seen || (!seen.examiner && e.examiner)) unique.set(id, e)
    }
    const list = [...unique.values()]
    this.forward = csr(size, list, (e) => e.citing, (e) => e.cited)
    this.backward = csr(size, list, (e) => e.cited, (e) => e.citing)
    this.evidence = new Float64Array(size)
  }

  get edgeCount() {
    return this.forward.targets.length
  }

  /** Candidates ranked by citation evidence from the seeds (best first), `depth` at most. */
  expand(seeds: ReadonlyArray<number>, depth: number, accepts: (key: number) => boolean = () => true): Scored[] {
    const touched: number[] = []
    const add = (key: number, amount: number) => {
      if (this.evidence[key] === 0) touched.push(key)
      this.evidence[key] += amount
    }
    const edge = (flag: number) => (flag ? EXAMINER_EDGE : APPLICANT_EDGE)
    seeds.forEach((seed, i) => {
      const w = 1 / (RRF_K + i + 1)
      const f = this.forward
      for (let j = f.offsets[seed]; j < f.offsets[seed + 1]; j++) add(f.targets[j], w * FORWARD_PATH * edge(f.examiner[j]))
      const b = this.backward
      const end = Math.min(b.offsets[seed + 1], b.offsets[seed] + COCITATION_FANOUT)
      for (let j = b.offsets[seed]; j < b.offsets[seed + 1]; j++) {
        const citer = b.targets[j]
        const toSeed = edge(b.examiner[j])
        add(citer, w * BACKWARD_PATH * toSeed)
        if (j >= end) continue
        for (let m = f.offsets[citer]; m < f.offsets[citer + 1]; m++) {
          const other = f.targets[m]
          if (other !== seed) add(other, w * COCITATION_PATH * Math.min(toSeed, edge(f.examiner[m])))
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

/** Loads citation edges between corpus applications (cited_app resolved by ingest). */
export const loadCitationEdges = async (
  rows: (sql: string) => Promise<ReadonlyArray<Record<string, unknown>>>,
  keyOf: ReadonlyMap<string, number>
): Promise<CitationEdge[]> => {
  const edges: CitationEdge[] = []
  for (const r of await rows(`SELECT citing_app, cited_app, bool_or(coalesce(examiner_cited, false)) AS examiner FROM citations WHERE cited_app IS NOT NULL GROUP BY ALL`)) {
    const citing = keyOf.get(String(r.citing_app))
    const cited = keyOf.get(String(r.cited_app))
    if (citing !== undefined && cited !== undefined) edges.push({ citing, cited, examiner: Boolean(r.examiner) })
  }
  return edges
}
