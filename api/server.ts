/**
 * Builds and starts the API server: HttpApi groups + the gateway middleware + services, on a
 * Node HTTP server. Used by api/main.ts, by `make serve`, and by tests (port 0, temp STATE_DIR).
 */
import type { Server } from "node:http"
import { HttpApiBuilder, HttpRouter, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { ConfigProvider, Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { ArtifactStore } from "./artifacts/ArtifactStore.ts"
import { CapabilitiesLive } from "./capabilities.ts"
import { KeyStore } from "./auth/KeyStore.ts"
import { type ApiSettings, Settings, settingsFromEnv } from "./config.ts"
import { PatentApi } from "./http/Api.ts"
import { ClaimValidationLive } from "./http/claim-validation/Http.ts"
import { GuidanceLive } from "./http/guidance/Http.ts"
import { Drain } from "./http/middleware/Drain.ts"
import { gateway } from "./http/middleware/gateway.ts"
import { PatentIntelLive } from "./http/patent-intel/Http.ts"
import { PatentMapLive } from "./http/patent-map/Http.ts"
import { PriorArtLive } from "./http/prior-art/Http.ts"
import { makeNodeServer } from "./http/transport/node-server.ts"
import { WarmUpLive } from "./http/warm-up/Http.ts"
import { HubClient } from "./hub/HubClient.ts"
import { McpMount } from "./mcp/mount.ts"
import { Metrics } from "./observability/Metrics.ts"
import { Quota } from "./quota/Quota.ts"
import { StateDatabase } from "./state/Database.ts"

/** How long a drain waits for in-flight requests (SIGTERM; systemd's and Kubernetes' default grace is 30 s). */
export const DRAIN_BUDGET_MS = 25_000

export interface ServerHandle {
  readonly port: number
  readonly url: string
  /** Stops taking work (503), lets in-flight requests finish, then closes. */
  readonly drain: (timeoutMs?: number) => Promise<void>
  /** Closes at once (tests). */
  readonly close: () => Promise<void>
}

export const settingsWith = (overrides: Partial<ApiSettings> = {}): ApiSettings => ({
  ...Effect.runSync(Effect.withConfigProvider(settingsFromEnv, ConfigProvider.fromEnv())),
  ...overrides
})

const GroupsLive = Layer.mergeAll(PriorArtLive, PatentMapLive, ClaimValidationLive, WarmUpLive, PatentIntelLive, GuidanceLive)

export const serverLayer = (settings: ApiSettings, nodeServer: Server = makeNodeServer()) => {
  const services = Layer.mergeAll(
    KeyStore.Default,
    Quota.Default,
    Drain.Default,
    Metrics.Default,
    ArtifactStore.Default,
    HubClient.Default,
    McpMount.Default,
    // The same layer KeyStore and Quota depend on (memoised: one pool), exposed for /healthz.
    StateDatabase.Default
  ).pipe(Layer.provideMerge(Settings.layer(settings)))
  return HttpApiBuilder.serve().pipe(
    Layer.provide(HttpApiBuilder.middleware(gateway)),
    Layer.provide(HttpApiBuilder.api(PatentApi).pipe(Layer.provide(GroupsLive))),
    // find-my-way refuses long parameters as "no route"; the schemas own length rules (400), and
    // Node's 16 KB header limit bounds a URL anyway.
    Layer.provide(HttpRouter.setRouterConfig({ maxParamLength: 16 * 1024 })),
    Layer.provideMerge(NodeHttpServer.layer(() => nodeServer, { port: settings.port, host: settings.host })),
    Layer.provideMerge(CapabilitiesLive),
    Layer.provideMerge(services),
    Layer.provide(Logger.json),
    Layer.provide(Logger.minimumLogLevel(settings.logRequests ? LogLevel.Info : LogLevel.Error))
  )
}

export const startServer = async (overrides: Partial<ApiSettings> = {}): Promise<ServerHandle> => {
  const settings = settingsWith(overrides)
  const nodeServer = makeNodeServer()
  const runtime = ManagedRuntime.make(serverLayer(settings, nodeServer))
  const address = await runtime.runPromise(HttpServer.HttpServer).then((s) => s.address)
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  const drainService = await runtime.runPromise(Drain)
  let closed: Promise<void> | undefined
  // Connections still open (idle keep-alive, a client that never sent a byte) must not hold the close.
  const close = () =>
    (closed ??= (() => {
      nodeServer.closeIdleConnections()
      const forced = setTimeout(() => nodeServer.closeAllConnections(), 1_000)
      forced.unref()
      return runtime.dispose().finally(() => clearTimeout(forced))
    })())
  return {
    port: address.port,
    url: `http://${settings.host.includes(":") ? `[${settings.host}]` : settings.host}:${address.port}`,
    close,
    drain: async (timeoutMs = DRAIN_BUDGET_MS) => {
      drainService.begin()
      await Promise.race([drainService.idle(), new Promise((r) => setTimeout(r, timeoutMs).unref())])
      // Keep-alive connections would hold the close open until their idle timeout; whatever is
      // still running past the budget is cut off so the process can exit on time.
      await close()
    }
  }
}

/** Runs until SIGTERM or SIGINT, then drains and exits 0 (the process entry point). */
export const runUntilSignal = async (overrides: Partial<ApiSettings> = {}) => {
  const handle = await startServer(overrides)
  process.stdout.write(JSON.stringify({ message: "listening", url: handle.url, port: handle.port }) + "\n")
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    process.stdout.write(JSON.stringify({ message: "draining", signal }) + "\n")
    handle.drain().then(
      () => process.exit(0),
      () => process.exit(1)
    )
  }
  process.once("SIGTERM", () => stop("SIGTERM"))
  process.once("SIGINT", () => stop("SIGINT"))
  return handle
}
