/**
 * The inference hub process: `HUB_URL` (default http://127.0.0.1:8081) names where it listens.
 * Models load on warm-up or first use and unload after WARM_WINDOW_SECONDS unused.
 */
import { HttpRouter, HttpServer } from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Config, Effect, Layer } from "effect"
import { createServer } from "node:http"
import { HubModels } from "./models.ts"
import { hubRouter } from "./routes.ts"

const listenOn = Config.string("HUB_URL").pipe(
  Config.withDefault("http://127.0.0.1:8081"),
  Config.map((u) => new URL(u)),
  Config.map((u) => ({ host: u.hostname, port: Number(u.port || 80) }))
)

const ServerLive = Layer.unwrapEffect(
  Effect.map(listenOn, (at) => NodeHttpServer.layer(createServer, at))
)

const HubLive = HttpRouter.toHttpApp(hubRouter).pipe(
  Effect.map((app) => HttpServer.serve(app)),
  Layer.unwrapEffect,
  HttpServer.withLogAddress,
  Layer.provide(HubModels.Default),
  Layer.provide(ServerLive)
)

NodeRuntime.runMain(Layer.launch(HubLive))
