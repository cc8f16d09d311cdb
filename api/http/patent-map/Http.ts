/** Patent-space handlers: each route calls PatentMapService with its decoded inputs. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Layer } from "effect"
import { PatentMapService } from "../../patent-map/PatentMapService.ts"
import { PatentApi } from "../Api.ts"

export const PatentMapLive = HttpApiBuilder.group(PatentApi, "patent-map", (handlers) =>
  Effect.gen(function* () {
    const patentMap = yield* PatentMapService
    return handlers
      .handle("neighborhood", ({ path: { appNum }, urlParams: { topK } }) => patentMap.neighborhood({ appNum, topK }))
      .handle("citations", ({ path: { appNum }, urlParams: { year } }) => patentMap.citations({ appNum, year }))
      .handle("locate", ({ payload }) => patentMap.locate(payload))
      .handle("whitespace", ({ urlParams }) => patentMap.whitespace(urlParams))
      .handle("points", ({ urlParams }) => patentMap.points(urlParams))
  })
).pipe(Layer.provide(PatentMapService.Default))
