/**
 * guidance/guidance_edges.parquet and guidance/guidance_nodes.parquet: the citation graphs of
 * both corpora in one pair of tables, told apart by `corpus` and by the mpep-/epo- prefix of
 * every node id.
 */
import type { DuckDBConnection } from "@duckdb/node-api"
import { buildGuidanceGraph } from "../../core/guidance/graph.ts"
import type { EpoSectionRow } from "./epo.ts"
import { isRedirect, type MpepSectionRow } from "./mpep.ts"
import { type Columns, writeRows } from "./write.ts"

const edgeColumns: Columns = { corpus: "VARCHAR", source: "VARCHAR", target: "VARCHAR", weight: "INTEGER", type: "VARCHAR", bidirectional: "BOOLEAN" }
const nodeColumns: Columns = { corpus: "VARCHAR", node_id: "VARCHAR", section_id: "VARCHAR", in_degree: "INTEGER", out_degree: "INTEGER", degree: "INTEGER", is_hub: "BOOLEAN" }

export const writeGuidanceGraph = async (
  conn: DuckDBConnection,
  mpep: ReadonlyArray<MpepSectionRow>,
  epo: ReadonlyArray<EpoSectionRow>,
  files: { readonly edges: string; readonly nodes: string }
) => {
  const graphs = [
    ["mpep", buildGuidanceGraph("mpep", mpep.map((s) => ({ sectionId: s.section_id, crossRefs: s.cross_refs ?? [], redirect: isRedirect(s.title, s.content) })))],
    ["epo", buildGuidanceGraph("epo", epo.map((s) => ({ sectionId: s.section_id, crossRefs: s.cross_refs ?? [], redirect: false })))]
  ] as const
  const edges = await writeRows(conn, "edges", edgeColumns, graphs.flatMap(([corpus, g]) => g.edges.map((e) => ({ corpus, ...e }))), files.edges, "corpus, source, target")
  const nodes = await writeRows(
    conn,
    "nodes",
    nodeColumns,
    graphs.flatMap(([corpus, g]) =>
      g.nodes.map((n) => ({ corpus, node_id: n.nodeId, section_id: n.sectionId, in_degree: n.inDegree, out_degree: n.outDegree, degree: n.inDegree + n.outDegree, is_hub: n.isHub }))
    ),
    files.nodes,
    "corpus, node_id"
  )
  const notes = graphs.map(
    ([corpus, g]) => `${corpus} graph: ${g.edges.length} edges, hub threshold degree ${g.hubThreshold}, ${g.unresolved} references to sections the corpus does not hold`
  )
  return { edges, nodes, notes }
}
