/**
 * The whitespace atlas as the API serves it: atlas/atlas.json of the served version (written by
 * pipeline/atlas), loaded on first use and kept for 30 minutes (SPEC 4.2). Only a successful
 * load is kept, so a transient read failure is retried on the next request.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Clock, Effect, Option, Schema } from "effect"
import type { ArtifactStore } from "../artifacts/ArtifactStore.ts"
import { NotFound, UpstreamUnavailable } from "../domain/errors.ts"
import { OpenStruct, Unspecified } from "../domain/open-struct.ts"

export const ATLAS_FILE = "atlas/atlas.json"
export const ATLAS_CACHE_MS = 30 * 60 * 1000

const Position = Schema.Struct({ x: Schema.Number, y: Schema.Number, z: Schema.Number })

/** One void of the whitespace atlas (SPEC 2.5), as pipeline/atlas writes it; extra fields pass through. */
export const WhitespaceVoid = OpenStruct({
  id: Schema.String,
  position: Position,
  radius: Schema.Number,
  opportunity: Schema.Number,
  section: Schema.NullOr(Schema.String),
  borderingCpc: Schema.Array(Schema.Struct({ code: Schema.String, fraction: Schema.Number, title: Schema.NullOr(Schema.String) })),
  temporal: OpenStruct({ medianFilingYear: Schema.NullOr(Schema.Number), hot: Schema.Boolean }),
  summary: Schema.String,
  summarySource: Schema.String,
  exemplars: Unspecified,
  assignees: Schema.Array(Schema.Struct({ name: Schema.String, applications: Schema.Number }))
}).annotations({ identifier: "WhitespaceVoid" })
export type WhitespaceVoid = typeof WhitespaceVoid.Type

const AtlasFile = Schema.Struct({ voids: Schema.Array(WhitespaceVoid) })
const decodeAtlas = Schema.decodeUnknown(Schema.parseJson(AtlasFile))

const notBuilt = () => new NotFound({ message: "the whitespace atlas is not built for the served artifact version" })

const readAtlas = (versionDir: string) =>
  Effect.tryPromise({
    try: () => fs.readFile(path.join(versionDir, ATLAS_FILE), "utf8"),
    catch: (e) => ((e as NodeJS.ErrnoException).code === "ENOENT" ? notBuilt() : new UpstreamUnavailable({ message: `the whitespace atlas cannot be read: ${String(e)}` }))
  }).pipe(
    Effect.flatMap((text) =>
      decodeAtlas(text).pipe(
        Effect.map((atlas) => atlas.voids),
        Effect.mapError((e) => new UpstreamUnavailable({ message: `the whitespace atlas is unreadable: ${e.message.slice(0, 300)}` }))
      )
    )
  )

/** A loader with the 30-minute server-side cache. */
export const atlasCache = (artifacts: ArtifactStore) => {
  let cached: { voids: ReadonlyArray<WhitespaceVoid>; loadedAt: number } | undefined
  return Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    if (cached && now - cached.loadedAt < ATLAS_CACHE_MS) return cached.voids
    const served = artifacts.served()
    if (Option.isNone(served)) return yield* Effect.fail(notBuilt())
    const voids = yield* readAtlas(served.value.versionDir)
    cached = { voids, loadedAt: now }
    return voids
  })
}
