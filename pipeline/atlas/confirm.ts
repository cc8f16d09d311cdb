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
 *
 * "Better covered" is calibrated on the version itself. Measured the same way around populated
 * places (bordering art gathered as a void's is, around documents spread over the corpus:
 * voids.ts), the centre is often better covered than its border: on the sample's map the centre's
 * similarity exceeds the border's by 0.04–0.06 at the median of such places (about −0.04 to +0.15
 * from the 10th to the 90th percentile), so "less covered than the border" failed most gaps and
 * passed one on noise (0.5689 against 0.5703). A void is confirmed when its centre's excess over
 * its border is below REFERENCE_QUANTILE of the populated places' (their median): a gap on the map
 * whose vectors fill it (a projection artefact) measures like a populated place and is dropped.
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

/**
 * A void's check: confirmed when the centre's similarity exceeds the border's by less than
 * `margin` (0: the centre is less covered than the border; see vectorCheckMargin).
 */
export const checkVoid = (centreSimilarity: number, borderNeighbourSimilarities: ReadonlyArray<number>, margin = 0): VectorCheck => {
  const sorted = [...borderNeighbourSimilarities].sort((a, b) => a - b)
  const borderSimilarity = sorted.length ? sorted[Math.floor(sorted.length / 2)] : 1
  return { centreSimilarity, borderSimilarity, confirmed: centreSimilarity - borderSimilarity < margin }
}

/** The original vector space as the confirmation sees it; documents are points of the 3D frame. */
export interface VectorSpace {
  readonly dims: number
  /** The document's vector, or undefined when it has none. */
  readonly vectorOf: (point: number) => Float32Array | undefined
  /** Cosine similarity of each query to its NEIGHBOURS-th nearest document other than `self[i]` (null: any). */
  readonly similarityToNearest: (queries: ReadonlyArray<Float32Array>, self: ReadonlyArray<number | null>) => ReadonlyArray<number>
}

type Bordered = { readonly bordering: ReadonlyArray<{ readonly point: number; readonly distance: number }> }

/** Centre and border similarities of each place (null where fewer than 3 bordering documents have vectors), in one search per side. */
const measure = (places: ReadonlyArray<Bordered>, space: VectorSpace) => {
  const members = places.map((p) => p.bordering.filter((b) => space.vectorOf(b.point) !== undefined))
  const measured = members.flatMap((m, i) => (m.length >= 3 ? [i] : []))
  const vectors = measured.map((i) => members[i].map((b) => space.vectorOf(b.point)!))
  const centres = measured.map((i, j) => centreVector(vectors[j], members[i].map((b) => 1 / (b.distance + 1e-6)), space.dims))
  const centreSimilarities = space.similarityToNearest(centres, centres.map(() => null))
  // A document's similarity to its own neighbours does not depend on the place it borders:
  // measured once per document (neighbouring places share much of their art).
  const documents = [...new Set(measured.flatMap((i) => members[i].map((b) => b.point)))]
  const ownSimilarities = space.similarityToNearest(documents.map((point) => space.vectorOf(point)!), documents)
  const similarityOf = new Map(documents.map((point, j) => [point, ownSimilarities[j]]))
  const out: Array<{ centre: number; border: ReadonlyArray<number> } | null> = places.map(() => null)
  measured.forEach((i, j) => {
    out[i] = { centre: centreSimilarities[j], border: members[i].map((b) => similarityOf.get(b.point)!) }
  })
  return out
}

/** The quantile of the populated places' excess a void's must stay below (0.5: their median). */
export const REFERENCE_QUANTILE = 0.5
/** Fewest measured places for a calibration; with fewer the margin is 0 (the centre less covered than the border). */
const MIN_REFERENCES = 30

/**
 * The margin a void's centre similarity may exceed its border's by: the REFERENCE_QUANTILE
 * quantile of that excess among populated places (voids.ts gathers their bordering art), so a
 * void's centre is emptier, against its border, than that share of the places where the map has art.
 */
export const vectorCheckMargin = (references: ReadonlyArray<Bordered>, space: VectorSpace) => {
  const excess = measure(references, space)
    .flatMap((m) => (m ? [checkVoid(m.centre, m.border)] : []))
    .map((c) => c.centreSimilarity - c.borderSimilarity)
    .sort((a, b) => a - b)
  return excess.length < MIN_REFERENCES ? 0 : excess[Math.floor(REFERENCE_QUANTILE * (excess.length - 1))]
}

/** The candidates confirmed in vector space, each with its check (`margin`: vectorCheckMargin). */
export const confirmVoids = <C extends Bordered>(candidates: ReadonlyArray<C>, space: VectorSpace, margin = 0) => {
  const measured = measure(candidates, space)
  return candidates.flatMap((candidate, i) => {
    const m = measured[i]
    if (!m) return []
    const check = checkVoid(m.centre, m.border, margin)
    return check.confirmed ? [{ candidate, check }] : []
  })
}
