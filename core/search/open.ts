/**
 * Opens everything a search needs from one artifact version, once: the searchable corpus maps,
 * the memory-mapped vector index, resident unit vectors (for exact filtered scans, when they fit
 * the budget), the lexical index and the citation graph. `exclude` drops applications and every
 * citation edge touching them (the benchmark's held-out queries).
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { viewIndex, type Quantization } from "../index/hnsw.ts"
import { type CitationEdge, CitationGraph, loadCitationEdges } from "./citations.ts"
import { loadSearchCorpus, type Rows, type SearchCorpus } from "./corpus.ts"
import { DenseChannel } from "./dense.ts"
import { LexicalIndex } from "./lexical.ts"

/** Resident vectors (f32) are kept up to this many bytes; beyond it filtered searches widen the HNSW search instead. */
export const DEFAULT_VECTOR_BUDGET_BYTES = 1 << 30

export interface SearchState {
  readonly versionDir: string
  readonly dims: number
  readonly corpus: SearchCorpus
  readonly dense: DenseChannel
  readonly lexical?: LexicalIndex
  readonly graph: CitationGraph
  readonly edges: ReadonlyArray<CitationEdge>
  readonly vectorsResident: boolean
  readonly close: () => Promise<void>
}

export interface OpenOptions {
  readonly vectorBudgetBytes?: number
  /** Citation edges to leave out of the graph. */
  readonly dropEdge?: (e: CitationEdge) => boolean
}

const exists = (p: string) => fs.access(p).then(() => true, () => false)

export const openSearchState = async (versionDir: string, rows: Rows, o: OpenOptions = {}): Promise<SearchState> => {
  const info = JSON.parse(await fs.readFile(path.join(versionDir, "index", "index.json"), "utf8")) as { dims: number; quantization: Quantization }
  const corpus = await loadSearchCorpus(rows)
  const index = viewIndex(path.join(versionDir, "index", "hnsw.usearch"), info.dims, info.quantization)
  let vectors: Float32Array | undefined
  if (corpus.vectorCount * info.dims * 4 <= (o.vectorBudgetBytes ?? DEFAULT_VECTOR_BUDGET_BYTES)) {
    vectors = new Float32Array(corpus.vectorCount * info.dims)
    for (const r of await rows(`SELECT key, vector FROM vectors`)) {
      const v = r.vector as number[]
      let norm = 0
      for (const x of v) norm += x * x
      norm = Math.sqrt(norm) || 1
      const base = Number(r.key) * info.dims
      for (let j = 0; j < info.dims; j++) vectors[base + j] = v[j] / norm
    }
  }
  const dense = new DenseChannel(index, info.dims, corpus.vectorCount, vectors)
  const lexical = (await exists(path.join(versionDir, "lexical", "postings.bin"))) ? await LexicalIndex.open(versionDir, rows, corpus) : undefined
  const all = await loadCitationEdges(rows, corpus.keyOf)
  const edges = o.dropEdge ? all.filter((e) => !o.dropEdge!(e)) : all
  const graph = new CitationGraph(corpus.size, edges)
  return {
    versionDir,
    dims: info.dims,
    corpus,
    dense,
    lexical,
    graph,
    edges,
    vectorsResident: vectors !== undefined,
    close: async () => {
      await lexical?.close()
    }
  }
}
