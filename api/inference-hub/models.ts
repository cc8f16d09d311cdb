/**
 * The hub's models: the encoder (what `ready` reflects) and the late-interaction reranker, each
 * a ModelSlot that loads in the background and unloads after the warm window (scale to zero).
 *
 * The encoder is the one the pipeline trained (<version>/encoder of the version ARTIFACTS_DIR
 * names when the hub starts: LSA by default, the subword model when built with
 * ENCODER=fasttext; loadTextEncoder tells them apart); a sentence-transformers export can be
 * configured instead with ENCODER_DIR. The reranker scores with per-token vectors of the same
 * kind of model (RERANKER_DIR, default: the encoder's): stems for LSA, whole words (each the
 * mean of its character n-grams) for the subword model.
 */
import { Config, Effect, Schedule } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { loadTextEncoder, type PatentTextEncoder } from "../../core/encoder/encoder.ts"
import { maxSim } from "./late-interaction.ts"
import { ModelSlot } from "./model-slot.ts"

export const HubConfig = Config.all({
  artifactsDir: Config.string("ARTIFACTS_DIR").pipe(Config.withDefault("artifacts/current")),
  encoderDir: Config.option(Config.string("ENCODER_DIR")),
  rerankerDir: Config.option(Config.string("RERANKER_DIR")),
  warmWindowSeconds: Config.number("WARM_WINDOW_SECONDS").pipe(Config.withDefault(900))
})

export interface HubStatus {
  readonly ready: boolean
  readonly warming: boolean
  readonly models: { readonly encoder: boolean; readonly reranker: boolean }
  readonly estimatedReadySeconds: number
  readonly warmWindowSeconds: number
}

export class HubModels extends Effect.Service<HubModels>()("HubModels", {
  scoped: Effect.gen(function* () {
    const cfg = yield* HubConfig
    // Pinned to the version `current` names at start, as the API pins its own: a rebuild that moves
    // `current` must not hand the hub a newly trained encoder while the API still searches the old index.
    const versionDir = yield* Effect.promise(() => fs.realpath(cfg.artifactsDir).catch(() => cfg.artifactsDir))
    const encoderDir = cfg.encoderDir._tag === "Some" ? cfg.encoderDir.value : path.join(versionDir, "encoder")
    const rerankerDir = cfg.rerankerDir._tag === "Some" ? cfg.rerankerDir.value : encoderDir
    const load = (dir: string) => async () => {
      const model = await loadTextEncoder(dir)
      return { model, release: () => model.close() }
    }
    const encoder = new ModelSlot("encoder", load(encoderDir), 2)
    const reranker = new ModelSlot("reranker", load(rerankerDir), 1)

    // Scale to zero: check every few seconds whether the warm window has passed unused.
    yield* Effect.forkScoped(
      Effect.promise(async () => {
        await encoder.unloadIfIdle(cfg.warmWindowSeconds)
        await reranker.unloadIfIdle(cfg.warmWindowSeconds)
      }).pipe(Effect.repeat(Schedule.spaced(`${Math.max(1, Math.min(5, cfg.warmWindowSeconds / 2))} seconds`)))
    )

    const status = (): HubStatus => ({
      ready: encoder.state === "ready",
      warming: encoder.state === "loading" || reranker.state === "loading",
      models: { encoder: encoder.state === "ready", reranker: reranker.state === "ready" },
      estimatedReadySeconds: Math.ceil(Math.max(encoder.estimatedReadySeconds(), reranker.state === "loading" ? reranker.estimatedReadySeconds() : 0)),
      warmWindowSeconds: cfg.warmWindowSeconds
    })

    return {
      status,
      warm: (rerank: boolean) => {
        encoder.warm()
        if (rerank) reranker.warm()
        return status()
      },
      encode: (texts: ReadonlyArray<string>) =>
        Effect.tryPromise(async () => {
          const { model } = await encoder.acquire()
          return { dims: model.dimensions, vectors: await model.encode(texts) }
        }),
      rerank: (query: string, candidates: ReadonlyArray<{ id: string; text: string }>) =>
        Effect.tryPromise(async () => {
          const { model } = await reranker.acquire()
          const [q, ...docs] = await model.encodeTokensBatch([query, ...candidates.map((c) => c.text)])
          return candidates.map((c, i) => ({ id: c.id, score: maxSim(q.vectors, docs[i].vectors) }))
        })
    }
  })
}) {}
