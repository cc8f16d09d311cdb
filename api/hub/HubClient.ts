/**
 * HTTP client of the inference hub (contract.ts). Every failure — refused connection, timeout,
 * non-2xx answer, body of the wrong shape — becomes UpstreamUnavailable (502 UPSTREAM_ERROR).
 */
import { Config, Duration, Effect, Option, Redacted, Schema } from "effect"
import { ArtifactStore } from "../artifacts/ArtifactStore.ts"
import { Settings } from "../config.ts"
import { UpstreamUnavailable } from "../domain/errors.ts"
import { EncodeResponse, HUB_VERSION_HEADER, HubStatus, RerankResponse } from "./contract.ts"

export class HubClient extends Effect.Service<HubClient>()("api/HubClient", {
  effect: Effect.gen(function* () {
    const { hubUrl } = yield* Settings
    const base = hubUrl.replace(/\/+$/, "")
    // The shared secret make serve gives the hub and the API (the hub refuses calls without it).
    const token = Option.map(yield* Config.option(Config.redacted("HUB_TOKEN")).pipe(Effect.orElseSucceed(() => Option.none())), Redacted.value)
    // The hub holds the models of every version a running API serves during a switch: each call
    // names the version whose encoder must answer (its vectors must match this version's index).
    const version = Option.flatMap((yield* ArtifactStore).served(), (s) => Option.some(s.manifest.version))
    const tokenHeader: Record<string, string> = {
      ...Option.match(token, { onNone: () => ({}), onSome: (t) => ({ "x-hub-token": t }) }),
      ...Option.match(version, { onNone: () => ({}), onSome: (v) => ({ [HUB_VERSION_HEADER]: v }) })
    }

    const call = <A, I>(
      what: string,
      path: string,
      schema: Schema.Schema<A, I>,
      init: { method: "GET" | "POST"; body?: unknown },
      timeout: Duration.DurationInput
    ) =>
      Effect.tryPromise({
        try: async (signal) => {
          const response = await fetch(`${base}${path}`, {
            method: init.method,
            headers: { ...tokenHeader, ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
            body: init.body === undefined ? undefined : JSON.stringify(init.body),
            signal
          })
          const text = await response.text()
          if (!response.ok) throw new Error(`hub answered ${response.status}: ${text.slice(0, 200)}`)
          return JSON.parse(text) as unknown
        },
        catch: (e) => new UpstreamUnavailable({ message: `inference hub unreachable (${what}): ${e instanceof Error ? e.message : String(e)}` })
      }).pipe(
        // Interruption aborts the fetch through `signal`.
        Effect.timeoutFail({
          duration: timeout,
          onTimeout: () => new UpstreamUnavailable({ message: `inference hub did not answer ${what} within ${Duration.format(timeout)}` })
        }),
        Effect.flatMap((body) =>
          Schema.decodeUnknown(schema)(body).pipe(
            Effect.mapError(() => new UpstreamUnavailable({ message: `inference hub answered ${what} with an unexpected body` }))
          )
        ),
        Effect.withSpan(`HubClient.${what}`, { captureStackTrace: false })
      )

    return {
      status: () => call("status", "/status", HubStatus, { method: "GET" }, "5 seconds"),
      warm: (options: { readonly rerank: boolean }) =>
        call("warmup", `/warmup?rerank=${options.rerank ? 1 : 0}`, HubStatus, { method: "POST" }, "10 seconds"),
      encode: (texts: ReadonlyArray<string>, options?: { readonly tokens?: boolean }) =>
        call("encode", "/encode", EncodeResponse, { method: "POST", body: { texts, tokens: options?.tokens } }, "120 seconds"),
      rerank: (query: string, candidates: ReadonlyArray<{ readonly id: string; readonly text: string }>) =>
        call("rerank", "/rerank", RerankResponse, { method: "POST", body: { query, candidates } }, "120 seconds")
    } as const
  })
}) {}
