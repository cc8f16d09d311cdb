/**
 * ENCODER=ensemble: the LSA and subword encoders joined. Its cosine is the weighted sum of the
 * parts' cosines; a word LSA never saw still gets a vector (from the subword part); token vectors
 * for reranking come from the part marked for them.
 */
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loadTextEncoder, type PatentTextEncoder } from "../../core/encoder/encoder.ts"
import { ENSEMBLE_PARTS, type EnsembleSettings, joinVectors } from "../../core/encoder/ensemble-encoder.ts"
import { saveLsaEncoder, saveSubwordEncoder } from "../../pipeline/encoder/save.ts"
import { projectSubwordText, trainSubwordEncoder, type TrainedSubwordEncoder } from "../../pipeline/encoder/subword-train.ts"
import { projectPatentText, trainLsaEncoder, type TrainedLsaEncoder } from "../../pipeline/encoder/train.ts"
import { sampleAbstracts, sampleTitles } from "./sample-texts.ts"

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, v, i) => s + v * b[i], 0)
const abstracts = sampleAbstracts()
const titles = sampleTitles()
const SUBWORD_WEIGHT = 0.3

let dir: string
let ensemble: PatentTextEncoder
let lsa: PatentTextEncoder
let subword: PatentTextEncoder
let lsaModel: TrainedLsaEncoder
let small: TrainedSubwordEncoder

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "ensemble-encoder-"))
  lsaModel = await trainLsaEncoder([...abstracts, ...titles])
  await saveLsaEncoder(dir, lsaModel, `encoder/${ENSEMBLE_PARTS.lsa}`)
  small = await trainSubwordEncoder(
    [
      { name: "titles", texts: titles },
      { name: "abstracts", texts: abstracts }
    ],
    [...abstracts, ...titles],
    { dimensions: 32, bucket: 20_000, epochs: 3, minCount: 2 }
  )
  await saveSubwordEncoder(dir, small, `encoder/${ENSEMBLE_PARTS.subword}`)
  const settings: EnsembleSettings = {
    kind: "patent-ensemble",
    parts: [
      { folder: ENSEMBLE_PARTS.lsa, weight: 1 - SUBWORD_WEIGHT, tokens: true },
      { folder: ENSEMBLE_PARTS.subword, weight: SUBWORD_WEIGHT, tokens: false }
    ]
  }
  await fs.writeFile(path.join(dir, "encoder", "tokenizer.json"), JSON.stringify(settings))
  ensemble = await loadTextEncoder(path.join(dir, "encoder"))
  lsa = await loadTextEncoder(path.join(dir, "encoder", ENSEMBLE_PARTS.lsa))
  subword = await loadTextEncoder(path.join(dir, "encoder", ENSEMBLE_PARTS.subword))
}, 120_000)

afterAll(async () => {
  await Promise.allSettled([ensemble, lsa, subword].map((e) => e?.close()))
  await fs.rm(dir, { recursive: true, force: true })
})

describe("the ensemble encoder", () => {
  it("is as wide as its parts together and gives unit vectors", async () => {
    expect(ensemble.kind).toBe("patent-ensemble")
    expect(ensemble.dimensions).toBe(lsa.dimensions + subword.dimensions)
    const [v] = await ensemble.encode([abstracts[0]])
    expect(Math.sqrt(dot(v, v))).toBeCloseTo(1, 5)
  })

  it("scores a pair by the weighted sum of its parts' cosines", async () => {
    const texts = [abstracts[1], abstracts[2], titles[3], abstracts[4]]
    const [e, l, s] = await Promise.all([ensemble.encode(texts), lsa.encode(texts), subword.encode(texts)])
    for (const [i, j] of [[0, 1], [2, 3], [0, 3]]) {
      expect(dot(e[i], e[j])).toBeCloseTo((1 - SUBWORD_WEIGHT) * dot(l[i], l[j]) + SUBWORD_WEIGHT * dot(s[i], s[j]), 5)
    }
  })

  it("ONNX vectors equal the join of the two trainers' own projections within 1e-5, seen words or not", async () => {
    const texts = [abstracts[5], titles[6], `${titles[7]} zyxoquatronic`, "zyxoquatronic flibbertigibbet"]
    const vectors = await ensemble.encode(texts)
    const scales = [Math.sqrt(1 - SUBWORD_WEIGHT), Math.sqrt(SUBWORD_WEIGHT)]
    for (const [i, text] of texts.entries()) {
      const expected = joinVectors([projectPatentText(lsaModel, text), projectSubwordText(small, text)], scales)
      expect(vectors[i].reduce((m, v, k) => Math.max(m, Math.abs(v - expected[k])), 0)).toBeLessThan(1e-5)
    }
  })

  it("gives a word LSA never saw a vector: the subword part's", async () => {
    const unseen = "zyxoquatronic flibbertigibbet"
    const [l] = await lsa.encode([unseen])
    expect(dot(l, l)).toBe(0)
    const [e] = await ensemble.encode([unseen])
    expect(Math.sqrt(dot(e, e))).toBeCloseTo(1, 5)
    const [other] = await ensemble.encode(["zyxoquatronics"])
    expect(dot(e, other)).toBeGreaterThan(0)
  })

  it("takes token vectors for reranking from the part marked for them", async () => {
    const [fromEnsemble] = await ensemble.encodeTokensBatch([abstracts[0]])
    const [fromLsa] = await lsa.encodeTokensBatch([abstracts[0]])
    expect(fromEnsemble.tokens).toEqual(fromLsa.tokens)
  })

  it("refuses settings that name a folder outside the encoder", async () => {
    const bad = path.join(dir, "bad")
    await fs.mkdir(bad)
    await fs.writeFile(path.join(bad, "tokenizer.json"), JSON.stringify({ kind: "patent-ensemble", parts: [{ folder: "../encoder", weight: 1 }, { folder: "lsa", weight: 1 }] }))
    await expect(loadTextEncoder(bad)).rejects.toThrow(/plain folder name/)
  })
})
