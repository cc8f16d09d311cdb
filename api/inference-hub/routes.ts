/**
 * The hub's HTTP interface (the API's HubClient calls it; so may an operator or a benchmark on
 * this machine, see guard.ts):
 *   GET  /status                 readiness, starts nothing
 *   POST /warmup?rerank=0|1      starts loading in the background, returns at once
 *   POST /encode  {texts}        → {dims, vectors}   (loads the encoder first when cold)
 *   POST /rerank  {query, candidates:[{id,text}]} → {scores:[{id,score}]}
 *
 * Each may name the artifact version to answer for (x-artifact-version; 404 when it is not a
 * version published beside the hub's own); without it, the version the hub started with answers.
 */
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Option, type ParseResult, Schema } from "effect"
import { describeParseError } from "../domain/issues.ts"
import { HUB_VERSION_HEADER } from "../hub/contract.ts"
import { HubModels, type UnknownVersion } from "./models.ts"
import { ServedVersion } from "./version.ts"

const EncodeRequest = Schema.Struct({
  texts: Schema.Array(Schema.String)
    .annotations({ message: () => "must be an array of strings" })
    .pipe(Schema.maxItems(4096, { message: () => "must hold at most 4096 texts" }))
})
const RerankRequest = Schema.Struct({
  query: Schema.String,
  candidates: Schema.Array(Schema.Struct({ id: Schema.String, text: Schema.String }))
    .annotations({ message: () => "must be an array of {id, text} objects" })
    .pipe(Schema.maxItems(2000, { message: () => "must hold at most 2000 candidates" }))
})
const WarmQuery = Schema.Struct({
  rerank: Schema.optionalWith(Schema.String.pipe(Schema.filter((v) => ["0", "1", "true", "false"].includes(v), { message: () => "must be 0, 1, true or false" })), {
    exact: true
  })
})

/** "field: rule", worded as the API words its 400s; a body that is not JSON says so. */
const badRequest = (e: ParseResult.ParseError | { readonly _tag: "RequestError" }) =>
  HttpServerResponse.unsafeJson({ error: e._tag === "RequestError" ? "body: is not valid JSON" : describeParseError(e) }, { status: 400 })
const failed = (e: unknown) => HttpServerResponse.unsafeJson({ error: e instanceof Error ? e.message : String(e) }, { status: 500 })
const unknownVersion = (e: UnknownVersion) => HttpServerResponse.unsafeJson({ error: e.message }, { status: 404 })

/** The models of the version the call names (HUB_VERSION_HEADER), or of the version the hub started with. */
const requestedModels = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const named = request.headers[HUB_VERSION_HEADER]
  const models = yield* (yield* HubModels).forVersion(Option.fromNullable(typeof named === "string" && named !== "" ? named : undefined))
  const { version } = yield* ServedVersion
  return { models, version: typeof named === "string" && named !== "" ? Option.some(named) : version }
})

export const hubRouter = HttpRouter.empty.pipe(
  HttpRouter.get(
    "/status",
    Effect.gen(function* () {
      const { models, version } = yield* requestedModels
      return HttpServerResponse.unsafeJson({ ...models.status(), ...Option.match(version, { onNone: () => ({}), onSome: (v) => ({ version: v }) }) })
    }).pipe(Effect.catchTag("UnknownVersion", (e) => Effect.succeed(unknownVersion(e))))
  ),
  HttpRouter.post(
    "/warmup",
    Effect.gen(function* () {
      const { models } = yield* requestedModels
      const q = yield* HttpServerRequest.schemaSearchParams(WarmQuery)
      return HttpServerResponse.unsafeJson(models.warm(q.rerank === "1" || q.rerank === "true"))
    }).pipe(Effect.catchTags({ ParseError: (e) => Effect.succeed(badRequest(e)), UnknownVersion: (e) => Effect.succeed(unknownVersion(e)) }))
  ),
  HttpRouter.post(
    "/encode",
    Effect.gen(function* () {
      const { models } = yield* requestedModels
      const body = yield* HttpServerRequest.schemaBodyJson(EncodeRequest)
      const out = yield* models.encode(body.texts)
      return HttpServerResponse.unsafeJson({ dims: out.dims, vectors: out.vectors.map((v: Float32Array) => Array.from(v)) })
    }).pipe(
      Effect.catchTags({
        ParseError: (e) => Effect.succeed(badRequest(e)),
        RequestError: (e) => Effect.succeed(badRequest(e)),
        UnknownVersion: (e) => Effect.succeed(unknownVersion(e))
      }),
      Effect.catchAll((e) => Effect.succeed(failed(e)))
    )
  ),
  HttpRouter.post(
    "/rerank",
    Effect.gen(function* () {
      const { models } = yield* requestedModels
      const body = yield* HttpServerRequest.schemaBodyJson(RerankRequest)
      return HttpServerResponse.unsafeJson({ scores: yield* models.rerank(body.query, body.candidates) })
    }).pipe(
      Effect.catchTags({
        ParseError: (e) => Effect.succeed(badRequest(e)),
        RequestError: (e) => Effect.succeed(badRequest(e)),
        UnknownVersion: (e) => Effect.succeed(unknownVersion(e))
      }),
      Effect.catchAll((e) => Effect.succeed(failed(e)))
    )
  )
)
