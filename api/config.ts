/**
 * Runtime settings of the API process, exactly the variables CONTRACT.md names. Tests start the
 * server in-process with overrides instead of touching the environment.
 */
import { Config, Context, Effect, Layer, Option, type Redacted } from "effect"
import { parseS3Uri } from "../core/artifacts/s3.ts"

export interface ApiSettings {
  readonly port: number
  readonly host: string
  readonly hubUrl: string
  readonly artifactsDir: string
  readonly stateDir: string
  /** `postgres://…`: keys and quota counters in PostgreSQL, shared by replicas; unset: files under stateDir. */
  readonly databaseUrl?: Redacted.Redacted<string> | undefined
  /** Origins a browser may call the API from (CORS_ORIGINS, comma-separated; `*` for any). */
  readonly corsOrigins?: ReadonlyArray<string> | undefined
  readonly keysLiveOnly: boolean
  readonly ocrEnabled: boolean
  readonly warmWindowSeconds: number
  /** Largest request body accepted (bytes); the biggest legal body (300 claims of prose) fits. */
  readonly maxBodyBytes: number
  /** Injected clock (ms since epoch) so quota windows can be tested without waiting for midnight. */
  readonly now: () => number
  /** Structured request logs on stdout; tests switch them off. */
  readonly logRequests: boolean
  /**
   * Open the prior-art search state (vectors, postings, citation graph) in the background at
   * start, so the first search does not pay for it. The operator entry points turn it on; tests
   * that never search leave it off.
   */
  readonly preloadSearch: boolean
  /**
   * How often (ms) a running service checks whether ARTIFACTS_DIR (a `current` link) names a newly
   * published version and switches to it (VERSION_POLL_SECONDS, default 2; 0 turns following off;
   * SIGHUP checks at once).
   */
  readonly versionPollMs: number
  /**
   * `s3://bucket/prefix` (ARTIFACTS_URL): this replica downloads, verifies and serves the version
   * published there and follows later publications; ARTIFACTS_DIR (…/current) is where it keeps them.
   */
  readonly artifactsUrl?: string | undefined
}

const flag = (name: string, fallback: boolean) =>
  Config.string(name).pipe(
    Config.withDefault(fallback ? "1" : "0"),
    Config.map((v) => v === "1" || v.toLowerCase() === "true")
  )

export const settingsFromEnv: Config.Config<ApiSettings> = Config.all({
  port: Config.integer("PORT").pipe(Config.withDefault(8080)),
  host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
  hubUrl: Config.string("HUB_URL").pipe(Config.withDefault("http://127.0.0.1:8081")),
  artifactsDir: Config.string("ARTIFACTS_DIR").pipe(Config.withDefault("artifacts/current")),
  stateDir: Config.string("STATE_DIR").pipe(Config.withDefault("var/")),
  databaseUrl: Config.option(Config.redacted("DATABASE_URL")).pipe(Config.map(Option.getOrUndefined)),
  corsOrigins: Config.string("CORS_ORIGINS").pipe(
    Config.withDefault(""),
    Config.map((v) => v.split(",").map((o) => o.trim().replace(/\/+$/, "")).filter((o) => o.length > 0))
  ),
  keysLiveOnly: flag("KEYS_LIVE_ONLY", false),
  ocrEnabled: flag("OCR_ENABLED", true),
  warmWindowSeconds: Config.integer("WARM_WINDOW_SECONDS").pipe(Config.withDefault(900)),
  versionPollMs: Config.number("VERSION_POLL_SECONDS").pipe(
    Config.withDefault(2),
    Config.validate({ message: "VERSION_POLL_SECONDS must be 0 (off) or a positive number of seconds", validation: (n) => Number.isFinite(n) && n >= 0 }),
    Config.map((n) => Math.round(n * 1000))
  ),
  artifactsUrl: Config.option(Config.string("ARTIFACTS_URL")).pipe(
    Config.validate({ message: "ARTIFACTS_URL must be s3://bucket/prefix", validation: (o) => Option.isNone(o) || parseS3Uri(o.value) !== undefined }),
    Config.map(Option.getOrUndefined)
  )
}).pipe(Config.map((s) => ({ ...s, maxBodyBytes: DEFAULT_MAX_BODY_BYTES, now: Date.now, logRequests: true, preloadSearch: false })))

/** 300 claims × a few KB plus 60 specification sections: 8 MiB leaves room without inviting abuse. */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024

export class Settings extends Context.Tag("api/Settings")<Settings, ApiSettings>() {
  static readonly fromEnv = Layer.effect(Settings, Effect.orDie(settingsFromEnv))
  static readonly layer = (s: ApiSettings): Layer.Layer<Settings> => Layer.succeed(Settings, s)
}
