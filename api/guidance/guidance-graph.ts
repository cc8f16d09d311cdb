/**
 * GET /guidance/graph/{nodeId}: the node's degrees and hub flag, and its heaviest edges in each
 * direction up to `limit` (weight, then id). The mpep-/epo- prefix picks the corpus; an id
 * without one names no node (404), as does one whose section the corpus lacks.
 */
import { Effect } from "effect"
import { canonicalEpoId, normalizeMpepId } from "../../core/guidance/ids.ts"
import { type CorpusUnavailable, NotFound } from "../domain/errors.ts"
import { compareText } from "../artifacts/held.ts"
import { byKey, num, type Query, type Row } from "./stored.ts"

/** The citation graph of the served version: nodes by corpus and section, edges by endpoint. */
export interface GuidanceGraph {
  readonly nodes: ReadonlyMap<string, Row>
  /** A node's outgoing edges, heaviest first, then by target. */
  readonly outgoing: ReadonlyMap<string, ReadonlyArray<Row>>
  /** A node's incoming edges, heaviest first, then by source. */
  readonly incoming: ReadonlyMap<string, ReadonlyArray<Row>>
}

const nodeKey = (corpus: unknown, sectionId: unknown) => `${String(corpus)}\u0000${String(sectionId)}`

/** SQL's `ORDER BY weight DESC, <other end>` with its NULLS LAST, as a comparator. */
const heaviestFirst = (otherEnd: "source" | "target") => (a: Row, b: Row) => {
  const byWeight = nullsLast(a.weight, b.weight, (x, y) => num(y) - num(x))
  return byWeight !== 0 ? byWeight : nullsLast(a[otherEnd], b[otherEnd], (x, y) => compareText(String(x), String(y)))
}

const nullsLast = (a: unknown, b: unknown, compare: (a: unknown, b: unknown) => number) => {
  const an = a === null || a === undefined
  const bn = b === null || b === undefined
  return an || bn ? Number(an) - Number(bn) : compare(a, b)
}

const groupBy = (rows: ReadonlyArray<Row>, column: "source" | "target", order: (a: Row, b: Row) => number) => {
  const groups = new Map<string, Row[]>()
  for (const r of rows) {
    if (r[column] === null || r[column] === undefined) continue
    const k = String(r[column])
    const group = groups.get(k)
    if (group) group.push(r)
    else groups.set(k, [r])
  }
  for (const group of groups.values()) group.sort(order)
  return groups
}

export const loadGuidanceGraph = (query: Query): Effect.Effect<GuidanceGraph, CorpusUnavailable> =>
  Effect.gen(function* () {
    const tables = ["guidance_nodes", "guidance_edges"]
    const [nodes, edges] = yield* Effect.all(
      [
        query(`SELECT node_id, corpus, section_id, in_degree, out_degree, is_hub FROM guidance_nodes`, [], tables),
        query(`SELECT source, target, weight, type, bidirectional FROM guidance_edges`, [], tables)
      ],
      { concurrency: 2 }
    )
    return {
      nodes: byKey(nodes, (r) => (r.corpus === null || r.section_id === null ? null : nodeKey(r.corpus, r.section_id))),
      outgoing: groupBy(edges, "source", heaviestFirst("target")),
      incoming: groupBy(edges, "target", heaviestFirst("source"))
    }
  })

const edgeBody = (r: Row) => ({
  source: String(r.source),
  target: String(r.target),
  weight: num(r.weight),
  type: String(r.type),
  bidirectional: Boolean(r.bidirectional)
})

/** "mpep-2173.05(E)" → mpep / "2173.05(e)"; "epo-g-vii-5.1" → epo / "G-VII-5.1". */
export const parseNodeId = (nodeId: string): { corpus: "mpep" | "epo"; sectionId: string } | undefined => {
  const m = /^(mpep|epo)-(.+)$/i.exec(nodeId.trim())
  if (!m) return undefined
  const corpus = m[1].toLowerCase() as "mpep" | "epo"
  const sectionId = corpus === "mpep" ? normalizeMpepId(m[2]) ?? m[2] : canonicalEpoId(m[2]) ?? m[2]
  return { corpus, sectionId }
}

export const getGuidanceGraph = (graph: Effect.Effect<GuidanceGraph, CorpusUnavailable>, nodeId: string, limit: number) =>
  Effect.gen(function* () {
    const parsed = parseNodeId(nodeId)
    // Without an mpep-/epo- prefix no corpus can hold the node, whatever is served (SPEC 4.6).
    if (!parsed) return yield* Effect.fail(new NotFound({ message: `no guidance node ${nodeId}: ids start with mpep- or epo-` }))
    const held = yield* graph
    const node = held.nodes.get(nodeKey(parsed.corpus, parsed.sectionId))
    if (!node) return yield* Effect.fail(new NotFound({ message: `no guidance node ${nodeId}: ids are mpep-<section> or epo-<section> of a section in the corpus` }))
    const id = String(node.node_id)
    const shown = Math.max(0, limit)
    const outgoing = held.outgoing.get(id) ?? []
    const incoming = held.incoming.get(id) ?? []
    return {
      node: { nodeId: id, inDegree: num(node.in_degree), outDegree: num(node.out_degree), isHub: Boolean(node.is_hub) },
      corpus: String(node.corpus) as "mpep" | "epo",
      outgoing: outgoing.slice(0, shown).map(edgeBody),
      incoming: incoming.slice(0, shown).map(edgeBody),
      truncated: { outgoing: outgoing.length > shown, incoming: incoming.length > shown },
      limit
    }
  })
