import ort from "onnxruntime-node"
import onnxProto from "onnx-proto"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loadTextEncoder, type PatentTextEncoder, type TokenVectors } from "../../core/encoder/encoder.ts"
import { LsaTextEncoder } from "../../core/encoder/lsa-encoder.ts"
import { projectPatentText, trainLsaEncoder, type TrainedLsaEncoder } from "../../pipeline/encoder/train.ts"
import { saveLsaEncoder } from "../../pipeline/encoder/save.ts"
import { sampleAbstracts, sampleTitles } from "./sample-texts.ts"

const { onnx } = onnxProto

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, v, i) => s + v * b[i], 0)
const norm = (a: Float32Array) => Math.sqrt(dot(a, a))
const maxAbsDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0)
/** Late-interaction score: each query token takes its best match among the document's tokens. */
const maxSim = (q: TokenVectors, d: TokenVectors) =>
  q.vectors.reduce((s, qv) => s + Math.max(0, ...d.vectors.map((dv) => dot(qv, dv))), 0)

const abstracts = sampleAbstracts()
const titles = sampleTitles()

/** Pairs of texts on one subject each; every pair's subject differs from the others'. */
const topics = [
  ["method for etching a semiconductor wafer with plasma", "plasma etching apparatus for silicon substrates"],
  ["driver assistance for steering a vehicle on the road", "autonomous vehicle braking and lane control"],
  ["wireless communication between a base station and user equipment", "transmitting data over a cellular network to a mobile terminal"],
  ["battery cell with an electrolyte and electrode", "lithium ion battery electrode material"],
  ["hydrocarbon recovery from an oil well reservoir", "drilling a wellbore for oil and gas production"]
]

let dir: string
let model: TrainedLsaEncoder
let encoder: PatentTextEncoder
let saved: Awaited<ReturnType<typeof saveLsaEncoder>>

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "lsa-encoder-"))
  model = await trainLsaEncoder([...abstracts, ...titles])
  saved = await saveLsaEncoder(dir, model)
  encoder = await loadTextEncoder(path.join(dir, "encoder"))
})

afterAll(async () => {
  await encoder?.close()
  await fs.rm(dir, { recursive: true, force: true })
})

describe("LSA encoder trained on the sample corpus", () => {
  it("is trained on every text with a unigram + bigram vocabulary and full rank", () => {
    expect(abstracts.length).toBeGreaterThan(200)
    expect(model.stats.documents).toBe(abstracts.length + titles.length)
    expect(model.stats.bigrams).toBeGreaterThan(0)
    expect(model.vocabulary.terms).toContain("semiconductor")
    expect(model.vocabulary.terms.some((t) => t.includes(" "))).toBe(true)
    expect(model.settings.rank).toBe(256)
    expect(encoder.kind).toBe("patent-lsa")
    expect(encoder.dimensions).toBe(256)
    expect(saved.files).toEqual(["encoder/model.onnx", "encoder/vocab.json", "encoder/tokenizer.json", "encoder/training.json"])
  })

  it("gives through onnxruntime the training code's own projection (within 1e-5)", async () => {
    const texts = [
      ...abstracts.slice(0, 5),
      ...titles.slice(0, 5),
      "",
      "said wherein comprising the at least one of",
      "12 14a 2005",
      "zzqx frobnicated",
      abstracts.slice(0, 30).join(" ")
    ]
    const vectors = await encoder.encode(texts)
    expect(vectors).toHaveLength(texts.length)
    texts.forEach((text, i) => {
      expect(vectors[i]).toHaveLength(256)
      expect(maxAbsDiff(vectors[i], projectPatentText(model, text))).toBeLessThan(1e-5)
    })
  })

  it("returns the zero vector for text without any vocabulary term, a unit vector otherwise", async () => {
    const [empty, stop, numerals, real] = await encoder.encode(["", "said wherein comprising", "12 14a", abstracts[0]])
    for (const v of [empty, stop, numerals]) expect(v.every((x) => x === 0)).toBe(true)
    expect(norm(real)).toBeCloseTo(1, 5)
  })

  it("encodes a batch of mixed lengths exactly as one text at a time", async () => {
    const texts = [abstracts[3], "", titles[7], abstracts.slice(10, 20).join(" "), titles[8]]
    const batch = await encoder.encode(texts)
    for (const [i, t] of texts.entries()) {
      const [single] = await encoder.encode([t])
      expect(maxAbsDiff(batch[i], single)).toBeLessThan(1e-6)
    }
  })

  it("places texts on one subject closer together than texts on different subjects", async () => {
    const vectors = await Promise.all(topics.map((pair) => encoder.encode(pair)))
    for (const [i, [a, b]] of vectors.entries()) {
      const same = dot(a, b)
      for (const [j, [c, d]] of vectors.entries()) {
        if (i === j) continue
        for (const other of [dot(a, c), dot(a, d), dot(b, c), dot(b, d)]) expect(same).toBeGreaterThan(other)
      }
    }
  })

  it("finds an abstract from its own title-like paraphrase among all sample texts", async () => {
    const all = await encoder.encode(abstracts)
    const query = abstracts[12].split(" ").slice(0, 25).join(" ")
    const [q] = await encoder.encode([query])
    const best = all.map((v, i) => [dot(q, v), i] as const).sort((x, y) => y[0] - x[0])[0]
    expect(best[1]).toBe(12)
  })
})

describe("token vectors for late interaction", () => {
  it("has one unit vector of 256 per vocabulary term of the text", async () => {
    const text = abstracts[1]
    const tokens = await encoder.encodeTokens(text)
    const features = (encoder as LsaTextEncoder).featurize(text)
    expect(tokens.tokens).toEqual(features.terms)
    expect(tokens.vectors).toHaveLength(features.ids.length)
    expect(Array.from(tokens.weights)).toEqual(Array.from(features.weights))
    for (const v of tokens.vectors) {
      expect(v).toHaveLength(256)
      expect(norm(v)).toBeCloseTo(1, 5)
    }
    expect((await encoder.encodeTokens("said wherein")).vectors).toHaveLength(0)
  })

  it("exposes token_embeddings [batch, seq, 256] with zero rows for padding", async () => {
    const lsa = encoder as LsaTextEncoder
    const session = await ort.InferenceSession.create(path.join(dir, "encoder", "model.onnx"))
    const features = [lsa.featurize(abstracts[0]), lsa.featurize(titles[0])]
    const seq = Math.max(...features.map((f) => f.ids.length))
    const ids = new BigInt64Array(2 * seq)
    const weights = new Float32Array(2 * seq)
    features.forEach((f, b) => {
      f.ids.forEach((id, i) => (ids[b * seq + i] = BigInt(id)))
      weights.set(f.weights, b * seq)
    })
    const out = await session.run({
      token_ids: new ort.Tensor("int64", ids, [2, seq]),
      token_weights: new ort.Tensor("float32", weights, [2, seq])
    })
    expect(out.token_embeddings.dims).toEqual([2, seq, 256])
    expect(out.sentence_embedding.dims).toEqual([2, 256])
    const data = out.token_embeddings.data as Float32Array
    const shortRow = features[1].ids.length
    expect(data.subarray((seq + shortRow) * 256, 2 * seq * 256).every((x) => x === 0)).toBe(true)
    await session.release()
  })

  it("scores MaxSim higher for a document on the query's subject", async () => {
    const [query, relevant, unrelated] = await encoder.encodeTokensBatch([topics[0][0], topics[0][1], topics[3][1]])
    expect(maxSim(query, relevant)).toBeGreaterThan(maxSim(query, unrelated))
    // Every token finds itself: a text's MaxSim with itself is its token count.
    expect(maxSim(relevant, relevant)).toBeCloseTo(relevant.tokens.length, 4)
  })
})

describe("the exported ONNX model", () => {
  it("is an IR 8, opset 17 graph of standard ops with the documented inputs and outputs", async () => {
    const bytes = await fs.readFile(path.join(dir, "encoder", "model.onnx"))
    expect(bytes.byteLength).toBe(saved.modelBytes)
    const m = onnx.ModelProto.decode(bytes)
    expect(Number(m.irVersion)).toBe(8)
    expect(m.opsetImport.map((o) => [o.domain, Number(o.version)])).toEqual([["", 17]])
    const graph = m.graph as InstanceType<typeof onnx.GraphProto>
    const ops = new Set(graph.node.map((n) => n.opType))
    for (const op of ops) expect(["Gather", "Unsqueeze", "Mul", "ReduceSum", "ReduceL2", "Max", "Div"]).toContain(op)
    expect(graph.input.map((i) => i.name)).toEqual(["token_ids", "token_weights"])
    expect(graph.output.map((o) => o.name)).toEqual(["sentence_embedding", "token_embeddings"])
    const table = graph.initializer.find((t) => t.name === "term_vectors")
    expect((table?.dims ?? []).map(Number)).toEqual([model.vocabulary.rows, 256])
  })

  it("saves tokenizer settings and vocabulary that reload into the same featurization", async () => {
    const settings = JSON.parse(await fs.readFile(path.join(dir, "encoder", "tokenizer.json"), "utf8"))
    expect(settings.kind).toBe("patent-lsa")
    expect(settings.tokenizer.stopWords).toContain("wherein")
    const reloaded = encoder as LsaTextEncoder
    expect(reloaded.vocabulary.terms).toEqual(model.vocabulary.terms)
    expect(Array.from(reloaded.vocabulary.idf)).toEqual(Array.from(model.vocabulary.idf))
  })
})

describe("training", () => {
  it("gives identical vectors when trained twice with the same seed", async () => {
    const a = await trainLsaEncoder(abstracts, { seed: 7 })
    const b = await trainLsaEncoder(
      () =>
        (async function* () {
          yield* abstracts
        })(),
      { seed: 7 }
    )
    expect(b.vocabulary.terms).toEqual(a.vocabulary.terms)
    expect(Buffer.from(b.termVectors.buffer).equals(Buffer.from(a.termVectors.buffer))).toBe(true)
    expect(Array.from(projectPatentText(b, abstracts[4]))).toEqual(Array.from(projectPatentText(a, abstracts[4])))
  })

  it("keeps 256 dimensions, zero-padded, when the corpus supports a lower rank", async () => {
    const small = await trainLsaEncoder(abstracts)
    // 224 abstracts (one duplicated) cannot span more than 223 directions.
    expect(small.settings.rank).toBeLessThanOrEqual(new Set(abstracts).size)
    expect(small.settings.dimensions).toBe(256)
    const v = projectPatentText(small, abstracts[0])
    expect(v).toHaveLength(256)
    expect(v.subarray(small.settings.rank).every((x) => x === 0)).toBe(true)

    const tiny = await trainLsaEncoder(
      ["heat exchanger tube fin", "heat exchanger fin plate", "heat exchanger tube plate"],
      { minDocumentFrequency: 1, maxDocumentFrequencyRatio: 1 }
    )
    expect(tiny.settings.rank).toBeGreaterThan(0)
    expect(tiny.settings.rank).toBeLessThanOrEqual(3)
    const tinyDir = await fs.mkdtemp(path.join(os.tmpdir(), "lsa-tiny-"))
    await saveLsaEncoder(tinyDir, tiny)
    const tinyEncoder = await loadTextEncoder(path.join(tinyDir, "encoder"))
    const [onnxVector] = await tinyEncoder.encode(["a tube for a heat exchanger"])
    expect(onnxVector).toHaveLength(256)
    expect(maxAbsDiff(onnxVector, projectPatentText(tiny, "a tube for a heat exchanger"))).toBeLessThan(1e-5)
    await tinyEncoder.close()
    await fs.rm(tinyDir, { recursive: true, force: true })
  })

  it("yields a valid all-zero encoder from texts with no usable term", async () => {
    const empty = await trainLsaEncoder(["said", "wherein 12", ""])
    expect(empty.settings.rank).toBe(0)
    expect(empty.vocabulary.terms).toHaveLength(0)
    expect(projectPatentText(empty, "anything").every((x) => x === 0)).toBe(true)
  })

  it("keeps counting memory bounded and still finds the most frequent terms", async () => {
    const full = await trainLsaEncoder(abstracts)
    const capped = await trainLsaEncoder(abstracts, { maxCountedTerms: 400 })
    const top = full.vocabulary.terms.slice(0, 20)
    const kept = top.filter((t) => capped.vocabulary.idOf(t) !== undefined)
    expect(capped.vocabulary.terms.length).toBeLessThanOrEqual(400)
    expect(kept.length).toBeGreaterThanOrEqual(18)
  })

  it("refuses a one-shot iterator, which cannot be read twice", async () => {
    const once = (function* () {
      yield* abstracts.slice(0, 10)
    })()
    await expect(trainLsaEncoder(once as unknown as string[])).rejects.toThrow(/changed between passes/)
  })
})
