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
import { DeclaredStruct, Unspecified } from "../domain/open-struct.ts"

export const ATLAS_FILE = "atlas/atlas.json"
export const ATLAS_CACHE_MS = 30 * 60 * 1000

const Position = Schema.Struct({ x: Schema.Number, y: Schema.Number, z: Schema.Number })

/** One void of the whitespace atlas (SPEC 2.5), as pipeline/atlas writes it; extra fields pass through. */
const described = <A, I>(schema: Schema.Schema<A, I, never>, description: string): Schema.Schema<A, I, never> => schema.annotations({ description })

/** Every field a void carries (SPEC 2.5 lists the first ten; the rest say how the atlas judged it). */
export const WhitespaceVoid = DeclaredStruct({
  id: Schema.String,
  position: Position,
  radius: described(Schema.Number, "Distance from the centre to the nearest application, in the map's units"),
  opportunity: described(Schema.Number, "0 to 1: emptiness, bordering density, growth and recency of the surrounding art combined"),
  section: Schema.NullOr(Schema.String),
  borderingCpc: Schema.Array(Schema.Struct({ code: Schema.String, fraction: Schema.Number, title: Schema.NullOr(Schema.String) })),
  temporal: DeclaredStruct({
    medianFilingYear: Schema.NullOr(Schema.Number),
    recentShare: Schema.optional(described(Schema.Number, "Share of the bordering applications filed in the last `recentYears` years")),
    recentYears: Schema.optional(Schema.Number),
    hot: described(Schema.Boolean, "The bordering art is recent and growing")
  }),
  summary: Schema.String,
  summarySource: described(Schema.String, "How the summary was written (a template over the bordering CPC titles and the exemplars' titles)"),
  exemplars: Unspecified,
  assignees: Schema.Array(Schema.Struct({ name: Schema.String, applications: Schema.Number })),
  opportunityComponents: Schema.optional(
    described(
      DeclaredStruct({ emptiness: Schema.Number, borderDensity: Schema.Number, growth: Schema.Number, recency: Schema.Number }),
      "The four parts of `opportunity`, each 0 to 1"
    )
  ),
  geometry: Schema.optional(
    described(
      DeclaredStruct({
        enclosure: Schema.Number,
        balance: Schema.Number,
        expectedArt: Schema.Number,
        strays: Schema.Number,
        centreDensity: Schema.Number,
        borderDensity: Schema.Number
      }),
      "How the gap was judged on the map: how fully and evenly art surrounds it, how much art its size would hold at the surrounding density, the strays inside it"
    )
  ),
  vectorCheck: Schema.optional(
    described(
      DeclaredStruct({ centreSimilarity: Schema.Number, borderSimilarity: Schema.Number }),
      "The confirmation in vector space: the centre's similarity to its nearest documents against the border's"
    )
  )
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
