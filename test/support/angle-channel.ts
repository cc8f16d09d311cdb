/**
 * A dense channel over 2-d unit vectors for unit tests of retrieval (core/search): each key's
 * vector is at an angle, and the query's cosine to it is that of the angle between them, so a
 * test lays out confident and weak hits by hand. The index is exact, standing in for usearch.
 */
import { DenseChannel, type VectorIndexLike } from "../../core/search/dense.ts"

/** The unit vector at `degrees`. */
export const unitAt = (degrees: number) => [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180)]

/**
 * A channel whose key i is at angles[i] (keys past `angles` have no vector: titles alone, say).
 * Only the first `searchable` keys are in the index: the rest have vectors that dense search never
 * returns, as a document past the dense pool of a large corpus.
 */
export const channelOver = (angles: ReadonlyArray<number>, searchable = angles.length) => {
  const vectors = Float32Array.from(angles.flatMap(unitAt))
  const index: VectorIndexLike = {
    size: () => searchable,
    search: (q, k) => {
      const n = Math.hypot(q[0], q[1])
      const ranked = angles
        .slice(0, searchable)
        .map((_, key) => ({ key, d: 1 - (q[0] * vectors[2 * key] + q[1] * vectors[2 * key + 1]) / n }))
        .sort((a, b) => a.d - b.d || a.key - b.key)
        .slice(0, k)
      return { keys: BigUint64Array.from(ranked.map((r) => BigInt(r.key))), distances: Float32Array.from(ranked.map((r) => r.d)) }
    }
  }
  return new DenseChannel(index, 2, angles.length, vectors)
}
