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
import { ENSEMBLE_PARTS, ensembleScales, type EnsembleSettings, joinVectors } from "../../core/encoder/ensemble-encoder.ts"
import { countPatentWords } from "../../core/text/tokenize.ts"
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

  it("gives LSA less of its weight in a text under fullAtWords words, and the rest to the subword part", async () => {
    const FULL_AT = 6
    const folder = path.join(dir, "short-texts")
    await fs.mkdir(folder)
    await fs.cp(path.join(dir, "encoder", ENSEMBLE_PARTS.lsa), path.join(folder, ENSEMBLE_PARTS.lsa), { recursive: true })
    await fs.cp(path.join(dir, "encoder", ENSEMBLE_PARTS.subword), path.join(folder, ENSEMBLE_PARTS.subword), { recursive: true })
    const parts = [
      { folder: ENSEMBLE_PARTS.lsa, weight: 1 - SUBWORD_WEIGHT, tokens: true, fullAtWords: FULL_AT },
      { folder: ENSEMBLE_PARTS.subword, weight: SUBWORD_WEIGHT, tokens: false }
    ]
    await fs.writeFile(path.join(folder, "tokenizer.json"), JSON.stringify({ kind: "patent-ensemble", parts } satisfies EnsembleSettings))
    const shortAware = await loadTextEncoder(folder)
    try {
      // "the" is a stop word: three words counted, so LSA keeps half its weight.
      const phrase = "the rotating drum dryer"
      expect(countPatentWords(phrase, 100)).toBe(3)
      const scales = ensembleScales(parts, [3, 0])
      expect(scales[0] ** 2).toBeCloseTo((1 - SUBWORD_WEIGHT) / 2, 10)
      expect(scales[0] ** 2 + scales[1] ** 2).toBeCloseTo(1, 10)
      const texts = [phrase, "heat exchanger tube", abstracts[0], abstracts[1]]
      const [e, plain, l, s] = await Promise.all([shortAware.encode(texts), ensemble.encode(texts), lsa.encode(texts), subword.encode(texts)])
      const share = (i: number) => ensembleScales(parts, [countPatentWords(texts[i], 100), 0])
      for (const [i, j] of [[0, 1], [0, 2], [2, 3]]) {
        const [a, b] = [share(i), share(j)]
        expect(dot(e[i], e[j])).toBeCloseTo(a[0] * b[0] * dot(l[i], l[j]) + a[1] * b[1] * dot(s[i], s[j]), 5)
      }
      // Texts of FULL_AT words or more are what the plain ensemble gives.
      for (const i of [2, 3]) expect(e[i].reduce((m, v, k) => Math.max(m, Math.abs(v - plain[i][k])), 0)).toBeLessThan(1e-6)
      // No word at all: the subword part alone.
      expect(ensembleScales(parts, [0, 0])).toEqual([0, 1])
    } finally {
      await shortAware.close()
    }
  })

  it("refuses a fullAtWords that is not a whole number from 1, or one on every part", async () => {
    for (const [name, parts] of [
      ["zero", [{ folder: "lsa", weight: 1, fullAtWords: 0 }, { folder: "subword", weight: 1 }]],
      ["fraction", [{ folder: "lsa", weight: 1, fullAtWords: 2.5 }, { folder: "subword", weight: 1 }]],
      ["every part", [{ folder: "lsa", weight: 1, fullAtWords: 8 }, { folder: "subword", weight: 1, fullAtWords: 8 }]]
    ] as const) {
      const bad = path.join(dir, `bad-full-at-${name.replace(" ", "-")}`)
      await fs.mkdir(bad)
      await fs.writeFile(path.join(bad, "tokenizer.json"), JSON.stringify({ kind: "patent-ensemble", parts }))
      await expect(loadTextEncoder(bad)).rejects.toThrow(/fullAtWords/)
    }
  })

  it("refuses fullAtWords on a part that has no patent tokeniser to count words with", async () => {
    const folder = path.join(dir, "full-at-on-subword")
    await fs.mkdir(folder)
    for (const part of [ENSEMBLE_PARTS.lsa, ENSEMBLE_PARTS.subword])
      await fs.cp(path.join(dir, "encoder", part), path.join(folder, part), { recursive: true })
    const parts = [
      { folder: ENSEMBLE_PARTS.lsa, weight: 1, tokens: true },
      { folder: ENSEMBLE_PARTS.subword, weight: 1, tokens: false, fullAtWords: 8 }
    ]
    await fs.writeFile(path.join(folder, "tokenizer.json"), JSON.stringify({ kind: "patent-ensemble", parts } satisfies EnsembleSettings))
    await expect(loadTextEncoder(folder)).rejects.toThrow(/subword has fullAtWords/)
  })

  it("refuses settings that name a folder outside the encoder", async () => {
    const bad = path.join(dir, "bad")
    await fs.mkdir(bad)
    await fs.writeFile(path.join(bad, "tokenizer.json"), JSON.stringify({ kind: "patent-ensemble", parts: [{ folder: "../encoder", weight: 1 }, { folder: "lsa", weight: 1 }] }))
    await expect(loadTextEncoder(bad)).rejects.toThrow(/plain folder name/)
  })
})
