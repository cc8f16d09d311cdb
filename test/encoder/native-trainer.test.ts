/**
 * The native fastText trainer (Debian's `fasttext`, ENCODER_TRAINER=native or auto): its model
 * serves exactly as an in-process one does (ONNX equals the trainer), one corpus trains one model,
 * and a machine without the command is told so instead of training something else.
 * CI installs the package (.ci/run); elsewhere the tests that need it are skipped.
 */
import { ConfigProvider, Effect, Exit } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { PatentTextEncoder } from "../../core/encoder/encoder.ts"
import { nativeFastTextAvailable, trainNativeSkipgram } from "../../pipeline/encoder/native-fasttext.ts"
import { EncoderTrainingWords, resolvedTrainer, stageTrainingOptions } from "../../pipeline/encoder/stage.ts"
import { type TrainedSubwordEncoder, trainerOptions, trainSubwordEncoder } from "../../pipeline/encoder/subword-train.ts"
import { sampleAbstracts, sampleTitles } from "./sample-texts.ts"
import { savedSubwordEncoder } from "./saved-encoder.ts"

const available = await nativeFastTextAvailable()
const abstracts = sampleAbstracts()
const titles = sampleTitles()
const small = { trainer: "native", dimensions: 32, bucket: 20_000, epochs: 3, minCount: 2 } as const
const train = () =>
  trainSubwordEncoder(
    [
      { name: "titles", texts: titles },
      { name: "abstracts", texts: abstracts }
    ],
    [...abstracts, ...titles],
    small
  )

const maxAbsDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0)
const unit = (a: Float32Array) => {
  const n = Math.sqrt(a.reduce((s, v) => s + v * v, 0))
  return Float32Array.from(a, (x) => x / n)
}

describe.skipIf(!available)("a subword encoder trained by the native fastText", () => {
  let model: TrainedSubwordEncoder
  let encoder: PatentTextEncoder
  let dispose = async () => {}

  beforeAll(async () => {
    model = await train()
    ;({ encoder, dispose } = await savedSubwordEncoder(model, "native-trainer-"))
  }, 120_000)

  afterAll(() => dispose())

  it("serves what the trainer learnt: ONNX word vectors equal fastText's own within 1e-5, seen or unseen", async () => {
    expect(model.stats.vocabulary).toBeGreaterThan(1000)
    const words = ["semiconductor", "battery", "zyxqolophonic", "größe"]
    const tokens = await encoder.encodeTokensBatch(words)
    for (const [i, word] of words.entries()) expect(maxAbsDiff(tokens[i].vectors[0], unit(model.trainerWordVector(word)))).toBeLessThan(1e-5)
  })

  it("one corpus trains one model: a second run on one thread gives the same matrix", async () => {
    const again = await train()
    expect(again.inputMatrix.length).toBe(model.inputMatrix.length)
    expect(maxAbsDiff(again.inputMatrix, model.inputMatrix)).toBe(0)
  }, 120_000)

  it("ENCODER_TRAINER=auto picks it, and ENCODER_TRAINER=wasm keeps the in-process build", async () => {
    const resolve = (value: string) => Effect.runPromise(resolvedTrainer.pipe(Effect.withConfigProvider(ConfigProvider.fromJson({ ENCODER_TRAINER: value }))))
    expect(await resolve("auto")).toBe("native")
    expect(await resolve("wasm")).toBe("wasm")
  })
})

describe("without the fasttext command", () => {
  it("is reported missing, and training through it fails with a message naming the command", async () => {
    expect(await nativeFastTextAvailable("no-such-fasttext-command")).toBe(false)
    const args = { dim: 8, epoch: 1, minCount: 1, minn: 3, maxn: 5, bucket: 100, ws: 5, neg: 5, lr: 0.05, t: 1e-4, seed: 1, thread: 1 }
    await expect(trainNativeSkipgram(new TextEncoder().encode("a b c\n"), args, () => {}, "no-such-fasttext-command")).rejects.toThrow(/no-such-fasttext-command/)
  })

  it("ENCODER_TRAINER must be auto, native or wasm", async () => {
    const exit = await Effect.runPromiseExit(resolvedTrainer.pipe(Effect.withConfigProvider(ConfigProvider.fromJson({ ENCODER_TRAINER: "gpu" }))))
    expect(Exit.isFailure(exit)).toBe(true)
    if (Exit.isFailure(exit)) expect(String(exit.cause)).toContain("ENCODER_TRAINER: must be auto, native or wasm")
  })
})

describe("ENCODER_TRAINING_WORDS", () => {
  const words = (json: Record<string, string>) => Effect.runPromiseExit(EncoderTrainingWords.pipe(Effect.withConfigProvider(ConfigProvider.fromJson(json))))

  it("bounds the words read per epoch, and unset keeps each trainer's own budget", async () => {
    const set = await words({ ENCODER_TRAINING_WORDS: "2500000" })
    expect(Exit.isSuccess(set)).toBe(true)
    if (Exit.isSuccess(set)) expect(stageTrainingOptions("native", set.value).maxTrainingWords).toBe(2_500_000)
    const unset = await words({})
    if (Exit.isSuccess(unset)) {
      expect(stageTrainingOptions("native", unset.value)).toEqual(trainerOptions("native"))
      expect(stageTrainingOptions("wasm", unset.value)).toEqual(trainerOptions("wasm"))
    } else expect.unreachable()
  })

  it("must be a whole number of at least 10000", async () => {
    for (const bad of ["lots", "1.5", "99"]) {
      const exit = await words({ ENCODER_TRAINING_WORDS: bad })
      expect(Exit.isFailure(exit)).toBe(true)
      if (Exit.isFailure(exit) && bad === "99") expect(String(exit.cause)).toContain("ENCODER_TRAINING_WORDS: must be a whole number of words of at least 10000")
    }
  })
})
