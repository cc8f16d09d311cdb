/** The middleware declared in ./Api.ts. */
import { HttpRouter, HttpServerRequest } from "@effect/platform"
import { Effect, Layer, Option } from "effect"
import { authenticate, requirePermission } from "../../auth/authenticate.ts"
import type { KeyStore } from "../../auth/KeyStore.ts"
import { Settings } from "../../config.ts"
import { Quota } from "../../quota/Quota.ts"
import { RouteNotFound } from "../envelopes.ts"
import { bufferBody, readJsonBody } from "../middleware/body.ts"
import { routeTable } from "../route-table.ts"
import { Admission, Authentication, CurrentCaller, Served } from "./Api.ts"

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const services = yield* Effect.context<Settings | KeyStore>()
    return Authentication.of({
      // HttpApiSecurity.bearer hands over whatever follows the header's first seven characters;
      // part 5 tells a missing header, another scheme and a misshapen key apart, so the header
      // itself is checked.
      bearer: () =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const caller = yield* authenticate({
            authorization: request.headers["authorization"],
            remoteAddress: Option.getOrUndefined(request.remoteAddress)
          }).pipe(Effect.provide(services))
          const served = yield* Effect.serviceOption(Served)
          if (Option.isSome(served)) served.value.caller = caller
          return caller
        })
    })
  })
)

/** Endpoints by the method and path template the router matched. */
const endpoints = new Map(routeTable.map((route) => [`${route.method} ${route.template}`, route]))

export const AdmissionLive = Layer.effect(
  Admission,
  Effect.gen(function* () {
    const settings = yield* Settings
    const quota = yield* Quota
    return Effect.gen(function* () {
      const { params, route: matched } = yield* HttpRouter.RouteContext
      const route = endpoints.get(`${matched.method} ${matched.path}`)
      const caller = yield* Effect.serviceOption(CurrentCaller)
      if (route === undefined || Option.isNone(caller)) {
        return yield* Effect.dieMessage(`admission without ${route === undefined ? `a declared endpoint (${matched.method} ${matched.path})` : "authentication"}`)
      }
      // The router matches an empty parameter (`/patent//citations`); as a path it names no route.
      for (const key in params) if (params[key] === "") return yield* Effect.fail(new RouteNotFound({ message: "no such route" }))
      const served = yield* Effect.serviceOption(Served)
      if (Option.isSome(served)) served.value.route = route
      yield* requirePermission(caller.value, route.access.permission)
      // Read only for an admitted caller, once, from the socket (api/http/middleware/body.ts).
      const bodyLimit = Math.min(settings.maxBodyBytes, route.access.maxBodyBytes ?? Infinity)
      const request = yield* bufferBody(yield* HttpServerRequest.HttpServerRequest, bodyLimit)
      if (route.access.metered) yield* quota.admit(caller.value)
      if (Option.isSome(route.payloadSchema)) yield* readJsonBody(request, bodyLimit)
      return request
    })
  })
)
