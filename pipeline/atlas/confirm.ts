/**
 * Confirms a 3D void in the original vector space, so that projection artefacts (art torn apart
 * by the 3D layout while its vectors sit together) are not reported as gaps.
 *
 * The vector "at" the void is the distance-weighted mean of the bordering art's vectors. If the
 * void is real, the nearest document to that vector is farther from it than the bordering art
 * typically is from its own nearest neighbour; if something already sits there in vector space
 * (only placed elsewhere on the map), the centre is at least as well covered as the border.
 */

export interface VectorCheck {
  /** Cosine similarity of the void's centre vector to the nearest indexed document. */
  readonly centreSimilarity: number
  /** Median cosine similarity of the bordering documents to their own nearest neighbour. */
  readonly borderSimilarity: number
  readonly confirmed: boolean
}

/** Unit-length weighted mean of unit vectors. */
export const centreVector = (vectors: ReadonlyArray<Float32Array>, weights: ReadonlyArray<number>, dims: number) => {
  const c = new Float32Array(dims)
  vectors.forEach((v, i) => {
    const norm = Math.hypot(...v) || 1
    for (let d = 0; d < dims; d++) c[d] += (weights[i] * v[d]) / norm
  })
  const norm = Math.hypot(...c) || 1
  for (let d = 0; d < dims; d++) c[d] /= norm
  return c
}

export const checkVoid = (centreSimilarity: number, borderNeighbourSimilarities: ReadonlyArray<number>): VectorCheck => {
  const sorted = [...borderNeighbourSimilarities].sort((a, b) => a - b)
  const borderSimilarity = sorted.length ? sorted[Math.floor(sorted.length / 2)] : 1
  return { centreSimilarity, borderSimilarity, confirmed: centreSimilarity < borderSimilarity }
}
