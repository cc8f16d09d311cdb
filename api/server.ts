/**
 * Builds and starts the API server: the process-wide services (keys, quotas, drain, metrics, the
 * state database) and a switchboard of artifact versions (api/versions/), each served by its own
 * HttpApi app (behind its outer middleware), on one Node HTTP server. When ARTIFACTS_DIR is a `current` link,
 * a newly published version is loaded beside the served one and takes over new requests without a
 * restart. Used by api/main.ts, by `make serve`, and by tests (port 0, temp STATE_DIR).
 */
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import * as path from "node:path"
import { parseS3Uri, S3Settings } from "../core/artifacts/s3.ts"
import { ConfigProvider, Context, Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { KeyStore } from "./auth/KeyStore.ts"
import { type ApiSettings, Settings, settingsFromEnv } from "./config.ts"
import { Drain } from "./http/middleware/Drain.ts"
import { watchDoorway } from "./http/transport/doorway.ts"
import { makeNodeServer } from "./http/transport/node-server.ts"
import { Metrics } from "./observability/Metrics.ts"
import { Quota } from "./quota/Quota.ts"
import { StateDatabase } from "./state/Database.ts"
import { makeReplica } from "./versions/replica.ts"
import { Switchboard } from "./versions/switchboard.ts"

/** How long a drain waits for in-flight requests (SIGTERM; systemd's and Kubernetes' default grace is 30 s). */
export const DRAIN_BUDGET_MS = 25_000

/** How long a newly published version may load in the background before it takes requests anyway. */
const PRELOAD_BUDGET_MS = 120_000

export interface ServerHandle {
  readonly port: number
  readonly url: string
  /** Stops taking work (503), lets in-flight requests finish, then closes. */
  readonly drain: (timeoutMs?: number) => Promise<void>
  /** Closes at once (tests). */
  readonly close: () => Promise<void>
  /** The artifact version new requests go to (undefined when none could be opened). */
  readonly servedVersion: () => string | undefined
  /** Switches to the version ARTIFACTS_DIR names now if it changed (SIGHUP, tests); resolves when done. */
  readonly followVersion: () => Promise<void>
}

export const settingsWith = (overrides: Partial<ApiSettings> = {}): ApiSettings => ({
  ...Effect.runSync(Effect.withConfigProvider(settingsFromEnv, ConfigProvider.fromEnv())),
  ...overrides
})

const logging = (settings: ApiSettings) =>
  Layer.merge(Logger.json, Logger.minimumLogLevel(settings.logRequests ? LogLevel.Info : LogLevel.Error))

/** What outlives every artifact version: admission and accounting must not reset on a switch. */
const processLayer = (settings: ApiSettings) =>
  Layer.mergeAll(KeyStore.Default, Quota.Default, Drain.Default, Metrics.Default, StateDatabase.Default).pipe(
    Layer.provideMerge(Settings.layer(settings)),
    Layer.provide(logging(settings))
  )

const listen = (server: Server, port: number, host: string) =>
  new Promise<AddressInfo>((resolve, reject) => {
    server.once("error", reject)
    server.listen({ port, host }, () => {
      server.off("error", reject)
      resolve(server.address() as AddressInfo)
    })
  })

/** With ARTIFACTS_URL, the replica that keeps ARTIFACTS_DIR's folder in step with the bucket. */
const replicaOf = async (settings: ApiSettings, log: (event: Record<string, unknown>) => void) => {
  const from = settings.artifactsUrl ? parseS3Uri(settings.artifactsUrl) : undefined
  if (!from) return undefined
  if (path.basename(settings.artifactsDir) !== "current") throw new Error(`with ARTIFACTS_URL, ARTIFACTS_DIR must name the replica's current link (…/current), got ${settings.artifactsDir}`)
  const s3 = await Effect.runPromise(Effect.withConfigProvider(S3Settings, ConfigProvider.fromEnv()))
  return makeReplica({ from, s3, root: path.dirname(path.resolve(settings.artifactsDir)), log })
}

export const startServer = async (overrides: Partial<ApiSettings> = {}): Promise<ServerHandle> => {
  const settings = settingsWith(overrides)
  const nodeServer = makeNodeServer()
  const doorway = watchDoorway(nodeServer)
  const processRuntime = ManagedRuntime.make(Layer.merge(processLayer(settings), logging(settings)))
  const shared = (await processRuntime.runtime()).context
  const log = (event: Record<string, unknown>) => {
    const { message, level, ...fields } = event
    const line = level === "WARN" ? Effect.logWarning(String(message)) : Effect.logInfo(String(message))
    processRuntime.runFork(line.pipe(Effect.annotateLogs(fields)))
  }
  const replica = await replicaOf(settings, log)
  await replica?.sync()
  const board = await Switchboard.open({ settings, shared, releaseBudgetMs: DRAIN_BUDGET_MS, preloadBudgetMs: PRELOAD_BUDGET_MS, log, refresh: replica?.sync }).catch(async (e) => {
    await processRuntime.dispose()
    throw e
  })
  nodeServer.on("request", board.listener)
  const address = await listen(nodeServer, settings.port, settings.host).catch(async (e) => {
    await board.close()
    await processRuntime.dispose()
    throw e
  })
  board.follow(settings.versionPollMs)
  const drainService = Context.get(shared, Drain)
  let closed: Promise<void> | undefined
  // Connections still open (idle keep-alive, a client that never sent a byte) must not hold the close.
  const close = () =>
    (closed ??= (async () => {
      const stopped = new Promise<void>((resolve) => nodeServer.close(() => resolve()))
      nodeServer.closeIdleConnections()
      const forced = setTimeout(() => nodeServer.closeAllConnections(), 1_000)
      forced.unref()
      await stopped.finally(() => clearTimeout(forced))
      await board.close()
      await processRuntime.dispose()
    })())
  return {
    port: address.port,
    url: `http://${settings.host.includes(":") ? `[${settings.host}]` : settings.host}:${address.port}`,
    close,
    servedVersion: () => board.version,
    followVersion: () => board.followNow(),
    drain: async (timeoutMs = DRAIN_BUDGET_MS) => {
      drainService.begin()
      doorway.closing()
      // The app's count can touch zero between two requests (one answered, the next still being
      // read); the doorway also waits for the sockets to go quiet.
      const deadline = Date.now() + timeoutMs
      await Promise.race([drainService.idle(), new Promise((r) => setTimeout(r, timeoutMs).unref())])
      while (!doorway.quiet() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25))
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
  process.on("SIGHUP", () => void handle.followVersion())
  return handle
}
