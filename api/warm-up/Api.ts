/** Warm-up of the inference hub (SPEC 4.4): payloads returned directly; errors `{error, code, timestamp}`. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { field, QueryBool, QueryInt } from "../domain/rules.ts"
import { Coded } from "../http/envelopes.ts"
import { Admission } from "../http/security/Api.ts"
import { Access, free, NO_STORE, RouteFamily } from "../http/route-meta.ts"

const Models = Schema.Struct({ encoder: Schema.Boolean, reranker: Schema.Boolean })

export const WarmUpState = Schema.Struct({
  ready: Schema.Boolean.annotations({ description: "Reflects the encoder only; not a reservation" }),
  warming: Schema.Boolean,
  models: Models,
  estimatedReadySeconds: Schema.Number,
  warmWindowSeconds: Schema.Number,
  note: Schema.optional(Schema.String)
}).annotations({ identifier: "WarmUpState" })

export const WarmUpStatus = Schema.Struct({
  ready: Schema.Boolean,
  models: Models,
  warmWindowSeconds: Schema.Number
}).annotations({ identifier: "WarmUpStatus" })

export class WarmUpApi extends HttpApiGroup.make("warm-up")
  .add(
    HttpApiEndpoint.post("start", "/warmup")
      .setUrlParams(
        Schema.Struct({
          rerank: Schema.optionalWith(
            field(QueryBool, "Also load the late-interaction reranker that prior-art useReranking needs (adds roughly 25 s to a cold start) (default false)."),
            { default: () => false }
          ),
          wait: Schema.optionalWith(
            field(
              QueryInt(0, 120),
              "Seconds to block until ready is true or the wait runs out; 0 returns at once and never waits for the cold start of roughly 71 s (default 0)."
            ),
            { default: () => 0 }
          )
        })
      )
      .addSuccess(WarmUpState)
      .annotate(OpenApi.Summary, "Start the inference hub ahead of a search")
      .annotate(Access, free("warm_up", NO_STORE, "warm_up"))
  )
  .add(
    HttpApiEndpoint.get("status", "/warmup")
      .addSuccess(WarmUpStatus)
      .annotate(OpenApi.Summary, "Read the hub's readiness; starts nothing")
      .annotate(Access, free("warm_up", NO_STORE))
  )
  .addError(Coded.validation)
  .addError(Coded.upstream)
  .annotate(RouteFamily, "coded")
  .annotate(OpenApi.Description, "Warm-up of the inference hub so the cold start is paid off the critical path")
  .middleware(Admission)
  .prefix("/api/v1") {}
