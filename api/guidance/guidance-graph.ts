/**
 * GET /guidance/graph/{nodeId}: the node's degrees and hub flag, and its heaviest edges in each
 * direction up to `limit` (weight, then id). The mpep-/epo- prefix picks the corpus; an id
 * without one names no node (404), as does one whose section the corpus lacks.
 */
import { Effect } from "effect"
import { canonicalEpoId, normalizeMpepId } from "../../core/guidance/ids.ts"
import { NotFound } from "../domain/errors.ts"
import { num, type Query, type Row } from "./stored.ts"

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

export const getGuidanceGraph = (query: Query, nodeId: string, limit: number) =>
  Effect.gen(function* () {
    const parsed = parseNodeId(nodeId)
    // Without an mpep-/epo- prefix no corpus can hold the node, whatever is served (SPEC 4.6).
    if (!parsed) return yield* Effect.fail(new NotFound({ message: `no guidance node ${nodeId}: ids start with mpep- or epo-` }))
    const tables = ["guidance_nodes", "guidance_edges"]
    const [node] = yield* query(
      `SELECT node_id, corpus, in_degree, out_degree, is_hub FROM guidance_nodes WHERE corpus = $1 AND section_id = $2 LIMIT 1`,
      [parsed.corpus, parsed.sectionId],
      tables
    )
    if (!node) return yield* Effect.fail(new NotFound({ message: `no guidance node ${nodeId}: ids are mpep-<section> or epo-<section> of a section in the corpus` }))
    const id = String(node.node_id)
    const direction = (column: "source" | "target") =>
      query(
        `SELECT source, target, weight, type, bidirectional FROM guidance_edges WHERE ${column} = $1
         ORDER BY weight DESC, ${column === "source" ? "target" : "source"} LIMIT ${limit + 1}`,
        [id],
        tables
      )
    const [outgoing, incoming] = yield* Effect.all([direction("source"), direction("target")])
    return {
      node: { nodeId: id, inDegree: num(node.in_degree), outDegree: num(node.out_degree), isHub: Boolean(node.is_hub) },
      corpus: String(node.corpus) as "mpep" | "epo",
      outgoing: outgoing.slice(0, limit).map(edgeBody),
      incoming: incoming.slice(0, limit).map(edgeBody),
      truncated: { outgoing: outgoing.length > limit, incoming: incoming.length > limit },
      limit
    }
  })
