/**
 * The served vector index (core/index/hnsw.ts): b1 codes over-fetched and re-scored exactly from
 * vectors.f32 answer like exact search, with exact cosines, in both call shapes; versions built
 * before b1 (f16, index.json without codes or connectivity) are still served; the binary codes
 * estimate angles.
 */
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { binaryCoder, codeBits, makeBinaryCodes } from "../../core/index/binary-codes.ts"
import { createIndex, exactSearch, viewIndex } from "../../core/index/hnsw.ts"
import { candidatesFor } from "../../core/index/rescore.ts"
import { normalizeRows, VECTOR_FILE, writeVectorFile } from "../../core/index/vector-file.ts"
import { seededRandom } from "../../core/random.ts"
import { DenseChannel } from "../../core/search/dense.ts"
import { buildIndex } from "../../pipeline/embed/build-index.ts"
import { chooseQuantization, measureServedRecall } from "../../pipeline/embed/quantization.ts"

const DIMS = 64
const N = 4000

/** Topics as random centres, documents as noisy copies: neighbours are mostly in the same topic. */
const clustered = (n: number, dims: number, seed = 3) => {
  const rnd = seededRandom(seed)
  const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd())
  const centres = Array.from({ length: 80 }, () => Float32Array.from({ length: dims }, gauss))
  const m = new Float32Array(n * dims)
  for (let i = 0; i < n; i++) {
    const c = centres[Math.floor(rnd() * centres.length)]
    for (let d = 0; d < dims; d++) m[i * dims + d] = c[d] + 0.8 * gauss()
  }
  return normalizeRows(m, dims)
}

const vectors = clustered(N, DIMS)
const row = (i: number) => vectors.slice(i * DIMS, (i + 1) * DIMS)
let root: string

/** Writes an index version directory as the embed stage does; `info` overrides index.json. */
const writeVersion = async (name: string, build: ReturnType<typeof buildIndex>, o: { info?: object; vectorFile?: boolean } = {}) => {
  const dir = path.join(root, name)
  await fs.mkdir(dir, { recursive: true })
  build.raw.save(path.join(dir, "hnsw.usearch"))
  await fs.writeFile(path.join(dir, "index.json"), JSON.stringify(o.info ?? { ...build.info, metric: "cos" }))
  if (o.vectorFile !== false) await writeVectorFile(path.join(dir, VECTOR_FILE), vectors)
  return path.join(dir, "hnsw.usearch")
}

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "served-index-"))
})
afterAll(() => fs.rm(root, { recursive: true, force: true }))

describe("binary codes", () => {
  it("rotate without changing angles and give as many bits as the blocks ask", () => {
    const codes = makeBinaryCodes(DIMS, 2)
    const { bits, rotate } = binaryCoder(codes)
    expect(bits).toBe(codeBits(codes))
    expect(bits).toBe(128)
    const [a, b] = [rotate(row(0)), rotate(row(1))]
    const cos = (x: Float32Array, y: Float32Array) => x.reduce((s, v, i) => s + v * y[i], 0) / Math.hypot(...x) / Math.hypot(...y)
    // Each block is an orthogonal map (up to scale), so cosines survive it.
    expect(cos(a.subarray(0, 64), b.subarray(0, 64))).toBeCloseTo(cos(row(0), row(1)), 4)
    expect(cos(a.subarray(64), b.subarray(64))).toBeCloseTo(cos(row(0), row(1)), 4)
  })

  it("estimate the angle between two vectors by the fraction of differing bits", () => {
    const { bits, rotate } = binaryCoder(makeBinaryCodes(DIMS, 8))
    const rnd = seededRandom(9)
    let error = 0
    for (let t = 0; t < 50; t++) {
      const [i, j] = [Math.floor(rnd() * N), Math.floor(rnd() * N)]
      const [a, b] = [rotate(row(i)), rotate(row(j))]
      let differing = 0
      for (let x = 0; x < bits; x++) if (a[x] > 0 !== b[x] > 0) differing++
      const angle = Math.acos(Math.min(1, Math.max(-1, row(i).reduce((s, v, x) => s + v * vectors[j * DIMS + x], 0))))
      error += Math.abs(differing / bits - angle / Math.PI)
    }
    expect(error / 50).toBeLessThan(0.05)
  })

  it("are the same for the same stored signs (index.json carries them, not a seed)", () => {
    const codes = makeBinaryCodes(DIMS, 1, 5)
    const again = JSON.parse(JSON.stringify(codes))
    expect(binaryCoder(again).rotate(row(7))).toEqual(binaryCoder(codes).rotate(row(7)))
    expect(makeBinaryCodes(DIMS, 1, 6).signs).not.toBe(codes.signs)
  })
})

describe("served index", () => {
  it("a b1 index over-fetches and re-scores: recall@10 ≥ 0.95 against exact search, with exact cosines", async () => {
    const file = await writeVersion("b1", buildIndex(vectors, DIMS, "b1"))
    const index = viewIndex(file, DIMS, "b1")
    expect(index.size()).toBe(N)
    expect(measureServedRecall(index, vectors, DIMS, 100)).toBeGreaterThanOrEqual(0.95)
    const q = row(11)
    const found = index.search(q, 10)
    expect(found.keys.length).toBe(10)
    expect(Number(found.keys[0])).toBe(11)
    for (let i = 0; i < 10; i++) {
      const exact = exactSearch(row(Number(found.keys[i])), q, DIMS, 1).distances[0]
      expect(found.distances[i]).toBeCloseTo(exact, 5)
      if (i) expect(found.distances[i]).toBeGreaterThanOrEqual(found.distances[i - 1])
    }
    expect(candidatesFor("b1", 10, N)).toBeGreaterThan(10)
  })

  it("answers a batch of queries in usearch's BatchMatches shape, each like its single search", async () => {
    const index = viewIndex(path.join(root, "b1", "hnsw.usearch"), DIMS, "b1")
    const batch = new Float32Array(3 * DIMS)
    ;[5, 50, 500].forEach((i, j) => batch.set(row(i), j * DIMS))
    const found = index.search(batch, 4)
    expect("get" in found).toBe(true)
    if (!("get" in found)) return
    ;[5, 50, 500].forEach((i, j) => expect(found.get(j)).toEqual(index.search(row(i), 4)))
  })

  it("the dense channel re-scores from its resident vectors the same as from vectors.f32", () => {
    const index = viewIndex(path.join(root, "b1", "hnsw.usearch"), DIMS, "b1")
    const fromFile = new DenseChannel(index, DIMS, N).search(row(123), { depth: 20 })
    const resident = new DenseChannel(index, DIMS, N, vectors).search(row(123), { depth: 20 })
    expect(resident.hits.map((h) => h.key)).toEqual(fromFile.hits.map((h) => h.key))
    resident.hits.forEach((h, i) => expect(h.score).toBeCloseTo(fromFile.hits[i].score, 6))
  })

  it("serves an f16 version built before b1 (index.json without codes or connectivity), with and without vectors.f32", async () => {
    const raw = createIndex(DIMS, "f16")
    raw.add(BigUint64Array.from({ length: N }, (_, i) => BigInt(i)), vectors, 0)
    const old = { raw, info: { dims: DIMS, quantization: "f16" as const }, served: undefined as never }
    const legacyInfo = { dims: DIMS, count: N, metric: "cos", quantization: "f16", recallAt10: { i8: 0.9, f16: 0.99 } }
    for (const vectorFile of [true, false]) {
      const file = await writeVersion(`f16-${vectorFile}`, old, { info: legacyInfo, vectorFile })
      const index = viewIndex(file, DIMS, "f16")
      expect(measureServedRecall(index, vectors, DIMS, 50)).toBeGreaterThanOrEqual(0.95)
      const found = index.search(row(42), 5)
      expect(Number(found.keys[0])).toBe(42)
      expect(found.distances[0]).toBeCloseTo(0, vectorFile ? 5 : 2)
    }
  })

  it("a b1 version without vectors.f32 still ranks, by the codes' angle estimate", async () => {
    const file = await writeVersion("b1-no-vectors", buildIndex(vectors, DIMS, "b1"), { vectorFile: false })
    const found = viewIndex(file, DIMS, "b1").search(row(8), 5)
    expect(Number(found.keys[0])).toBe(8)
    expect(found.distances[0]).toBeCloseTo(0, 5)
    expect(found.distances[4]).toBeGreaterThan(0)
  })
})

describe("quantization choice", () => {
  it("takes the most compact form whose end-to-end recall reaches 0.95, and records the measurement", () => {
    const choice = chooseQuantization(vectors, DIMS)
    expect(choice.quantization).toBe("b1")
    expect(choice.recallAt10.b1).toBeGreaterThanOrEqual(0.95)
    expect(choice.recallAt10.f16).toBeUndefined()
  })
})
