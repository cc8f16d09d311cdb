/**
 * Opens everything a search needs from one artifact version, once: the searchable corpus maps,
 * the memory-mapped vector index, the unit vectors (resident when they fit the budget, else read
 * by position), the lexical index and the citation graph. `exclude` drops applications and every
 * citation edge touching them (the benchmark's held-out queries).
 */
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { viewIndex, type Quantization } from "../index/hnsw.ts"
import { normalizeRows, readVectorFile, vectorFilePath, VectorRows } from "../index/vector-file.ts"
import { type CitationEdge, type CitationEdges, CitationGraph, loadCitationEdges } from "./citations.ts"
import { loadSearchCorpus, type Rows, type SearchCorpus } from "./corpus.ts"
import { DenseChannel } from "./dense.ts"
import { LexicalIndex } from "./lexical.ts"
import { StoredDocuments } from "./stored.ts"

/**
 * The share of physical memory the resident unit vectors (f32) may take. Resident, a search
 * re-scores its candidates from memory and a filtered search scans a small admitted subset
 * exactly; past the budget candidates are read by position and filtered searches widen the HNSW
 * search. A fixed budget (1 GiB until 2026-11) stopped fitting when the ensemble encoder made
 * vectors 356 wide (1.42 GB at 1M) and doubled plain search's p50 at 1M; a share of RAM follows
 * the machine: at 10.5M applications the rows are 15 GB, within a quarter of a 64 GB server.
 */
export const VECTOR_MEMORY_SHARE = 0.25

export const defaultVectorBudgetBytes = (totalMemory = os.totalmem()) => Math.floor(totalMemory * VECTOR_MEMORY_SHARE)

/** Whether `count` unit vectors of `dims` f32 are kept resident under `budget` bytes. */
export const vectorsFitBudget = (count: number, dims: number, budget = defaultVectorBudgetBytes()) => count * dims * 4 <= budget

export interface SearchState {
  readonly versionDir: string
  readonly dims: number
  readonly corpus: SearchCorpus
  readonly dense: DenseChannel
  readonly lexical?: LexicalIndex
  /** Titles, abstracts and first claims by key (absent for versions built before the documents stage). */
  readonly stored?: StoredDocuments
  readonly graph: CitationGraph
  /** The loaded edges, when asked for with keepEdges (benchmarks); the graph holds its own copy. */
  readonly edges?: CitationEdges
  readonly vectorsResident: boolean
  readonly close: () => Promise<void>
}

export interface OpenOptions {
  /** Bytes of resident unit vectors allowed (default: defaultVectorBudgetBytes()). */
  readonly vectorBudgetBytes?: number
  /** Keep the loaded edge list beside the graph (it doubles the graph's memory; the API does not). */
  readonly keepEdges?: boolean
  /** Citation edges to leave out of the graph. */
  readonly dropEdge?: (e: CitationEdge) => boolean
}

const exists = (p: string) => fs.access(p).then(() => true, () => false)

/**
 * Versions without index/vectors.f32: the Parquet lists (index/embeddings.parquet by application,
 * or vectors.parquet's own column in versions written before it), read in slices of keys to bound memory.
 */
const vectorsFromParquet = async (versionDir: string, rows: Rows, dims: number, count: number) => {
  const vectors = new Float32Array(count * dims)
  const slice = 50_000
  const keyed = (await exists(path.join(versionDir, "index", "embeddings.parquet"))) ? `(SELECT v.key, e.vector FROM vectors v JOIN embeddings e USING (app_num))` : "vectors"
  for (let from = 0; from < count; from += slice) {
    for (const r of await rows(`SELECT key, vector FROM ${keyed} WHERE key >= ${from} AND key < ${from + slice}`)) vectors.set(r.vector as number[], Number(r.key) * dims)
  }
  return normalizeRows(vectors, dims)
}

export const openSearchState = async (versionDir: string, rows: Rows, o: OpenOptions = {}): Promise<SearchState> => {
  const info = JSON.parse(await fs.readFile(path.join(versionDir, "index", "index.json"), "utf8")) as { dims: number; quantization: Quantization }
  const corpus = await loadSearchCorpus(rows)
  const index = viewIndex(path.join(versionDir, "index", "hnsw.usearch"), info.dims, info.quantization)
  let vectors: Float32Array | undefined
  let vectorRows: VectorRows | undefined
  if (vectorsFitBudget(corpus.vectorCount, info.dims, o.vectorBudgetBytes)) {
    vectors = (await readVectorFile(vectorFilePath(versionDir), info.dims, corpus.vectorCount)) ?? (await vectorsFromParquet(versionDir, rows, info.dims, corpus.vectorCount))
  } else {
    vectorRows = await VectorRows.open(vectorFilePath(versionDir), info.dims, corpus.vectorCount)
  }
  const dense = new DenseChannel(index, info.dims, corpus.vectorCount, vectors, vectorRows)
  const lexical = (await exists(path.join(versionDir, "lexical", "postings.bin"))) ? await LexicalIndex.open(versionDir, rows, corpus) : undefined
  const stored = await StoredDocuments.open(versionDir, rows, corpus.keyOf, corpus.size)
  const edges = await loadCitationEdges(rows, corpus.keyOf, o.dropEdge ? (e) => !o.dropEdge!(e) : undefined)
  const graph = new CitationGraph(corpus.size, edges)
  return {
    versionDir,
    dims: info.dims,
    corpus,
    dense,
    lexical,
    stored,
    graph,
    ...(o.keepEdges ? { edges } : {}),
    vectorsResident: vectors !== undefined,
    close: async () => {
      await vectorRows?.close()
      await lexical?.close()
      await stored?.close()
    }
  }
}
