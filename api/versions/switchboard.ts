/**
 * Follows ARTIFACTS_DIR to each newly published version without a restart.
 *
 * The pipeline publishes by renaming a fresh `current` link over the old one; the switchboard
 * notices (it resolves the link every few seconds, or at once when told: SIGHUP, `followNow`),
 * opens the new version beside the one being served, waits for what its services load in the
 * background and for the hub to hold its encoder, and only then sends new requests to it. The old
 * version answers the requests it already has, and is released when the last one is done (or
 * after the drain budget, so a stuck client cannot pin a version forever).
 *
 * A version that cannot be opened is never switched to: the old one keeps serving and the failure
 * is logged (once per target).
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import * as fs from "node:fs/promises"
import type { Context } from "effect"
import type { ApiSettings } from "../config.ts"
import { type Generation, openGeneration, type ProcessServices } from "./generation.ts"

export interface SwitchEvent {
  readonly from: string | undefined
  readonly to: string | undefined
  readonly tookMs: number
}

export interface SwitchboardOptions {
  readonly settings: ApiSettings
  readonly shared: Context.Context<ProcessServices>
  /** How long an old version may keep answering in-flight requests after a switch. */
  readonly releaseBudgetMs: number
  /** How long a new version may spend loading in the background before it is switched to anyway. */
  readonly preloadBudgetMs: number
  readonly log: (event: Record<string, unknown>) => void
  /** Runs before each look at ARTIFACTS_DIR (a replica brings its local `current` up to the bucket's). */
  readonly refresh?: () => Promise<void>
}

const resolveDir = (dir: string) => fs.realpath(dir).catch(() => undefined)

export class Switchboard {
  private generation!: Generation
  private switching: Promise<void> | undefined
  private failedTarget: string | undefined
  private timer: NodeJS.Timeout | undefined
  private closed = false
  private readonly releasing = new Map<Generation, Promise<void>>()
  private readonly listeners: Array<(e: SwitchEvent) => void> = []

  private constructor(private readonly o: SwitchboardOptions) {}

  /** Opens the version ARTIFACTS_DIR names now (a missing one is served as unavailable, as before). */
  static async open(o: SwitchboardOptions) {
    const board = new Switchboard(o)
    const dir = (await resolveDir(o.settings.artifactsDir)) ?? o.settings.artifactsDir
    board.generation = await openGeneration(o.settings, dir, o.shared)
    return board
  }

  /** The Node request listener: every request goes to the generation current when it arrives. */
  readonly listener = (request: IncomingMessage, response: ServerResponse) => this.generation.handle(request, response)

  get version() {
    return this.generation.version
  }

  onSwitch(listener: (e: SwitchEvent) => void) {
    this.listeners.push(listener)
  }

  /** Checks ARTIFACTS_DIR every `intervalMs` (timer unref'd: it never holds the process open). */
  follow(intervalMs: number) {
    if (intervalMs <= 0 || this.timer) return
    const tick = () => {
      this.timer = setTimeout(() => void this.followNow().finally(() => !this.closed && tick()), intervalMs)
      this.timer.unref()
    }
    tick()
  }

  /** Switches to the version ARTIFACTS_DIR names now, if it differs from the one served. Never rejects. */
  followNow(): Promise<void> {
    this.switching ??= this.check()
      .catch((e) => this.o.log({ level: "WARN", message: "version switch failed", reason: e instanceof Error ? e.message : String(e) }))
      .finally(() => (this.switching = undefined))
    return this.switching
  }

  private async check() {
    if (this.closed) return
    await this.o.refresh?.()
    const target = await resolveDir(this.o.settings.artifactsDir)
    if (!target || target === this.generation.versionDir || target === this.failedTarget) return
    const started = Date.now()
    const next = await openGeneration(this.o.settings, target, this.o.shared)
    if (next.version === undefined || this.closed) {
      await next.dispose()
      if (!this.closed) {
        this.failedTarget = target
        this.o.log({ level: "WARN", message: "the newly published version cannot be served; keeping the current one", target, reason: next.problem, version: this.generation.version })
      }
      return
    }
    this.failedTarget = undefined
    // Loaded beside the old one: the first requests on the new version must not pay for its search
    // state or a cold encoder.
    // The encoder is loaded for the new version only when the old one's was (scale to zero stays intact).
    const hubWasWarm = await this.generation.hubReady()
    await Promise.all([next.preloaded(`${this.o.preloadBudgetMs} millis`), hubWasWarm ? next.warmHub(this.o.preloadBudgetMs) : undefined])
    if (this.closed) return next.dispose()
    const previous = this.generation
    this.generation = next
    const event = { from: previous.version, to: next.version, tookMs: Date.now() - started }
    this.o.log({ level: "INFO", message: "switched to the version ARTIFACTS_DIR now names", ...event })
    for (const l of this.listeners) l(event)
    this.release(previous)
  }

  /** Disposes `old` once its in-flight requests are answered (or the budget is spent). */
  private release(old: Generation) {
    const released = Promise.race([old.idle(), new Promise<void>((r) => setTimeout(r, this.o.releaseBudgetMs).unref())])
      .then(() => old.dispose())
      .catch((e) => this.o.log({ level: "WARN", message: "releasing an old version failed", version: old.version, reason: String(e) }))
      .finally(() => this.releasing.delete(old))
    this.releasing.set(old, released)
  }

  /** Stops following and disposes every generation (after the server stopped taking requests). */
  async close() {
    this.closed = true
    if (this.timer) clearTimeout(this.timer)
    await this.switching
    // The server has drained: nothing is in flight on any generation, so all go now.
    await Promise.allSettled([...this.releasing.keys(), this.generation].map((g) => g.dispose()))
  }
}
