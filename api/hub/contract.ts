/**
 * The inference hub's HTTP interface as the API calls it (the hub implements exactly this):
 *
 *   GET  {HUB_URL}/status              → HubStatus (starts nothing)
 *   POST {HUB_URL}/warmup?rerank=0|1   → HubStatus (starts loading in the background, returns at once)
 *   POST {HUB_URL}/encode  EncodeRequest → EncodeResponse (loads the encoder first when cold)
 *   POST {HUB_URL}/rerank  RerankRequest → RerankResponse
 *
 * Errors: any non-2xx answer, with `{ error }` as its body.
 *
 * Every call may name the artifact version whose models must answer (HUB_VERSION_HEADER): while a
 * running service switches versions, requests of the old and the new version are in flight at
 * once. Without it the hub answers with the version it started with.
 */
import { Schema } from "effect"

export const HUB_VERSION_HEADER = "x-artifact-version"

export const HubStatus = Schema.Struct({
  /** The encoder is loaded; the reranker does not affect readiness. */
  ready: Schema.Boolean,
  warming: Schema.Boolean,
  models: Schema.Struct({ encoder: Schema.Boolean, reranker: Schema.Boolean }),
  estimatedReadySeconds: Schema.Number,
  /** Idle seconds before the hub unloads its models (scale to zero). */
  warmWindowSeconds: Schema.Number,
  /** The artifact version whose models the hub serves (the API checks it serves the same). */
  version: Schema.optional(Schema.String)
})
export type HubStatus = typeof HubStatus.Type

export const EncodeRequest = Schema.Struct({
  texts: Schema.Array(Schema.String),
  /** Also return per-token vectors (late-interaction reranking). */
  tokens: Schema.optional(Schema.Boolean)
})
export const EncodeResponse = Schema.Struct({
  vectors: Schema.Array(Schema.Array(Schema.Number)),
  dims: Schema.Number
})
export type EncodeResponse = typeof EncodeResponse.Type

export const RerankCandidate = Schema.Struct({ id: Schema.String, text: Schema.String })
export const RerankRequest = Schema.Struct({ query: Schema.String, candidates: Schema.Array(RerankCandidate) })
export const RerankResponse = Schema.Struct({
  scores: Schema.Array(Schema.Struct({ id: Schema.String, score: Schema.Number }))
})
export type RerankResponse = typeof RerankResponse.Type

export const HubError = Schema.Struct({ error: Schema.String })
