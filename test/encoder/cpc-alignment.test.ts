import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as zlib from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loadTextEncoder, type PatentTextEncoder } from "../../core/encoder/encoder.ts"
import { applyAlignment, cpcAlignment, schemePairs, type SchemeEntry } from "../../pipeline/encoder/cpc-alignment.ts"
import { saveSubwordEncoder } from "../../pipeline/encoder/save.ts"
import { projectSubwordText, trainSubwordEncoder, type TrainedSubwordEncoder } from "../../pipeline/encoder/subword-train.ts"
import { sampleAbstracts, sampleTitles } from "./sample-texts.ts"

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i] * b[i]
  return s
}
const unit = (a: ArrayLike<number>) => {
  const n = Math.sqrt(dot(a, a)) || 1
  return Float32Array.from(a as ArrayLike<number>, (x) => x / n)
}
const maxAbsDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0)

/** Section F of the sample's CPC title list as scheme entries, each subgroup's parent from its dot depth. */
const sectionF = (): SchemeEntry[] => {
  const file = path.resolve(import.meta.dirname, "../../pipeline/sample-corpus/cpc/cpc-section-F_20250501.txt.gz")
  const lines = zlib.gunzipSync(fs.readFileSync(file)).toString("utf8").split("\n")
  const entries: SchemeEntry[] = []
  const stack: string[] = []
  for (const line of lines) {
    const [symbol, depth, title] = line.split("\t")
    if (!symbol?.includes("/") || title === undefined) continue
    const level = Number(depth)
    stack.length = level
    entries.push({ symbol, title, parent: level > 0 ? (stack[level - 1] ?? null) : null })
    stack[level] = symbol
  }
  return entries
}

/** A seeded normal draw (Box–Muller over mulberry32). */
const normals = (seed: number) => {
  const u = () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return (((t ^ (t >>> 14)) >>> 0) + 1) / 4294967297
  }
  return () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u())
}

describe("CPC alignment map", () => {
  it("keeps the directions along which related items agree and drops those where they differ like strangers", () => {
    // 8 dimensions: the first 3 carry an item's topic (shared by a related pair), the other 5 are
    // noise drawn afresh for every vector, louder than the topic.
    const d = 8
    const normal = normals(7)
    const vector = (topic: number[]) => Float64Array.from({ length: d }, (_, c) => (c < 3 ? topic[c] + 0.1 * normal() : 2 * normal()))
    const topic = () => [normal(), normal(), normal()]
    const related = Array.from({ length: 2000 }, () => {
      const t = topic()
      return [vector(t), vector(t)] as const
    })
    const unrelated = Array.from({ length: 2000 }, () => [vector(topic()), vector(topic())] as const)
    const w = cpcAlignment({ related, unrelated }, d, { shrinkage: 0.01 })!
    expect(w).toBeDefined()
    // The map sends the noise dimensions to (almost) nothing: its columns for them are near zero
    // against the topic columns.
    const columnNorm = (c: number) => Math.sqrt(Array.from({ length: d }, (_, r) => w[r * d + c] ** 2).reduce((s, x) => s + x, 0))
    for (let c = 3; c < d; c++) expect(columnNorm(c)).toBeLessThan(0.1 * Math.min(columnNorm(0), columnNorm(1), columnNorm(2)))
    // Related pairs drawn afresh now score far above unrelated ones; before the map they barely differ.
    const cosine = (a: Float64Array, b: Float64Array, map: boolean) =>
      map ? dot(unit(applyAlignment(w, a, d)), unit(applyAlignment(w, b, d))) : dot(unit(a), unit(b))
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length
    const fresh = Array.from({ length: 300 }, () => {
      const t = topic()
      return { same: [vector(t), vector(t)] as const, other: [vector(t), vector(topic())] as const }
    })
    const gap = (map: boolean) => mean(fresh.map((p) => cosine(...p.same, map))) - mean(fresh.map((p) => cosine(...p.other, map)))
    expect(gap(true)).toBeGreaterThan(0.7)
    expect(gap(false)).toBeLessThan(0.3)
  })

  it("needs enough pairs to estimate a D × D map", () => {
    const v = Float64Array.of(1, 0)
    expect(cpcAlignment({ related: [[v, v]], unrelated: [[v, v]] }, 2)).toBeUndefined()
  })

  it("pairs each scheme entry with its parent, and with an entry drawn at random, the same on every call", () => {
    const scheme = sectionF()
    const a = schemePairs(scheme, 500)
    expect(a.related.length).toBeGreaterThan(400)
    expect(a.unrelated.length).toBeGreaterThan(400)
    expect(schemePairs(scheme, 500)).toEqual(a)
    const titleOf = new Map(scheme.map((e) => [e.symbol, e.title]))
    const parents = new Set(scheme.filter((e) => e.parent).map((e) => `${e.title}\u0000${titleOf.get(e.parent!)}`))
    for (const [child, parent] of a.related) expect(parents.has(`${child}\u0000${parent}`)).toBe(true)
  })
})

describe("subword encoder aligned to the CPC hierarchy", () => {
  let dir: string
  let model: TrainedSubwordEncoder
  let encoder: PatentTextEncoder
  const titles = sampleTitles()
  const abstracts = sampleAbstracts()
  const scheme = sectionF()

  beforeAll(async () => {
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "cpc-alignment-"))
    model = await trainSubwordEncoder(
      [
        { name: "titles", texts: titles },
        { name: "cpc titles", texts: scheme.map((e) => e.title) },
        { name: "abstracts", texts: abstracts }
      ],
      [...abstracts, ...titles],
      { dimensions: 32, bucket: 20_000, epochs: 3, minCount: 2, alignmentPairs: 5_000 },
      scheme
    )
    await saveSubwordEncoder(dir, model)
    encoder = await loadTextEncoder(path.join(dir, "encoder"))
  }, 180_000)

  afterAll(async () => {
    await encoder?.close()
    await fs.promises.rm(dir, { recursive: true, force: true })
  })

  it("is trained with a map learned from the scheme's subgroup/parent pairs", () => {
    expect(model.alignment).toBeDefined()
    expect(model.alignment!.length).toBe(32 * 32)
    expect(model.stats.alignmentPairs).toBeGreaterThan(1000)
  })

  it("ONNX text vectors equal the training side's own aligned projection within 1e-5; an empty text has none", async () => {
    const texts = [...abstracts.slice(0, 15), ...scheme.slice(0, 15).map((e) => e.title), "a zyxqolophonic crankshaft", ""]
    const vectors = await encoder.encode(texts)
    for (const [i, text] of texts.entries()) {
      expect(maxAbsDiff(vectors[i], projectSubwordText(model, text))).toBeLessThan(1e-5)
      if (text) expect(Math.sqrt(dot(vectors[i], vectors[i]))).toBeCloseTo(1, 5)
    }
    expect(dot(vectors[texts.length - 1], vectors[texts.length - 1])).toBe(0)
  })

  it("the same model without the map gives other vectors: the map is in the graph, not only in the trainer", async () => {
    const plain = { ...model, alignment: undefined }
    const text = "crankshaft with counterweights"
    const [served] = await encoder.encode([text])
    expect(maxAbsDiff(served, projectSubwordText(plain, text))).toBeGreaterThan(1e-3)
  })
})
