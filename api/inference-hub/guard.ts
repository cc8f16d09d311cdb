/**
 * Who may call the hub. The hub has no keys of its own and holds no secrets: it encodes and
 * reranks text. A caller on this machine (a loopback peer) is served, as the API is and as an
 * operator's or analyst's local tools are (`curl 127.0.0.1:8081/encode`). A caller from anywhere
 * else, which reaches the hub only when HUB_URL names an outward interface, must carry HUB_TOKEN
 * in `x-hub-token` (make serve sets a fresh one for each run and hands it to the API); without a
 * token configured, no outside caller is served. Refusals are 403, before a model is touched.
 */
import { HttpMiddleware, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { timingSafeEqual } from "node:crypto"
import { Config, Effect, Option } from "effect"

export const HubToken = Config.option(Config.redacted("HUB_TOKEN"))

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

const refuse = (why: string) => HttpServerResponse.unsafeJson({ error: why }, { status: 403 })

/** Whether the hub serves a caller at `peer` presenting `given` (the x-hub-token header, if any). */
export const admits = (token: Option.Option<string>, peer: string | undefined, given: string | undefined): boolean =>
  (peer !== undefined && LOOPBACK.test(peer)) || (Option.isSome(token) && given !== undefined && sameToken(given, token.value))

export const hubGuard = (token: Option.Option<string>) =>
  HttpMiddleware.make((app) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const given = request.headers["x-hub-token"]
      if (admits(token, Option.getOrUndefined(request.remoteAddress), typeof given === "string" ? given : undefined)) return yield* app
      return refuse(
        Option.isSome(token)
          ? "x-hub-token: missing or wrong (required of callers outside this machine)"
          : "the hub serves callers on this machine only (set HUB_TOKEN to serve others)"
      )
    })
  )
