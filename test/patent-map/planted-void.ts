/**
 * A planted void for the whitespace tests. The sample's own atlas holds one confirmed void or none
 * depending on the encoder (its void passes the vector check by a few hundredths), so the tests
 * that serve the atlas carve a gap into a copy of the version and build the atlas there with the
 * real stage.
 *
 * The gap is real on the map and in vector space: the documents inside a ball of the map lose
 * their point (map/coordinates.parquet), their label in the HNSW graph and their rows of
 * index/vectors.parquet and embeddings.parquet, as if they had left the corpus. Their rows of
 * vectors.f32 stay (key = row for every other document) but nothing reaches them any more.
 *
 * Where to carve: a hole inside one topic is no whitespace (the centre of the art around it is as
 * close to that art as the art is to itself, and confirm.ts drops it); a hole between
 * topics is. Balls around documents spread over the corpus are ranked cheaply by how little their
 * bordering art covers its own centre; the best few are carved in memory and judged by the atlas's
 * own void search and vector check, and the one whose centre is least covered against its border wins.
 */
import { DuckDBInstance } from "@duckdb/node-api"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { binaryCoder } from "../../core/index/binary-codes.ts"
import { createIndex, HNSW_CONNECTIVITY, type IndexInfo, type ServedIndex, viewIndex } from "../../core/index/hnsw.ts"
import { readLabels } from "../../core/index/labels.ts"
import { readVectorFile, VECTOR_FILE } from "../../core/index/vector-file.ts"
import { centreVector, confirmVoids, NEIGHBOURS, type VectorSpace } from "../../pipeline/atlas/confirm.ts"
import { buildGrid } from "../../pipeline/atlas/grid.ts"
import { DIRECTIONS as GRID_DIRECTIONS, findVoidCandidates, gridSizeFor, type VoidCandidate } from "../../pipeline/atlas/voids.ts"

/**
 * Radius of the carved ball, in mean cells of the atlas's first grid (103 documents on the sample).
 * On 12 stand-ins for a retrained encoder (maps re-fitted, vectors distorted) 3 cells left the
 * planted void a confirmation margin of 0.048 at worst (median 0.074); 2.5 cells left 0.017, and 4
 * cells 0.046 while carving twice as many documents.
 */
const RADIUS_CELLS = 3
/** Balls ranked (around every n/PLACES-th document); the best are judged by the atlas's code until JUDGED leave a void it finds (of at most TRIED). */
const PLACES = 1000
const JUDGED = 12
const TRIED = 48
/**
 * The planted void must pass the atlas's search with room to spare: 10 more in significance than
 * the atlas asks (ln n + 5: e^10 times less likely by chance), art on both sides along three
 * quarters of the directions (it asks half) and a balance of 0.6 (it asks 0.5).
 */
const roomy = (c: VoidCandidate, n: number) => c.surprise >= Math.log(n) + 15 && c.enclosure >= 0.75 && c.balance >= 0.6
/** Neighbours searched per document: enough to skip the carved ones. */
const SEARCHED = 64

/** The 26 grid directions voids.ts walks, as unit vectors. */
const DIRECTIONS = GRID_DIRECTIONS.map((d) => d.map((v) => v / Math.hypot(...d)))

/**
 * The documents within `radius` of document p, and roughly the bordering art the atlas would
 * gather for the gap they leave: the nearest document out to twice the radius along each grid
 * direction. Undefined unless art lies beyond the ball in all 8 octants (enclosure and balance).
 */
const ballAround = (coords: Float32Array, p: number, radius: number) => {
  const members = new Set<number>()
  let octants = 0
  const nearest = DIRECTIONS.map(() => ({ point: -1, distance: Infinity }))
  for (let q = 0; q < coords.length / 3; q++) {
    const x = coords[q * 3] - coords[p * 3], y = coords[q * 3 + 1] - coords[p * 3 + 1], z = coords[q * 3 + 2] - coords[p * 3 + 2]
    const distance = Math.hypot(x, y, z)
    if (distance <= radius) members.add(q)
    if (distance <= radius || distance > 2 * radius) continue
    octants |= 1 << ((x > 0 ? 4 : 0) + (y > 0 ? 2 : 0) + (z > 0 ? 1 : 0))
    let side = 0
    for (let s = 1; s < DIRECTIONS.length; s++) {
      const [u, w] = [DIRECTIONS[s], DIRECTIONS[side]]
      if (u[0] * x + u[1] * y + u[2] * z > w[0] * x + w[1] * y + w[2] * z) side = s
    }
    if (distance < nearest[side].distance) nearest[side] = { point: q, distance }
  }
  const bordering = nearest.filter((b) => b.point >= 0)
  return octants === 255 && bordering.length >= 3 ? { centre: p, members, bordering } : undefined
}

/**
 * The ball to carve: `coords` are the map's points, `keys` their rows of `vectors` (unit vectors,
 * row-major) and labels in `index`, the version's HNSW index. `excess` is the planted void's centre
 * similarity less its border's as the atlas measures it, which confirm.ts compares with the
 * populated places' median (vectorCheckMargin).
 */
const chooseVoid = (coords: Float32Array, keys: ReadonlyArray<number>, vectors: Float32Array, index: ServedIndex) => {
  const n = coords.length / 3
  const dims = index.info.dims
  const vectorOf = (p: number) => vectors.subarray(keys[p] * dims, (keys[p] + 1) * dims)
  /** Similarity of `v` to its NEIGHBOURS-th nearest document among `points` (all when omitted) that `kept` keeps, exactly. */
  const coverage = (v: Float32Array, kept: (q: number) => boolean, points?: ReadonlyArray<number>) => {
    const top = new Array<number>(NEIGHBOURS).fill(-Infinity)
    for (let i = 0; i < (points ?? keys).length; i++) {
      const q = points ? points[i] : i
      if (!kept(q)) continue
      let s = 0
      for (let d = 0, at = keys[q] * dims; d < dims; d++) s += v[d] * vectors[at + d]
      if (s > top[NEIGHBOURS - 1]) (top[NEIGHBOURS - 1] = s), top.sort((a, b) => b - a)
    }
    return top[NEIGHBOURS - 1]
  }
  // Ranked cheaply: the centre's coverage by the bordering art alone (most of what covers it once the ball is gone).
  const step = buildGrid(coords, gridSizeFor(n)).step
  const radius = (RADIUS_CELLS * (step[0] + step[1] + step[2])) / 3
  const balls = []
  for (let p = 0; p < n; p += Math.max(1, Math.floor(n / PLACES))) {
    const ball = ballAround(coords, p, radius)
    if (!ball) continue
    const centre = centreVector(ball.bordering.map((b) => vectorOf(b.point)), ball.bordering.map((b) => 1 / (b.distance + 1e-6)), dims)
    balls.push({ ...ball, byBorder: coverage(centre, () => true, ball.bordering.map((b) => b.point)) })
  }
  const ranked = balls.sort((a, b) => a.byBorder - b.byBorder || a.centre - b.centre).slice(0, TRIED)

  // Judged by the atlas's code on the map and vector space without the ball. A document's nearest
  // documents are searched once (the index still holds the carved ones: they are skipped).
  const pointOf = new Map(keys.map((k, p) => [k, p]))
  const searched = new Map<number, ReadonlyArray<number>>()
  const nearest = (v: Float32Array) => {
    const m = index.search(v, SEARCHED, 0) as { keys: BigUint64Array; distances: Float32Array }
    return Array.from(m.keys, (k, j) => [pointOf.get(Number(k)) ?? -1, 1 - m.distances[j]]).flat()
  }
  let best: { ball: (typeof ranked)[number]; excess: number } | undefined
  let judged = 0
  for (const ball of ranked) {
    if (judged === JUDGED) break
    const left = Array.from({ length: n }, (_, p) => p).filter((p) => !ball.members.has(p))
    const carved = Float32Array.from(left.flatMap((p) => [coords[p * 3], coords[p * 3 + 1], coords[p * 3 + 2]]))
    const at = [0, 1, 2].map((d) => coords[ball.centre * 3 + d])
    const candidate = findVoidCandidates(carved).candidates.find((c) => Math.hypot(c.position[0] - at[0], c.position[1] - at[1], c.position[2] - at[2]) < radius)
    if (!candidate || !roomy(candidate, n)) continue
    judged++
    const kept = (q: number) => q >= 0 && !ball.members.has(q)
    const space: VectorSpace = {
      dims,
      vectorOf: (i) => vectorOf(left[i]),
      similarityToNearest: (queries, self) =>
        queries.map((v, i) => {
          const own = self[i] === null ? -1 : left[self[i]!]
          const pairs = own >= 0 ? (searched.get(own) ?? searched.set(own, nearest(v)).get(own)!) : nearest(v)
          const others = []
          for (let j = 0; j < pairs.length; j += 2) if (pairs[j] !== own && kept(pairs[j])) others.push(pairs[j + 1])
          return others[NEIGHBOURS - 1] ?? coverage(v, (q) => q !== own && kept(q))
        })
    }
    const [checked] = confirmVoids([candidate], space, Infinity)
    const excess = checked ? checked.check.centreSimilarity - checked.check.borderSimilarity : Infinity
    if (!best || excess < best.excess) best = { ball, excess }
  }
  if (!best || best.excess === Infinity) throw new Error(`none of ${ranked.length} balls of radius ${radius.toFixed(3)} left a void the atlas finds with room to spare`)
  const c = best.ball.centre
  return { centre: [coords[c * 3], coords[c * 3 + 1], coords[c * 3 + 2]] as const, radius, members: [...best.ball.members], excess: best.excess, judged }
}

/** Chooses and carves the void into the version folder `dir` in place; returns the carved ball. */
export const carveVoid = async (dir: string) => {
  const file = (f: string) => `'${path.join(dir, f)}'`
  const info = JSON.parse(await fs.readFile(path.join(dir, "index/index.json"), "utf8")) as IndexInfo
  const db = await DuckDBInstance.create(":memory:")
  const conn = await db.connect()
  const run = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJS() as Record<string, any>[]
  try {
    const points = await run(`SELECT key, app_num, x, y, z FROM read_parquet(${file("map/coordinates.parquet")}) ORDER BY key`)
    const coords = new Float32Array(points.length * 3)
    points.forEach((r, i) => coords.set([r.x, r.y, r.z], i * 3))
    const keys = points.map((r) => r.key as number)
    const count = info.count ?? points.length
    const vectors = await readVectorFile(path.join(dir, "index", VECTOR_FILE), info.dims, count)
    if (!vectors) throw new Error(`${dir} has no index/${VECTOR_FILE} of ${count} vectors`)
    const ball = chooseVoid(coords, keys, vectors, viewIndex(path.join(dir, "index/hnsw.usearch"), info.dims, info.quantization).withResidentVectors(vectors))

    const carved = ball.members.map((p) => `'${points[p].app_num}'`).join(",")
    for (const f of ["map/coordinates.parquet", "index/vectors.parquet", "index/embeddings.parquet"]) {
      await run(`COPY (SELECT * FROM read_parquet(${file(f)}) WHERE app_num NOT IN (${carved})) TO ${file(`${f}.tmp`)} (FORMAT parquet)`)
      await fs.rename(path.join(dir, `${f}.tmp`), path.join(dir, f))
    }
    // The graph loses the carved rows' labels (the row itself unless an extended graph's labels.u32 says otherwise).
    const labels = readLabels(path.join(dir, "index"), count)
    const graph = createIndex(info.codes ? binaryCoder(info.codes).bits : info.dims, info.quantization, info.connectivity ?? HNSW_CONNECTIVITY)
    graph.load(path.join(dir, "index/hnsw.usearch"))
    graph.remove(BigUint64Array.from(ball.members, (p) => BigInt(labels ? labels[keys[p]] : keys[p])))
    // Saved beside and renamed: the file is still memory-mapped by the view the choice searched.
    graph.save(path.join(dir, "index/hnsw.usearch.tmp"))
    await fs.rename(path.join(dir, "index/hnsw.usearch.tmp"), path.join(dir, "index/hnsw.usearch"))
    return ball
  } finally {
    conn.closeSync()
    db.closeSync()
  }
}
