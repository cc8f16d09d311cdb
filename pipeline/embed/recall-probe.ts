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

/** Writes the probe with its keys as graph labels (`labelOf`: a key as the answers hold it → its label). */
export const writeProbe = async (indexDir: string, probe: ExactAnswers, dims: number, labelOf: (key: number) => number = (k) => k) => {
  const stored: StoredProbe = {
    dims,
    depth: probe.depth,
    queries: Array.from({ length: probe.count }, (_, q) => {
      const at = q * probe.depth
      const keys = Array.from(probe.keys.subarray(at, at + probe.depth)).filter((k) => k >= 0)
      return {
        vector: Array.from(probe.queries.subarray(q * dims, (q + 1) * dims)),
        labels: keys.map(labelOf),
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
  let searchedAgain = 0
  const rows = unitRows.length / dims
  for (let q = 0; q < count; q++) {
    const before = earlier.queries[q]!
    const kept: Array<{ label: number; distance: number }> = []
    before.labels.forEach((label, i) => {
      if (!removed.has(label)) kept.push({ label, distance: before.distances[i]! })
    })
    let list: Array<{ label: number; distance: number }>
    if (kept.length < Math.min(k, rows)) {
      // Too few left to know the k nearest: this query alone over every row.
      searchedAgain++
      const exact = exactTopK(unitRows, dims, queries.subarray(q * dims, (q + 1) * dims), depth)
      list = Array.from(exact.keys)
        .map((row, i) => ({ label: row >= 0 ? labels[row]! : -1, distance: exact.distances[i]! }))
        .filter((e) => e.label >= 0)
    } else {
      const merged = [...kept]
      if (fromAdded) {
        for (let j = 0; j < fromAdded.counts[q]!; j++) {
          const row = added[Number(fromAdded.keys[q * perQuery + j])]!
          merged.push({ label: labels[row]!, distance: fromAdded.distances[q * perQuery + j]! })
        }
      }
      merged.sort((a, b) => a.distance - b.distance || a.label - b.label)
      list = merged.slice(0, kept.length)
    }
    list.forEach((e, i) => {
      keys[q * depth + i] = e.label
      distances[q * depth + i] = e.distance
    })
  }
  return { answers: { count, depth, queries, keys, distances }, searchedAgain }
}
