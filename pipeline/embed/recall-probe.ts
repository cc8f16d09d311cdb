/**
 * The exact answers a graph's recall is measured against, kept beside it (index/recall-probe.json)
 * so that a night which extends the graph measures its recall without an exact search over every
 * vector: at a million vectors that search was most of a night's embed stage, for a few thousand
 * changed rows.
 *
 * The probe is a fixed set of query vectors with, for each, its PROBE_DEPTH nearest graph labels
 * and their cosine distances. A night drops the labels it removed, then merges in the distances to
 * the vectors it added. What survives of the earlier list is still the nearest of the rows that
 * stayed (every row not on the list was at least as far as its last entry), so the merged list,
 * cut to the survivors' count, is exact again. A query left with fewer than k answers is searched
 * exactly over every row once more, and gets its full depth back.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { exactSearchBatch } from "../../core/index/hnsw.ts"
import { type ExactAnswers, exactTopK } from "./quantization.ts"

export const RECALL_PROBE = "recall-probe.json"

interface StoredProbe {
  readonly dims: number
  readonly depth: number
  /** Per query: its vector, its nearest labels, their distances (ascending). */
  readonly queries: ReadonlyArray<{ readonly vector: ReadonlyArray<number>; readonly labels: ReadonlyArray<number>; readonly distances: ReadonlyArray<number> }>
}

/** Writes the probe (its keys are graph labels). */
export const writeProbe = async (indexDir: string, probe: ExactAnswers, dims: number) => {
  const stored: StoredProbe = {
    dims,
    depth: probe.depth,
    queries: Array.from({ length: probe.count }, (_, q) => {
      const at = q * probe.depth
      const keys = Array.from(probe.keys.subarray(at, at + probe.depth)).filter((k) => k >= 0)
      return {
        vector: Array.from(probe.queries.subarray(q * dims, (q + 1) * dims)),
        labels: keys,
        distances: Array.from(probe.distances.subarray(at, at + keys.length))
      }
    })
  }
  await fs.writeFile(path.join(indexDir, RECALL_PROBE), JSON.stringify(stored))
}

/** The earlier version's probe, or undefined (none written, or for other dims). */
export const readProbe = async (indexDir: string, dims: number): Promise<StoredProbe | undefined> => {
  const stored = await fs
    .readFile(path.join(indexDir, RECALL_PROBE), "utf8")
    .then((t) => JSON.parse(t) as StoredProbe)
    .catch(() => undefined)
  return stored && stored.dims === dims && stored.queries.length > 0 ? stored : undefined
}

/**
 * The probe's answers after a night, keyed by label: `labels[r]` is row r's label, `removed` the
 * labels no row keeps, `added` the rows new to the graph. Returns the answers and how many queries
 * had to be searched over every row again.
 */
export const probeAfterNight = (
  earlier: StoredProbe,
  unitRows: Float32Array,
  dims: number,
  labels: Uint32Array,
  removed: ReadonlySet<number>,
  added: ReadonlyArray<number>,
  k: number
): { readonly answers: ExactAnswers; readonly searchedAgain: number } => {
  const { depth } = earlier
  const count = earlier.queries.length
  const queries = new Float32Array(count * dims)
  earlier.queries.forEach((q, i) => queries.set(q.vector, i * dims))
  // Distances from every query to every added vector, at most `depth` per query.
  const addedBlock = new Float32Array(added.length * dims)
  added.forEach((r, i) => addedBlock.set(unitRows.subarray(r * dims, (r + 1) * dims), i * dims))
  const perQuery = Math.min(depth, added.length)
  const fromAdded = perQuery > 0 ? exactSearchBatch(addedBlock, queries, dims, perQuery) : undefined
  const keys = new Float64Array(count * depth).fill(-1)
  const distances = new Float64Array(count * depth).fill(Infinity)
  const rows = unitRows.length / dims
  const set = (q: number, list: ReadonlyArray<{ label: number; distance: number }>) =>
    list.forEach((e, i) => {
      keys[q * depth + i] = e.label
      distances[q * depth + i] = e.distance
    })
  // Queries left with too few answers to know their k nearest: searched again over every row, together.
  const again: number[] = []
  for (let q = 0; q < count; q++) {
    const before = earlier.queries[q]!
    const kept: Array<{ label: number; distance: number }> = []
    before.labels.forEach((label, i) => {
      if (!removed.has(label)) kept.push({ label, distance: before.distances[i]! })
    })
    if (kept.length < Math.min(k, rows)) {
      again.push(q)
      continue
    }
    if (fromAdded) {
      for (let j = 0; j < fromAdded.counts[q]!; j++) {
        const row = added[Number(fromAdded.keys[q * perQuery + j])]!
        kept.push({ label: labels[row]!, distance: fromAdded.distances[q * perQuery + j]! })
      }
    }
    const survivors = kept.length - (fromAdded?.counts[q] ?? 0)
    set(q, kept.sort((a, b) => a.distance - b.distance || a.label - b.label).slice(0, survivors))
  }
  if (again.length > 0) {
    const block = new Float32Array(again.length * dims)
    again.forEach((q, i) => block.set(queries.subarray(q * dims, (q + 1) * dims), i * dims))
    const exact = exactTopK(unitRows, dims, block, depth)
    again.forEach((q, i) => {
      const list: Array<{ label: number; distance: number }> = []
      for (let j = 0; j < depth; j++) {
        const row = exact.keys[i * depth + j]!
        if (row >= 0) list.push({ label: labels[row]!, distance: exact.distances[i * depth + j]! })
      }
      set(q, list)
    })
  }
  const searchedAgain = again.length
  return { answers: { count, depth, queries, keys, distances }, searchedAgain }
}
