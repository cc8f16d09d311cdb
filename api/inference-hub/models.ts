/**
 * The hub's models: the encoder (what `ready` reflects) and the late-interaction reranker, each
 * a ModelSlot that loads in the background and unloads after the warm window (scale to zero).
 *
 * The encoder is the one the pipeline trained (<version>/encoder of the version a call names, by
 * default the one ARTIFACTS_DIR names when the hub starts: LSA by default, the subword model when built with
 * ENCODER=fasttext; loadTextEncoder tells them apart); a sentence-transformers export can be
 * configured instead with ENCODER_DIR. The reranker scores with per-token vectors of the same
 * kind of model (RERANKER_DIR, default: the encoder's): stems for LSA, whole words (each the
 * mean of its character n-grams) for the subword model.
 */
import { Config, Data, Effect, Option, Schedule } from "effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { loadTextEncoder, type PatentTextEncoder } from "../../core/encoder/encoder.ts"
import { VERSION_NAME } from "../../core/artifacts/versions.ts"
import { HUB_VERSION_HEADER } from "../hub/contract.ts"
import { maxSim } from "./late-interaction.ts"
import { ServedVersion } from "./version.ts"
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

/** The models of one artifact version: the encoder its index was built with, and the reranker. */
const versionModels = (encoderDir: string, rerankerDir: string, warmWindowSeconds: number) => {
  const load = (dir: string) => async () => {
    const model = await loadTextEncoder(dir)
    return { model, release: () => model.close() }
  }
  const encoder = new ModelSlot("encoder", load(encoderDir), 2)
  const reranker = new ModelSlot("reranker", load(rerankerDir), 1)

  const status = (): HubStatus => ({
    ready: encoder.state === "ready",
    warming: encoder.state === "loading" || reranker.state === "loading",
    models: { encoder: encoder.state === "ready", reranker: reranker.state === "ready" },
    estimatedReadySeconds: Math.ceil(Math.max(encoder.estimatedReadySeconds(), reranker.state === "loading" ? reranker.estimatedReadySeconds() : 0)),
    warmWindowSeconds
  })

  return {
    status,
    /** Neither model is loaded or loading (a version nobody asks for any more can be forgotten). */
    idle: () => encoder.state === "idle" && reranker.state === "idle",
    unloadIfIdle: async () => {
      await encoder.unloadIfIdle(warmWindowSeconds)
      await reranker.unloadIfIdle(warmWindowSeconds)
    },
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
}

export type VersionModels = ReturnType<typeof versionModels>

/** A request named a version this hub cannot serve (not a version directory beside the one it started with). */
export class UnknownVersion extends Data.TaggedError("UnknownVersion")<{ readonly message: string }> {}

export class HubModels extends Effect.Service<HubModels>()("HubModels", {
  scoped: Effect.gen(function* () {
    const cfg = yield* HubConfig
    const { version: startVersion } = yield* ServedVersion
    // The version `current` names at start answers calls that name none. A running API that moves
    // to a newly published version names it on every call, and its models are loaded beside the
    // old ones, which unload after the warm window like any unused model.
    const startDir = yield* Effect.promise(() => fs.realpath(cfg.artifactsDir).catch(() => cfg.artifactsDir))
    const dirsOf = (versionDir: string) => {
      const encoderDir = cfg.encoderDir._tag === "Some" ? cfg.encoderDir.value : path.join(versionDir, "encoder")
      return [encoderDir, cfg.rerankerDir._tag === "Some" ? cfg.rerankerDir.value : encoderDir] as const
    }
    const primary = versionModels(...dirsOf(startDir), cfg.warmWindowSeconds)
    const others = new Map<string, VersionModels>()

    // Scale to zero: check every few seconds whether the warm window has passed unused.
    yield* Effect.forkScoped(
      Effect.promise(async () => {
        await primary.unloadIfIdle()
        for (const [version, models] of others) {
          await models.unloadIfIdle()
          if (models.idle()) others.delete(version)
        }
      }).pipe(Effect.repeat(Schedule.spaced(`${Math.max(1, Math.min(5, cfg.warmWindowSeconds / 2))} seconds`)))
    )

    /** The models of `version` (None: the start version); only a published version directory beside the start one is accepted. */
    const forVersion = (version: Option.Option<string>) =>
      Effect.gen(function* () {
        if (Option.isNone(version) || (Option.isSome(startVersion) && startVersion.value === version.value)) return primary
        const name = version.value
        const known = others.get(name)
        if (known) return known
        if (!VERSION_NAME.test(name)) return yield* new UnknownVersion({ message: `${HUB_VERSION_HEADER} must name a version directory (v<timestamp>-<key>), got ${name.slice(0, 60)}` })
        const dir = path.join(path.dirname(startDir), name)
        const manifestVersion = yield* Effect.promise(() =>
          fs.readFile(path.join(dir, "manifest.json"), "utf8").then((t) => (JSON.parse(t) as { version?: unknown }).version, () => undefined)
        )
        if (manifestVersion !== name) return yield* new UnknownVersion({ message: `version ${name} is not published beside ${path.basename(startDir)}` })
        // Another request may have registered it while the manifest was read.
        const models = others.get(name) ?? versionModels(...dirsOf(dir), cfg.warmWindowSeconds)
        others.set(name, models)
        return models
      })

    return { forVersion } as const
  })
}) {}
