/**
 * One loadable model with the hub's readiness states (SPEC part 3): Idle → Loading → Ready,
 * and back to Idle when it has not been used for the warm window (scale to zero). Loading
 * runs in the background; callers that need the model await the same load.
 */
export type SlotState = "idle" | "loading" | "ready"

export interface Unloadable {
  readonly release?: () => Promise<void> | void
}

export class ModelSlot<M extends Unloadable> {
  private model: M | undefined
  private loading: Promise<M> | undefined
  private lastUsed = 0
  private loadStartedAt = 0
  /** Seconds the last load took; the estimate for the next one. */
  lastLoadSeconds: number

  constructor(
    readonly name: string,
    private readonly load: () => Promise<M>,
    initialEstimateSeconds: number
  ) {
    this.lastLoadSeconds = initialEstimateSeconds
  }

  get state(): SlotState {
    return this.model ? "ready" : this.loading ? "loading" : "idle"
  }

  /** Seconds until ready by the last load's duration (0 when ready). */
  estimatedReadySeconds(now = Date.now()): number {
    if (this.model) return 0
    if (!this.loading) return this.lastLoadSeconds
    return Math.max(0, this.lastLoadSeconds - (now - this.loadStartedAt) / 1000)
  }

  /** Starts loading when idle; never waits. */
  warm(): void {
    void this.acquire().catch(() => undefined)
  }

  /** The loaded model, loading it first when needed (the caller pays the cold start). */
  acquire(): Promise<M> {
    this.lastUsed = Date.now()
    if (this.model) return Promise.resolve(this.model)
    if (!this.loading) {
      this.loadStartedAt = Date.now()
      this.loading = this.load().then(
        (m) => {
          this.model = m
          this.loading = undefined
          this.lastUsed = Date.now()
          this.lastLoadSeconds = (Date.now() - this.loadStartedAt) / 1000
          return m
        },
        (e) => {
          this.loading = undefined
          throw e
        }
      )
    }
    return this.loading
  }

  /** Unloads when unused for `windowSeconds`; returns true when it did. */
  async unloadIfIdle(windowSeconds: number, now = Date.now()): Promise<boolean> {
    if (!this.model || now - this.lastUsed < windowSeconds * 1000) return false
    const m = this.model
    this.model = undefined
    await m.release?.()
    return true
  }
}
