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
import { createServer } from "node:http"
import { HubModels } from "./models.ts"
import { hubGuard, HubToken } from "./guard.ts"
import { hubRouter } from "./routes.ts"
import { ServedVersion } from "./version.ts"

const listenOn = Config.string("HUB_URL").pipe(
  Config.withDefault("http://127.0.0.1:8081"),
  Config.map((u) => new URL(u)),
  Config.map((u) => ({ host: u.hostname, port: Number(u.port || 80) }))
)

const ServerLive = Layer.unwrapEffect(Effect.map(listenOn, (at) => NodeHttpServer.layer(createServer, at)))

/** Tells the parent (make serve) that this hub listens, and for which version. */
const AnnounceReady = Layer.effectDiscard(
  Effect.gen(function* () {
    const { version } = yield* ServedVersion
    const address = yield* HttpServer.HttpServer
    if (process.send) process.send({ ready: true, version: Option.getOrNull(version), address: address.address })
  })
)

const HubLive = Effect.gen(function* () {
  const token = yield* HubToken
  const app = yield* HttpRouter.toHttpApp(hubRouter)
  return HttpServer.serve(app, hubGuard(Option.map(token, Redacted.value)))
}).pipe(
  Layer.unwrapEffect,
  Layer.merge(AnnounceReady),
  HttpServer.withLogAddress,
  Layer.provide(HubModels.Default),
  Layer.provide(ServedVersion.Default),
  Layer.provide(ServerLive)
)

// The parent went away (even kill -9): stop rather than linger on the port as an orphan.
// (Checked once too: the channel may have closed while this module was still loading.)
if (process.send) {
  process.on("disconnect", () => process.exit(0))
  if (!process.connected) process.exit(0)
}
NodeRuntime.runMain(Layer.launch(HubLive))
