/**
 * A generation: one artifact version served inside the running API. It has its own runtime (the
 * ArtifactStore of that version, the hub client that asks the hub for that version's models, the
 * capability services with their per-version caches and indexes, the HttpApi app behind the
 * outer middleware) over the process-wide services that must outlive any version (keys, quota counters,
 * drain, metrics, the state database).
 *
 * The switchboard (switchboard.ts) sends each new request to the newest generation; a generation
 * counts the requests it is answering so that it is disposed only once they are done.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { HttpApiBuilder, HttpRouter } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Context, type Duration, Effect, Layer, Logger, LogLevel, ManagedRuntime, Schedule } from "effect"
import { ArtifactStore } from "../artifacts/ArtifactStore.ts"
import type { KeyStore } from "../auth/KeyStore.ts"
import { CapabilitiesLive } from "../capabilities.ts"
import { type ApiSettings, Settings } from "../config.ts"
import { PatentApi } from "../Api.ts"
import { ClaimValidationLive } from "../claim-validation/Http.ts"
import { GuidanceLive } from "../guidance/Http.ts"
import { McpLive } from "../mcp/Http.ts"
import type { Drain } from "../http/middleware/Drain.ts"
import { edge } from "../http/middleware/edge.ts"
import { PatentIntelLive } from "../patent-intel/Http.ts"
import { PatentMapLive } from "../patent-map/Http.ts"
import { PriorArtLive } from "../prior-art/Http.ts"
import { AdmissionLive, AuthenticationLive } from "../http/security/Http.ts"
import { WarmUpLive } from "../warm-up/Http.ts"
import { HubClient } from "../hub/HubClient.ts"
import { McpEndpointLive } from "../mcp/mount.ts"
import type { Metrics } from "../observability/Metrics.ts"
import type { Quota } from "../quota/Quota.ts"
import type { StateDatabase } from "../state/Database.ts"

/** What every generation shares with the others: admission and accounting must not reset on a switch. */
export type ProcessServices = Settings | KeyStore | Quota | Drain | Metrics | StateDatabase

/** Response header naming the artifact version that answered (clients can tell a switch happened). */
export const VERSION_HEADER = "x-artifact-version"

type NodeHandler = (request: IncomingMessage, response: ServerResponse) => void

class GenerationHandler extends Context.Tag("api/GenerationHandler")<GenerationHandler, NodeHandler>() {}

const GroupsLive = Layer.mergeAll(PriorArtLive, PatentMapLive, ClaimValidationLive, WarmUpLive, PatentIntelLive, GuidanceLive, McpLive)

/**
 * The router takes a path as written, as the route table does (http/route-table.ts): its defaults
 * read `/patent//citations` as `/patent/citations` (an application numbered "citations"), and
 * `/Api/V1/…` or a trailing slash as the route, which names no route here (404). A parameter may
 * be as long as the URL (16 KB): its schema, not the router, says what is too long (400 naming it).
 */
const ROUTER_CONFIG = { ignoreDuplicateSlashes: false, ignoreTrailingSlash: false, caseSensitive: true, maxParamLength: 16_384 }

/** The HttpApi app of one version as a Node request handler (what HttpApiBuilder.serve would listen with). */
const handlerLayer = Layer.unwrapEffect(
  Effect.map(HttpApiBuilder.httpApp.pipe(HttpRouter.withRouterConfig(ROUTER_CONFIG)), (app) => Layer.effect(GenerationHandler, NodeHttpServer.makeHandler(app)))
).pipe(Layer.provide([HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer]))

const generationLayer = (settings: ApiSettings, shared: Context.Context<ProcessServices>) =>
  handlerLayer.pipe(
    Layer.provide(HttpApiBuilder.middleware(edge)),
    Layer.provide(HttpApiBuilder.api(PatentApi).pipe(Layer.provide(GroupsLive), Layer.provide([AuthenticationLive, AdmissionLive]))),
    // find-my-way refuses long parameters as "no route"; the schemas own length rules (400), and
    // Node's 16 KB header limit bounds a URL anyway.
    Layer.provide(HttpRouter.setRouterConfig({ maxParamLength: 16 * 1024 })),
    Layer.provide(NodeHttpServer.layerContext),
    Layer.provideMerge(CapabilitiesLive),
    Layer.provideMerge(Layer.mergeAll(HubClient.Default, McpEndpointLive).pipe(Layer.provideMerge(ArtifactStore.Default))),
    // This generation's Settings name its own version directory; everything else comes from the process.
    Layer.provide(Layer.succeedContext(Context.add(shared, Settings, settings))),
    Layer.provide(Logger.json),
    Layer.provide(Logger.minimumLogLevel(settings.logRequests ? LogLevel.Info : LogLevel.Error)),
    // No tracer is exported anywhere, so spans (the HTTP server's one per request, withSpan in the
    // services) are pure cost: about 2–5% of a lookup's CPU. withSpan captures a stack trace when
    // the span is built, tracer or not, so the services' spans pass captureStackTrace: false.
    Layer.provide(Layer.setTracerEnabled(false))
  )

export interface Generation {
  /** The manifest version served, or undefined when the directory could not be opened. */
  readonly version: string | undefined
  /** The directory opened (the resolved version directory). */
  readonly versionDir: string
  /** Why nothing is served, when `version` is undefined. */
  readonly problem: string | undefined
  readonly handle: NodeHandler
  readonly inFlight: () => number
  /** Resolves once no request is in flight. */
  readonly idle: () => Promise<void>
  /** Waits for what the services load in the background (search state, held tables), at most `budget`. */
  readonly preloaded: (budget: Duration.DurationInput) => Promise<void>
  /** The hub holds this version's encoder now. */
  readonly hubReady: () => Promise<boolean>
  /** Asks the hub to load this version's encoder and waits until it has (at most `budgetMs`; never rejects). */
  readonly warmHub: (budgetMs: number) => Promise<void>
  readonly dispose: () => Promise<void>
}

/** Opens `versionDir` as a generation over the process services (a version that cannot be opened still answers: CorpusUnavailable). */
export const openGeneration = async (settings: ApiSettings, versionDir: string, shared: Context.Context<ProcessServices>): Promise<Generation> => {
  const runtime = ManagedRuntime.make(generationLayer({ ...settings, artifactsDir: versionDir }, shared))
  const [handler, store, hub] = await runtime
    .runPromise(Effect.all([GenerationHandler, ArtifactStore, HubClient]))
    .catch(async (e) => {
      await runtime.dispose()
      throw e
    })
  const status = store.status()
  const version = status.loaded ? status.version : undefined
  let disposed: Promise<void> | undefined
  let inFlight = 0
  let waiters: Array<() => void> = []
  const settle = () => {
    if (inFlight > 0) return
    for (const w of waiters) w()
    waiters = []
  }
  return {
    version,
    versionDir,
    problem: status.loaded ? undefined : status.reason,
    inFlight: () => inFlight,
    handle: (request, response) => {
      inFlight++
      let left = false
      response.once("close", () => {
        if (left) return
        left = true
        inFlight--
        settle()
      })
      if (version) response.setHeader(VERSION_HEADER, version)
      handler(request, response)
    },
    idle: () => (inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    preloaded: (budget) => runtime.runPromise(store.preloaded.pipe(Effect.timeout(budget), Effect.ignore)),
    hubReady: () => runtime.runPromise(hub.status().pipe(Effect.map((s) => s.ready), Effect.orElseSucceed(() => false))),
    warmHub: (budgetMs) =>
      runtime.runPromise(
        hub.warm({ rerank: false }).pipe(
          Effect.flatMap(() => hub.status().pipe(Effect.repeat({ until: (s) => s.ready, schedule: Schedule.spaced("200 millis") }))),
          Effect.timeout(`${budgetMs} millis`),
          Effect.ignore
        )
      ),
    dispose: () => (disposed ??= runtime.dispose())
  }
}
