/**
 * Who may call the hub. The hub has no keys of its own: with HUB_TOKEN set (make serve sets a
 * fresh one for each run and hands it to the API), every request must carry it in
 * `x-hub-token`; without it only loopback peers are served. Anything else is refused with 403
 * before a model is touched.
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

export const hubGuard = (token: Option.Option<string>) =>
  HttpMiddleware.make((app) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      if (Option.isSome(token)) {
        const given = request.headers["x-hub-token"]
        return typeof given === "string" && sameToken(given, token.value) ? yield* app : refuse("x-hub-token: missing or wrong")
      }
      const peer = Option.getOrUndefined(request.remoteAddress)
      return peer !== undefined && LOOPBACK.test(peer) ? yield* app : refuse("the hub serves loopback callers only (set HUB_TOKEN to serve others)")
    })
  )
