/**
 * Synthetic unit vectors shaped like patent space for index tests and benchmarks: topics as
 * random centres, documents as noisy copies of one (so neighbours are mostly in the same topic).
 */
import { normalizeRows } from "../../core/index/vector-file.ts"
import { seededRandom } from "../../core/random.ts"

export const clusteredUnitVectors = (n: number, dims: number, o: { readonly seed: number; readonly topics: number; readonly noise?: number }) => {
  const rnd = seededRandom(o.seed)
  const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd())
  const centres = Array.from({ length: o.topics }, () => Float32Array.from({ length: dims }, gauss))
  const m = new Float32Array(n * dims)
  for (let i = 0; i < n; i++) {
    const c = centres[Math.floor(rnd() * centres.length)]!
    for (let d = 0; d < dims; d++) m[i * dims + d] = c[d]! + (o.noise ?? 0.8) * gauss()
  }
  return normalizeRows(m, dims)
}
