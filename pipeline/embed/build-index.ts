/**
 * Builds the HNSW index over unit vectors with a given quantization: for b1, the vectors are
 * rotated and coded first (core/index/binary-codes.ts). Rows are coded and added in chunks so a
 * coded copy of the whole matrix never exists (10.5M × 512 floats would be 21 GB).
 */
import { binaryCoder, makeBinaryCodes } from "../../core/index/binary-codes.ts"
import { createIndex, HNSW_CONNECTIVITY, type IndexInfo, type Quantization, ServedIndex } from "../../core/index/hnsw.ts"
import { rowsOfLabels } from "../../core/index/labels.ts"
import { residentVectors } from "../../core/index/rescore.ts"

/**
 * b1 codes carry 2 × 256 bits for 256 dims: twice the bits cost 32 bytes per application and, on
 * the sample's real vectors, lift recall@10 at 40 candidates from 0.97 to 0.99 (bench/vectors.ts).
 */
export const B1_CODE_BLOCKS = 2
const CHUNK = 1 << 16

export interface IndexBuildOptions {
  readonly connectivity?: number
  /** b1 only: independent rotations, each giving a power-of-two ≥ dims bits. */
  readonly codeBlocks?: number
}

/** The index over `unitRows` (row-major, key = row), its index.json description, and a served view re-scoring from the rows. */
export const buildIndex = (unitRows: Float32Array, dims: number, quantization: Quantization, o: IndexBuildOptions = {}) => {
  const connectivity = o.connectivity ?? HNSW_CONNECTIVITY
  const codes = quantization === "b1" ? makeBinaryCodes(dims, o.codeBlocks ?? B1_CODE_BLOCKS) : undefined
  const coder = codes ? binaryCoder(codes) : undefined
  const raw = createIndex(coder?.bits ?? dims, quantization, connectivity)
  const n = unitRows.length / dims
  for (let from = 0; from < n; from += CHUNK) {
    const to = Math.min(n, from + CHUNK)
    // A copy either way: usearch reads a typed array from the start of its buffer.
    const rows = coder ? coder.rotate(unitRows.subarray(from * dims, to * dims)) : unitRows.slice(from * dims, to * dims)
    raw.add(BigUint64Array.from({ length: to - from }, (_, i) => BigInt(from + i)), rows, 0)
  }
  const info: IndexInfo = { dims, count: n, quantization, connectivity, ...(codes ? { codes } : {}) }
  return { raw, info, served: new ServedIndex(raw, info, residentVectors(unitRows, dims)) }
}

/** The earlier version's graph, and the labels its rows carry (undefined: label = row). */
export interface EarlierIndex {
  readonly file: string
  readonly info: IndexInfo
  readonly labels: Uint32Array | undefined
}

/**
 * The earlier version's graph with the rows that left it removed and the new rows added: what a
 * nightly build does instead of rebuilding the graph over every vector. `labels[r]` is the label
 * row r gets: an earlier row's label for a vector taken over, a label above every earlier one for
 * a new vector; `removed` are the earlier labels no row keeps; `added` are the rows to insert.
 * Quantization, connectivity and the b1 rotation are the earlier graph's, so its codes still apply.
 */
export const extendIndex = (
  earlier: EarlierIndex,
  unitRows: Float32Array,
  labels: Uint32Array,
  removed: ReadonlyArray<number>,
  added: ReadonlyArray<number>
) => {
  const { dims, quantization, codes } = earlier.info
  const connectivity = earlier.info.connectivity ?? HNSW_CONNECTIVITY
  const coder = codes ? binaryCoder(codes) : undefined
  const raw = createIndex(coder?.bits ?? dims, quantization, connectivity)
  // Loaded, not viewed: a memory-mapped graph cannot be changed.
  raw.load(earlier.file)
  if (removed.length > 0) raw.remove(BigUint64Array.from(removed, (l) => BigInt(l)))
  for (let from = 0; from < added.length; from += CHUNK) {
    const rows = added.slice(from, from + CHUNK)
    const block = new Float32Array(rows.length * dims)
    rows.forEach((r, i) => block.set(unitRows.subarray(r * dims, (r + 1) * dims), i * dims))
    raw.add(BigUint64Array.from(rows, (r) => BigInt(labels[r]!)), coder ? coder.rotate(block) : block, 0)
  }
  const n = unitRows.length / dims
  const info: IndexInfo = { dims, count: n, quantization, connectivity, ...(codes ? { codes } : {}) }
  return { raw, info, served: new ServedIndex(raw, info, residentVectors(unitRows, dims), rowsOfLabels(labels)) }
}
