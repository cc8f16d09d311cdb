import onnxProto from "onnx-proto"
import ort from "onnxruntime-node"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loadTextEncoder, type PatentTextEncoder } from "../../core/encoder/encoder.ts"
import { SubwordTextEncoder } from "../../core/encoder/subword-encoder.ts"
import { subwordInputNames } from "../../core/encoder/subword-format.ts"
import { fastTextHash, featurizeSubwordText, ngramRows, subwordTokens, wordRows } from "../../core/encoder/subwords.ts"
import { saveSubwordEncoder } from "../../pipeline/encoder/save.ts"
import { projectSubwordText, samplingRates, trainSubwordEncoder, type TrainedSubwordEncoder } from "../../pipeline/encoder/subword-train.ts"
import { buildLegacySubwordEncoderModel, runLegacySubwordGraph } from "./legacy-subword-graph.ts"
import { sampleAbstracts, sampleTitles } from "./sample-texts.ts"

const { onnx } = onnxProto

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, v, i) => s + v * b[i], 0)
const norm = (a: Float32Array) => Math.sqrt(dot(a, a))
const maxAbsDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0)
const unit = (a: Float32Array) => {
  const n = norm(a)
  return Float32Array.from(a, (x) => x / n)
}

const abstracts = sampleAbstracts()
const titles = sampleTitles()

let dir: string
let model: TrainedSubwordEncoder
let encoder: PatentTextEncoder

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "subword-encoder-"))
  // A small model keeps the test quick; the stage trains the full-size one.
  model = await trainSubwordEncoder(
    [
      { name: "titles", texts: titles },
      { name: "abstracts", texts: abstracts }
    ],
    [...abstracts, ...titles],
    { dimensions: 32, bucket: 20_000, epochs: 3, minCount: 2 }
  )
  await saveSubwordEncoder(dir, model)
  encoder = await loadTextEncoder(path.join(dir, "encoder"))
}, 120_000)

afterAll(async () => {
  await encoder?.close()
  await fs.rm(dir, { recursive: true, force: true })
})

describe("subword featurisation", () => {
  it("splits text into lower-cased runs of letters and digits, as the trainer is fed", () => {
    expect(subwordTokens("A Semi-conductor WAFER, 5 µm; Größe")).toEqual(["a", "semi", "conductor", "wafer", "5", "μm", "größe"])
    expect(subwordTokens("  ,; ")).toEqual([])
  })

  it("hashes n-grams with fastText's FNV-1a over sign-extended bytes", () => {
    // FNV-1a of "a" (0x61) and of the byte 0xC3 sign-extended to 0xFFFFFFC3.
    expect(fastTextHash(new TextEncoder().encode("a"))).toBe(Math.imul(2166136261 ^ 0x61, 16777619) >>> 0)
    expect(fastTextHash(Uint8Array.of(0xc3))).toBe(Math.imul((2166136261 ^ 0xffffffc3) >>> 0, 16777619) >>> 0)
  })

  it("gives every word the rows the trainer gives it: dictionary words, unseen words, accented words", () => {
    for (const word of ["semiconductor", "the", "wafer", "zyxqolophonic", "größe", "x", "étanchéité"]) {
      expect(wordRows(word, model.settings, model.dictionary).sort((a, b) => a - b)).toEqual(
        model.trainerWordRows(word).sort((a, b) => a - b)
      )
    }
  })

  it("no word is out of vocabulary: an unseen word has n-gram rows", () => {
    expect(model.dictionary.row("zyxqolophonic")).toBeUndefined()
    expect(ngramRows("zyxqolophonic", model.settings).length).toBeGreaterThan(10)
  })
})

describe("subword encoder trained on the sample corpus", () => {
  it("is a real model: the trainer kept the sample's vocabulary and the folder loads as the subword kind", () => {
    expect(encoder).toBeInstanceOf(SubwordTextEncoder)
    expect(encoder.kind).toBe("patent-subword")
    expect(encoder.dimensions).toBe(32)
    expect(model.dictionary.row("semiconductor")).toBeDefined()
    expect(model.settings.nwords).toBe(model.dictionary.words.length)
    expect(model.stats.trainingWords).toBeGreaterThan(50_000)
  })

  it("ONNX word vectors equal the trainer's own (fastText getWordVector) within 1e-5, seen or unseen", async () => {
    const words = ["semiconductor", "battery", "vehicle", "zyxqolophonic", "electroluminescently", "größe"]
    const tokens = await encoder.encodeTokensBatch(words)
    for (const [i, word] of words.entries()) {
      expect(tokens[i].tokens).toEqual([word])
      const trainer = model.trainerWordVector(word)
      expect(norm(trainer)).toBeGreaterThan(0)
      expect(maxAbsDiff(tokens[i].vectors[0], unit(trainer))).toBeLessThan(1e-5)
    }
  })

  it("ONNX text vectors equal the training side's own projection within 1e-5", async () => {
    const texts = [...abstracts.slice(0, 20), ...titles.slice(0, 20), "a zyxqolophonic gadget", ""]
    const vectors = await encoder.encode(texts)
    for (const [i, text] of texts.entries()) {
      const expected = projectSubwordText(model, text)
      expect(maxAbsDiff(vectors[i], expected)).toBeLessThan(1e-5)
      if (text) expect(norm(vectors[i])).toBeCloseTo(1, 5)
    }
    expect(norm(vectors[texts.length - 1])).toBe(0)
  })

  it("an unseen word gets a non-zero vector, near the words it shares n-grams with", async () => {
    const [unseen, related, other] = await encoder.encode(["semiconductorization", "semiconductor", "umbrella"])
    expect(model.dictionary.row("semiconductorization")).toBeUndefined()
    expect(norm(unseen)).toBeCloseTo(1, 5)
    expect(dot(unseen, related)).toBeGreaterThan(dot(unseen, other))
  })

  it("pools with SIF weights: frequent words weigh less than rare ones", () => {
    const f = (encoder as SubwordTextEncoder).featurize("the semiconductor")
    expect(f.words).toEqual(["the", "semiconductor"])
    expect(f.weights[0]).toBeLessThan(f.weights[1])
  })

  it("batches of mixed lengths encode each text as it encodes alone", async () => {
    const texts = [abstracts[0], titles[3], "x", abstracts[5]]
    const together = await encoder.encode(texts)
    for (const [i, text] of texts.entries()) {
      const [alone] = await encoder.encode([text])
      expect(maxAbsDiff(together[i], alone)).toBeLessThan(1e-6)
    }
  })

  it("the export round-trips: the saved graph holds the trainer's matrix, and a reload encodes the same", async () => {
    const bytes = await fs.readFile(path.join(dir, "encoder", "model.onnx"))
    const proto = onnx.ModelProto.decode(bytes)
    const table = proto.graph!.initializer!.find((t) => t.name === "row_table")!
    expect(table.dims!.map(Number)).toEqual([model.settings.nwords + model.settings.bucket + 1, 32])
    const raw = table.rawData!
    const stored = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength))
    expect(Array.from(stored.subarray(0, 32))).toEqual(new Array(32).fill(0))
    expect(maxAbsDiff(stored.subarray(32), model.inputMatrix)).toBe(0)
    const again = await loadTextEncoder(path.join(dir, "encoder"))
    try {
      const [a] = await again.encode([abstracts[1]])
      const [b] = await encoder.encode([abstracts[1]])
      expect(maxAbsDiff(a, b)).toBe(0)
    } finally {
      await again.close()
    }
  })

  it("texts on one subject are closer than texts on different subjects", async () => {
    const [etch1, etch2, car] = await encoder.encode([
      "method for etching a semiconductor wafer with plasma",
      "plasma etching apparatus for silicon substrates",
      "vehicle seat with adjustable headrest"
    ])
    expect(dot(etch1, etch2)).toBeGreaterThan(dot(etch1, car))
  })
})

describe("each distinct word computed once", () => {
  const repetitive = [
    "the wafer the wafer the wafer is etched, the wafer is cleaned",
    abstracts[0],
    `${abstracts[0]} ${abstracts[0]}`,
    titles[3],
    abstracts[0],
    "x",
    "",
    `${titles[3]} zyxqolophonic ${titles[3]} zyxqolophonic`,
    abstracts[7]
  ]

  it("a batch whose texts share and repeat words gives each text the very vector it gets alone, from a cold or a warm cache, on one thread or more", async () => {
    const [together, oneByOne] = await Promise.all([loadTextEncoder(path.join(dir, "encoder")), loadTextEncoder(path.join(dir, "encoder"), { threads: 1 })])
    try {
      const batch = await together.encode(repetitive)
      for (const [i, text] of repetitive.entries()) {
        const [alone] = await oneByOne.encode([text])
        const [warm] = await encoder.encode([text])
        expect(maxAbsDiff(batch[i], alone)).toBe(0)
        expect(maxAbsDiff(batch[i], warm)).toBe(0)
      }
      // A text written twice over has the same direction as the text once.
      expect(maxAbsDiff(batch[1], batch[2])).toBeLessThan(1e-6)
    } finally {
      await Promise.all([together.close(), oneByOne.close()])
    }
  })

  it("token vectors of repeated words: one per distinct word, weighted by its occurrences", async () => {
    const [t] = await encoder.encodeTokensBatch([repetitive[0]])
    const f = featurizeSubwordText(repetitive[0], model.settings, model.dictionary)
    expect(t.tokens).toEqual(["the", "wafer", "is", "etched", "cleaned"])
    expect(Array.from(t.weights)).toEqual(Array.from(f.weights))
    for (const [w, word] of t.tokens.entries()) expect(maxAbsDiff(t.vectors[w], unit(model.trainerWordVector(word)))).toBeLessThan(1e-5)
  })

  it("the exported graph takes words, not texts", async () => {
    const proto = onnx.ModelProto.decode(await fs.readFile(path.join(dir, "encoder", "model.onnx")))
    expect(proto.graph!.input!.map((i) => i.name)).toEqual(Object.values(subwordInputNames))
  })
})

describe("a folder written before the per-word graph", () => {
  let legacyFolder: string
  let legacy: PatentTextEncoder
  let legacyGraph: ort.InferenceSession
  const texts = [...abstracts.slice(0, 12), ...titles.slice(0, 12), "a zyxqolophonic gadget", "semiconductor semiconductor wafer", ""]

  beforeAll(async () => {
    legacyFolder = path.join(dir, "legacy", "encoder")
    await fs.mkdir(legacyFolder, { recursive: true })
    for (const file of ["tokenizer.json", "vocab.json"]) await fs.copyFile(path.join(dir, "encoder", file), path.join(legacyFolder, file))
    const d = model.settings.dimensions
    const table = new Float32Array(model.inputMatrix.length + d)
    table.set(model.inputMatrix, d)
    await fs.writeFile(path.join(legacyFolder, "model.onnx"), buildLegacySubwordEncoderModel(table, table.length / d, d, model.commonComponent, { kind: "patent-subword" }))
    legacy = await loadTextEncoder(legacyFolder)
    legacyGraph = await ort.InferenceSession.create(path.join(legacyFolder, "model.onnx"))
  })

  afterAll(async () => {
    await Promise.allSettled([legacy?.close(), legacyGraph?.release()])
  })

  it("loads, and encodes as its own graph did (within 1e-6) and as the trainer does (within 1e-5)", async () => {
    expect(legacy).toBeInstanceOf(SubwordTextEncoder)
    const vectors = await legacy.encode(texts)
    const before = await runLegacySubwordGraph(legacyGraph, texts.map((t) => featurizeSubwordText(t, model.settings, model.dictionary)))
    for (const [i, text] of texts.entries()) {
      expect(maxAbsDiff(vectors[i], before[i].vector)).toBeLessThan(1e-6)
      expect(maxAbsDiff(vectors[i], projectSubwordText(model, text))).toBeLessThan(1e-5)
    }
    expect(norm(vectors[texts.length - 1])).toBe(0)
  })

  it("gives the very vectors and token vectors a folder exported today gives", async () => {
    const [old, today] = await Promise.all([legacy.encode(texts), encoder.encode(texts)])
    for (const i of texts.keys()) expect(maxAbsDiff(old[i], today[i])).toBe(0)
    const [oldTokens, todayTokens] = await Promise.all([legacy.encodeTokensBatch(texts.slice(0, 3)), encoder.encodeTokensBatch(texts.slice(0, 3))])
    const before = await runLegacySubwordGraph(legacyGraph, texts.slice(0, 3).map((t) => featurizeSubwordText(t, model.settings, model.dictionary)))
    for (const [i, t] of oldTokens.entries()) {
      expect(t.tokens).toEqual(todayTokens[i].tokens)
      for (const [w, v] of t.vectors.entries()) {
        expect(maxAbsDiff(v, todayTokens[i].vectors[w])).toBe(0)
        expect(maxAbsDiff(v, before[i].tokens[w])).toBeLessThan(1e-6)
      }
    }
  })

  it("is left as written: the re-export happens in memory", async () => {
    const proto = onnx.ModelProto.decode(await fs.readFile(path.join(legacyFolder, "model.onnx")))
    expect(proto.graph!.input!.map((i) => i.name)).toEqual(["piece_rows", "piece_weights", "word_weights"])
  })
})

describe("training budget", () => {
  it("keeps small sources whole and thins the large ones to their weighted share", () => {
    const rates = samplingRates([100, 10_000, 10_000], [1, 1, 3], 4_100)
    expect(rates[0]).toBe(1)
    expect(rates[1] * 10_000).toBeCloseTo(1_000, 6)
    expect(rates[2] * 10_000).toBeCloseTo(3_000, 6)
    expect(samplingRates([10, 20], [1, 1], 1_000)).toEqual([1, 1])
  })

  it("spends the whole budget: a corpus smaller than it is read whole, a larger one to the budget", () => {
    // The sample's sources (applications, claims, CPC titles, descriptions, MPEP, EPO) and weights.
    const words = [114_366, 248_522, 4_576_070, 1_932_295, 579_460, 299_365]
    const weights = [1, 1, 8, 1, 1, 1]
    expect(samplingRates(words, weights, 8_000_000)).toEqual([1, 1, 1, 1, 1, 1])
    const read = samplingRates(words, weights, 4_000_000).reduce((n, r, i) => n + r * words[i], 0)
    expect(read).toBeCloseTo(4_000_000, 0)
  })
})
