/** Warm-up handlers: thin over the hub's own /warmup and /status (api/hub/contract.ts). */
import { HttpApiBuilder } from "@effect/platform"
import { Clock, Effect } from "effect"
import { HubClient } from "../hub/HubClient.ts"
import { PatentApi } from "../Api.ts"

/** How often a blocking warm-up asks the hub whether the encoder is ready. */
const POLL_MS = 1000

export const WarmUpLive = HttpApiBuilder.group(PatentApi, "warm-up", (handlers) =>
  Effect.gen(function* () {
    const hub = yield* HubClient
    return handlers
      .handle("start", ({ urlParams: { rerank, wait } }) =>
        Effect.gen(function* () {
          let state = yield* hub.warm({ rerank })
          const deadline = (yield* Clock.currentTimeMillis) + wait * 1000
          while (!state.ready && wait > 0) {
            const left = deadline - (yield* Clock.currentTimeMillis)
            if (left <= 0) break
            yield* Effect.sleep(Math.min(POLL_MS, left))
            state = yield* hub.status()
          }
          const note = !state.ready && wait > 0 ? `still loading after waiting ${wait} s; poll GET /warmup` : undefined
          return { ...state, ...(note ? { note } : {}) }
        })
      )
      .handle("status", () =>
        Effect.map(hub.status(), ({ ready, models, warmWindowSeconds }) => ({ ready, models, warmWindowSeconds }))
      )
  })
)
