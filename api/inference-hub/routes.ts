/**
 * The hub's HTTP interface (the API's HubClient is its only caller):
 *   GET  /status                 readiness, starts nothing
 *   POST /warmup?rerank=0|1      starts loading in the background, returns at once
 *   POST /encode  {texts}        → {dims, vectors}   (loads the encoder first when cold)
 *   POST /rerank  {query, candidates:[{id,text}]} → {scores:[{id,score}]}
 */
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Option, Schema } from "effect"
import { HubModels } from "./models.ts"
import { ServedVersion } from "./version.ts"

const EncodeRequest = Schema.Struct({ texts: Schema.Array(Schema.String).pipe(Schema.maxItems(4096)) })
const RerankRequest = Schema.Struct({
  query: Schema.String,
  candidates: Schema.Array(Schema.Struct({ id: Schema.String, text: Schema.String })).pipe(Schema.maxItems(2000))
})
const WarmQuery = Schema.Struct({ rerank: Schema.optional(Schema.Literal("0", "1", "true", "false")) })

const badRequest = (e: unknown) => HttpServerResponse.unsafeJson({ error: String(e) }, { status: 400 })
const failed = (e: unknown) => HttpServerResponse.unsafeJson({ error: e instanceof Error ? e.message : String(e) }, { status: 500 })

export const hubRouter = HttpRouter.empty.pipe(
  HttpRouter.get(
    "/status",
    Effect.gen(function* () {
      const m = yield* HubModels
      const { version } = yield* ServedVersion
      return HttpServerResponse.unsafeJson({ ...m.status(), ...Option.match(version, { onNone: () => ({}), onSome: (v) => ({ version: v }) }) })
    })
  ),
  HttpRouter.post(
    "/warmup",
    Effect.gen(function* () {
      const m = yield* HubModels
      const q = yield* HttpServerRequest.schemaSearchParams(WarmQuery)
      return HttpServerResponse.unsafeJson(m.warm(q.rerank === "1" || q.rerank === "true"))
    }).pipe(Effect.catchTag("ParseError", (e) => Effect.succeed(badRequest(e))))
  ),
  HttpRouter.post(
    "/encode",
    Effect.gen(function* () {
      const m = yield* HubModels
      const body = yield* HttpServerRequest.schemaBodyJson(EncodeRequest)
      const out = yield* m.encode(body.texts)
      return HttpServerResponse.unsafeJson({ dims: out.dims, vectors: out.vectors.map((v: Float32Array) => Array.from(v)) })
    }).pipe(
      Effect.catchTags({ ParseError: (e) => Effect.succeed(badRequest(e)), RequestError: (e) => Effect.succeed(badRequest(e)) }),
      Effect.catchAll((e) => Effect.succeed(failed(e)))
    )
  ),
  HttpRouter.post(
    "/rerank",
    Effect.gen(function* () {
      const m = yield* HubModels
      const body = yield* HttpServerRequest.schemaBodyJson(RerankRequest)
      return HttpServerResponse.unsafeJson({ scores: yield* m.rerank(body.query, body.candidates) })
    }).pipe(
      Effect.catchTags({ ParseError: (e) => Effect.succeed(badRequest(e)), RequestError: (e) => Effect.succeed(badRequest(e)) }),
      Effect.catchAll((e) => Effect.succeed(failed(e)))
    )
  )
)
