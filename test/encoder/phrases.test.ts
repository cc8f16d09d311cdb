import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { PatentTextEncoder } from "../../core/encoder/encoder.ts"
import { SubwordTextEncoder } from "../../core/encoder/subword-encoder.ts"
import { parseSubwordEncoderSettings } from "../../core/encoder/subword-format.ts"
import { isPhraseToken, sifWeight, SubwordDictionary, textTokens } from "../../core/encoder/subwords.ts"
import { detectPhrases, joinPhrases } from "../../pipeline/encoder/phrases.ts"
import { projectSubwordText, trainSubwordEncoder, type TrainedSubwordEncoder } from "../../pipeline/encoder/subword-train.ts"
import { sampleAbstracts, sampleTitles } from "./sample-texts.ts"
import { savedSubwordEncoder } from "./saved-encoder.ts"

const maxAbsDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0)
const unit = (a: Float32Array) => {
  const n = Math.sqrt(a.reduce((s, v) => s + v * v, 0))
  return Float32Array.from(a, (x) => x / n)
}

describe("two-word terms in the training text", () => {
  // "heat exchanger" always together; "of" and "the" everywhere, side by side and apart.
  const lines = [
    ...Array.from({ length: 20 }, (_, i) => `a heat exchanger of the engine ${i} made of steel`),
    ...Array.from({ length: 40 }, (_, i) => `the cover ${i} and the lid of a jar or the box of tin and the cap of one can`),
    "see b25b 17 00 for tools b25b 17 00"
  ]

  it("finds a pair whose words occur together far more than chance, not a pair of function words", () => {
    const phrases = detectPhrases(lines, { minCount: 5, threshold: 0.5, maxPhrases: 100 })
    expect(phrases.has("heat_exchanger")).toBe(true)
    expect(phrases.has("of_the")).toBe(false)
  })

  it("needs the pair often enough, and words of letters only (no class symbols cited in a title)", () => {
    expect(detectPhrases(lines, { minCount: 21, threshold: 0.5, maxPhrases: 100 }).has("heat_exchanger")).toBe(false)
    expect([...detectPhrases(lines, { minCount: 1, threshold: 0, maxPhrases: 1000 })].some((p) => /\d/.test(p))).toBe(false)
  })

  it("joins phrases left to right, each word into one phrase at most", () => {
    const phrases = new Set(["heat_exchanger", "exchanger_tube", "fuel_cell"])
    expect(joinPhrases("a heat exchanger tube in a fuel cell", phrases)).toBe("a heat_exchanger tube in a fuel_cell")
    expect(joinPhrases("fuel", phrases)).toBe("fuel")
  })
})

describe("an encoder trained with phrases", () => {
  const abstracts = sampleAbstracts()
  const titles = sampleTitles()
  let model: TrainedSubwordEncoder
  let encoder: PatentTextEncoder
  let dispose: () => Promise<void>
  let phrase: string

  beforeAll(async () => {
    model = await trainSubwordEncoder(
      [
        { name: "titles", texts: titles },
        { name: "abstracts", texts: abstracts }
      ],
      [...abstracts, ...titles],
      { dimensions: 32, bucket: 20_000, epochs: 3, minCount: 2, phrases: { minCount: 5, threshold: 0.5, maxPhrases: 10_000 } }
    )
    ;({ encoder, dispose } = await savedSubwordEncoder(model, "subword-phrases-"))
    phrase = model.dictionary.words.find(isPhraseToken)!
  }, 120_000)

  afterAll(() => dispose?.())

  it("learns two-word terms as words of their own and says so in its settings", () => {
    expect(model.stats.phrases).toBeGreaterThan(0)
    expect(phrase).toBeDefined()
    expect(model.settings.phrases).toBe("joined-bigrams")
    expect(encoder).toBeInstanceOf(SubwordTextEncoder)
  })

  it("pools a text from its words and the phrases among them", () => {
    const [first, second] = phrase.split("_")
    const f = (encoder as SubwordTextEncoder).featurize(`A new ${first.toUpperCase()} ${second}.`)
    expect(f.words).toEqual(["a", "new", first, second, phrase])
  })

  it("ONNX vectors of a phrase and of texts holding phrases equal the trainer's within 1e-5", async () => {
    const [tokens] = await encoder.encodeTokensBatch([phrase.replace("_", " ")])
    expect(tokens.tokens).toEqual([...phrase.split("_"), phrase])
    expect(maxAbsDiff(tokens.vectors[2], unit(model.trainerWordVector(phrase)))).toBeLessThan(1e-5)
    const texts = [...abstracts.slice(0, 10), `an improved ${phrase.replace("_", " ")} and method`]
    const vectors = await encoder.encode(texts)
    for (const [i, text] of texts.entries()) expect(maxAbsDiff(vectors[i], projectSubwordText(model, text))).toBeLessThan(1e-5)
  })

  it("a folder written before phrases pools words only, even beside an underscore word", () => {
    const settings = parseSubwordEncoderSettings({ ...model.settings, phrases: undefined })
    expect(settings.phrases).toBeUndefined()
    const dictionary = new SubwordDictionary(["heat", "exchanger", "heat_exchanger"], [5, 5, 5])
    expect(textTokens("heat exchanger", settings, dictionary)).toEqual(["heat", "exchanger"])
    expect(textTokens("heat exchanger", model.settings, dictionary)).toEqual(["heat", "exchanger", "heat_exchanger"])
    expect(() => parseSubwordEncoderSettings({ ...model.settings, phrases: "trigrams" })).toThrow(/phrases/)
  })

  it("weighs a phrase token at its SIF weight times the folder's phraseWeight, its words as before", () => {
    const [first] = phrase.split("_")
    const at = (phraseWeight: number) => parseSubwordEncoderSettings({ ...model.settings, phraseWeight })
    expect(sifWeight(phrase, at(0.5), model.dictionary)).toBeCloseTo(sifWeight(phrase, model.settings, model.dictionary) / 2, 12)
    expect(sifWeight(first, at(0.5), model.dictionary)).toBe(sifWeight(first, model.settings, model.dictionary))
    expect(() => at(5)).toThrow(/phraseWeight/)
  })
})
