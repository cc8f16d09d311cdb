/**
 * Graceful drain: once begun, new requests (and /healthz) answer 503 while requests already in
 * flight run to completion; `idle` resolves when the last one has answered.
 */
import { Effect } from "effect"

export class Drain extends Effect.Service<Drain>()("api/Drain", {
  sync: () => {
    let draining = false
    let inFlight = 0
    let waiters: Array<() => void> = []
    const settle = () => {
      if (draining && inFlight === 0) {
        for (const w of waiters) w()
        waiters = []
      }
    }
    return {
      isDraining: () => draining,
      inFlight: () => inFlight,
      begin: () => {
        draining = true
        settle()
      },
      enter: () => {
        inFlight++
      },
      leave: () => {
        inFlight--
        settle()
      },
      idle: () =>
        new Promise<void>((resolve) => {
          if (draining && inFlight === 0) resolve()
          else waiters.push(resolve)
        })
    }
  }
}) {}
