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
      /**
       * Runs `effect` counted as in flight. Counting in and out is one acquire/release pair: a
       * request its client abandons is interrupted at any point, and a separate enter() before
       * an ensuring(leave) could be interrupted between the two and stay counted forever (then
       * every drain waits out its whole budget).
       */
      tracked: <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        Effect.acquireUseRelease(
          Effect.sync(() => {
            inFlight++
          }),
          () => effect,
          () =>
            Effect.sync(() => {
              inFlight--
              settle()
            })
        ),
      idle: () =>
        new Promise<void>((resolve) => {
          if (draining && inFlight === 0) resolve()
          else waiters.push(resolve)
        })
    }
  }
}) {}
