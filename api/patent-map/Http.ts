/** Patent-space handlers: each route calls PatentMapService with its decoded inputs. */
import { HttpApiBuilder } from "@effect/platform"
import { Cache, Data, Duration, Effect, Exit, Layer, Schema } from "effect"
import { PatentMapService, type PointsQuery } from "./PatentMapService.ts"
import { ATLAS_CACHE_MS, WhitespaceVoid } from "./atlas.ts"
import { PatentApi } from "../Api.ts"
import { UpstreamUnavailable } from "../domain/errors.ts"
import { stampedJson, stampedResponse } from "../http/middleware/stamped-json.ts"

/**
 * Distinct points queries whose encoded answer is kept, least recently used first out: 10,000
 * points are 1.3 MB of JSON plus ~0.3 MB per compressed prefix, so at most ~80 MB when every
 * entry holds the 50,000-point maximum.
 */
const POINTS_BODIES = 8

/** Distinct whitespace queries whose encoded answer is kept: at most 500 voids, about 1 MB, each. */
const WHITESPACE_BODIES = 32

const encodeVoid = Schema.encode(WhitespaceVoid)

export const PatentMapLive = HttpApiBuilder.group(PatentApi, "patent-map", (handlers) =>
  Effect.gen(function* () {
    const patentMap = yield* PatentMapService
    // The points sample pages the index in stored order, so within this version (a generation's
    // handlers serve one) an answer differs from the last one to the same query only in its
    // timestamp. Its JSON is encoded once per query; the points are plain JSON values in the
    // PointsResponse field order, which is what the schema's encoding would produce.
    const pointsBodies = yield* Cache.makeWith({
      capacity: POINTS_BODIES,
      lookup: (query: PointsQuery) =>
        Effect.map(patentMap.pointsSample(query), stampedJson),
      // A failed read is not remembered: the next request reads again.
      timeToLive: (exit) => (Exit.isSuccess(exit) ? Duration.infinity : Duration.zero)
    })
    // The atlas is held for 30 minutes once loaded (SPEC 4.2), and so is each query's answer to it.
    // Each void is encoded through its schema once per atlas load (the loaded voids are the same
    // objects until it is reloaded): encoding them per request was most of the request's cost and
    // grew with the atlas (13 voids at 100k applications, 54 at 1M), while joining encoded voids
    // costs little.
    const encodedVoids = new WeakMap<WhitespaceVoid, unknown>()
    const encoded = (v: WhitespaceVoid) => {
      const known = encodedVoids.get(v)
      if (known !== undefined) return Effect.succeed(known)
      return encodeVoid(v).pipe(
        Effect.tap((e) => Effect.sync(() => encodedVoids.set(v, e))),
        Effect.mapError((e) => new UpstreamUnavailable({ message: `the whitespace atlas cannot be encoded: ${e.message.slice(0, 300)}` }))
      )
    }
    const whitespaceBodies = yield* Cache.makeWith({
      capacity: WHITESPACE_BODIES,
      lookup: (query: { readonly limit: number; readonly section: string | undefined; readonly minOpportunity: number }) =>
        patentMap.whitespace(query).pipe(
          Effect.flatMap(({ voids, count, total }) =>
            Effect.map(Effect.forEach(voids, encoded), (encodedVoids) => stampedJson({ voids: encodedVoids, count, total }))
          )
        ),
      timeToLive: (exit) => (Exit.isSuccess(exit) ? Duration.millis(ATLAS_CACHE_MS) : Duration.zero)
    })
    return handlers
      .handle("neighborhood", ({ path: { appNum }, urlParams: { topK } }) => patentMap.neighborhood({ appNum, topK }))
      .handle("citations", ({ path: { appNum }, urlParams: { year } }) => patentMap.citations({ appNum, year }))
      .handle("locate", ({ payload }) => patentMap.locate(payload))
      .handle("whitespace", ({ urlParams: { limit, section, minOpportunity } }) =>
        Effect.map(whitespaceBodies.get(Data.struct({ limit, section, minOpportunity })), (stamped) => stampedResponse(stamped, new Date().toISOString()))
      )
      .handle("points", ({ urlParams: { limit, section, artUnit } }) =>
        Effect.map(pointsBodies.get(Data.struct({ limit, section, artUnit })), (stamped) => stampedResponse(stamped, new Date().toISOString()))
      )
  })
).pipe(Layer.provide(PatentMapService.Default))
