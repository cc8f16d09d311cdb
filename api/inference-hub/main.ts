/**
 * The inference hub process: `HUB_URL` (default http://127.0.0.1:8081) names where it listens.
 * Models load on warm-up or first use and unload after WARM_WINDOW_SECONDS unused.
 *
 * Started by `make serve` with an IPC channel: it reports `{ready, version}` once it listens
 * (so the parent never mistakes another process on the port for its hub) and exits when the
 * channel closes, so a killed parent never leaves an orphan holding the port. A busy port is a
 * start failure (exit 1), never shared.
 */
import { HttpRouter, HttpServer } from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Config, Effect, Layer, Redacted, Option } from "effect"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { HubModels } from "./models.ts"
import { hubGuard, HubToken } from "./guard.ts"
import { hubRouter } from "./routes.ts"
import { ServedVersion } from "./version.ts"

const listenOn = Config.string("HUB_URL").pipe(
  Config.withDefault("http://127.0.0.1:8081"),
  Config.map((u) => new URL(u)),
  Config.map((u) => ({ host: u.hostname, port: Number(u.port || 80) }))
)

/**
 * The server listens as soon as its layer is built, and the router's request listener is attached a
 * moment later. A request that arrives in between (a supervisor polling /status from the first
 * millisecond) would find no listener and never be answered, holding its client until a timeout
 * (undici's: 5 minutes). Such requests are held here and handed to the router once it listens.
 */
const patientServer = () => {
  const server = createServer()
  let early: Array<[IncomingMessage, ServerResponse]> = []
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    if (server.listenerCount("request") === 1) early.push([request, response])
  })
  server.on("newListener", (event) => {
    if (event !== "request" || early.length === 0) return
    // After the new listener is in place (Node adds it once this event's handlers return).
    setImmediate(() => {
      const held = early
      early = []
      for (const [request, response] of held) {
        for (const listener of server.listeners("request").slice(1)) (listener as (q: IncomingMessage, s: ServerResponse) => void)(request, response)
      }
    })
  })
  return server
}

const ServerLive = Layer.unwrapEffect(Effect.map(listenOn, (at) => NodeHttpServer.layer(patientServer, at)))

/** Tells the parent (make serve) that this hub listens, and for which version. */
const AnnounceReady = Layer.effectDiscard(
  Effect.gen(function* () {
    const { version } = yield* ServedVersion
    const address = yield* HttpServer.HttpServer
    if (process.send) process.send({ ready: true, version: Option.getOrNull(version), address: address.address })
  })
)

// Built in this order: the served version and the models (no port yet), then the server, then the
// router on it, and only then the announcement, so the parent never hears "ready" from a hub that
// cannot answer yet.
const HubLive = Effect.gen(function* () {
  const token = yield* HubToken
  const app = yield* HttpRouter.toHttpApp(hubRouter)
  return HttpServer.serve(app, hubGuard(Option.map(token, Redacted.value)))
}).pipe(
  Layer.unwrapEffect,
  (served) => Layer.provideMerge(AnnounceReady, served),
  HttpServer.withLogAddress,
  Layer.provide(ServerLive),
  Layer.provide(HubModels.Default),
  Layer.provide(ServedVersion.Default)
)

// The parent went away (even kill -9): stop rather than linger on the port as an orphan.
// (Checked once too: the channel may have closed while this module was still loading.)
if (process.send) {
  process.on("disconnect", () => process.exit(0))
  if (!process.connected) process.exit(0)
}
NodeRuntime.runMain(Layer.launch(HubLive))
