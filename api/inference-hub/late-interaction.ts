/**
 * Late-interaction (ColBERT-style) scoring: each query token finds its best-matching candidate
 * token (MaxSim) and the score is the mean of those maxima. Token vectors are L2-normalised,
 * so dot products are cosines and the score lies in [-1, 1].
 */
export const maxSim = (query: ReadonlyArray<Float32Array>, candidate: ReadonlyArray<Float32Array>): number => {
  if (query.length === 0 || candidate.length === 0) return 0
  let total = 0
  for (const q of query) {
    let best = -Infinity
    for (const c of candidate) {
      let dot = 0
      for (let i = 0; i < q.length; i++) dot += q[i] * c[i]
      if (dot > best) best = dot
    }
    total += best
  }
  return total / query.length
}
