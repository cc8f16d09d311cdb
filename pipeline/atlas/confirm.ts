/**
 * Confirms a 3D void in the original vector space, so that projection artefacts (art torn apart
 * by the 3D layout while its vectors sit together) are not reported as gaps.
 *
 * The vector "at" the void is the distance-weighted mean of the bordering art's vectors. If the
 * void is real, the documents nearest to that vector are farther from it than the bordering art
 * typically is from its own neighbours; if something already sits there in vector space (only
 * placed elsewhere on the map), the centre is at least as well covered as the border. Both sides
 * are measured at the NEIGHBOURS-th nearest document, not the first: one document that happens
 * to lie near the centre (or far from a border document) must not decide.
 */

export const NEIGHBOURS = 4

export interface VectorCheck {
  /** Cosine similarity of the void's centre vector to its NEIGHBOURS-th nearest document. */
  readonly centreSimilarity: number
  /** Median cosine similarity of the bordering documents to their own NEIGHBOURS-th nearest neighbour. */
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

/** The original vector space as the confirmation sees it; documents are points of the 3D frame. */
export interface VectorSpace {
  readonly dims: number
  /** The document's vector, or undefined when it has none. */
  readonly vectorOf: (point: number) => Float32Array | undefined
  /** Cosine similarity of each query to its NEIGHBOURS-th nearest document other than `self[i]` (null: any). */
  readonly similarityToNearest: (queries: ReadonlyArray<Float32Array>, self: ReadonlyArray<number | null>) => ReadonlyArray<number>
}

/** The candidates confirmed in vector space, each with its check. */
export const confirmVoids = <C extends { readonly bordering: ReadonlyArray<{ readonly point: number; readonly distance: number }> }>(
  candidates: ReadonlyArray<C>,
  space: VectorSpace
) =>
  candidates.flatMap((candidate) => {
    const members = candidate.bordering.filter((b) => space.vectorOf(b.point) !== undefined)
    if (members.length < 3) return []
    const vectors = members.map((b) => space.vectorOf(b.point)!)
    const centre = centreVector(vectors, members.map((b) => 1 / (b.distance + 1e-6)), space.dims)
    const [centreSimilarity] = space.similarityToNearest([centre], [null])
    const check = checkVoid(centreSimilarity, space.similarityToNearest(vectors, members.map((b) => b.point)))
    return check.confirmed ? [{ candidate, check }] : []
  })
