/** The middleware declared in ./Api.ts. */
import { HttpRouter, HttpServerRequest } from "@effect/platform"
import { Context, Effect, Layer, Option } from "effect"
import { authenticate, type Caller, requirePermission } from "../../auth/authenticate.ts"
import { KeyStore } from "../../auth/KeyStore.ts"
import { Settings } from "../../config.ts"
import { Quota } from "../../quota/Quota.ts"
import { type AccessDenied, RouteNotFound } from "../envelopes.ts"
import { bufferBody, readJsonBody } from "../middleware/body.ts"
import { routeTable } from "../route-table.ts"
import { Admission, Authentication, CurrentCaller, Served } from "./Api.ts"

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const settings = yield* Settings
    const store = yield* KeyStore
    return Authentication.of({
      // HttpApiSecurity.bearer hands over whatever follows the header's first seven characters;
      // part 5 tells a missing header, another scheme and a misshapen key apart, so the header
      // itself is checked. The request and Served are read from the fiber's context in one step.
      bearer: () =>
        Effect.withFiberRuntime<Caller, AccessDenied>((fiber) => {
          const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
          const served = Context.getOption(fiber.currentContext, Served)
          return Effect.map(
            authenticate(settings, store, { authorization: request.headers["authorization"], remoteAddress: Option.getOrUndefined(request.remoteAddress) }),
            (caller) => {
              if (Option.isSome(served)) served.value.caller = caller
              return caller
            }
          )
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
    return Effect.withFiberRuntime((fiber) => {
      const context = fiber.currentContext
      const { params, route: matched } = Context.unsafeGet(context, HttpRouter.RouteContext)
      const route = endpoints.get(`${matched.method} ${matched.path}`)
      const caller = Context.getOption(context, CurrentCaller)
      if (route === undefined || Option.isNone(caller)) {
        return Effect.dieMessage(`admission without ${route === undefined ? `a declared endpoint (${matched.method} ${matched.path})` : "authentication"}`)
      }
      // The router matches an empty parameter (`/patent//citations`); as a path it names no route.
      for (const key in params) if (params[key] === "") return Effect.fail(new RouteNotFound({ message: "no such route" }))
      const served = Context.getOption(context, Served)
      if (Option.isSome(served)) served.value.route = route
      const request = Context.unsafeGet(context, HttpServerRequest.HttpServerRequest)
      const permitted = requirePermission(caller.value, route.access.permission)
      const counted = route.access.metered ? quota.admit(caller.value) : Effect.void
      // A lookup (GET, no body): permission and quota are all there is to admit.
      if (Option.isNone(route.payloadSchema) && (request.method === "GET" || request.method === "HEAD")) return Effect.as(Effect.zipRight(permitted, counted), request)
      // Read only for an admitted caller, once, from the socket (api/http/middleware/body.ts).
      const bodyLimit = Math.min(settings.maxBodyBytes, route.access.maxBodyBytes ?? Infinity)
      return Effect.gen(function* () {
        yield* permitted
        const buffered = yield* bufferBody(request, bodyLimit)
        yield* counted
        if (Option.isSome(route.payloadSchema)) yield* readJsonBody(buffered, bodyLimit)
        return buffered
      })
    })
  })
)
