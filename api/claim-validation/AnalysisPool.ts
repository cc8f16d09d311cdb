/**
 * Claim analyses run on a pool of worker threads, never on the event loop: a 5 MB claim must not
 * hold up /healthz or anybody else's request. Each task has a deadline; a task past it is aborted
 * (piscina ends its thread and starts a fresh one) and the request fails with BackendFailed.
 */
import * as os from "node:os"
import { fileURLToPath } from "node:url"
import { Piscina } from "piscina"
import { Duration, Effect } from "effect"
import { BackendFailed } from "../domain/errors.ts"
import type { AnalysisTaskName, analysisTasks } from "./analysis-tasks.ts"

/** The most one analysis may take; the request budgets (OpenAPI descriptions) keep honest input far below it. */
export const ANALYSIS_DEADLINE = Duration.seconds(30)

type Tasks = typeof analysisTasks

export class AnalysisPool extends Effect.Service<AnalysisPool>()("api/AnalysisPool", {
  scoped: Effect.gen(function* () {
    const pool = yield* Effect.acquireRelease(
      Effect.sync(
        () =>
          new Piscina({
            filename: fileURLToPath(new URL("./analysis-worker.mjs", import.meta.url)),
            // One core stays with the event loop and DuckDB when there are few.
            maxThreads: Math.max(1, os.availableParallelism() - 1),
            minThreads: 0,
            idleTimeout: 60_000,
            // A queue bound keeps a flood of checks from holding unbounded memory.
            maxQueue: 256
          })
      ),
      (p) => Effect.promise(() => p.destroy())
    )

    const run = <N extends AnalysisTaskName>(name: N, input: Parameters<Tasks[N]>[0], deadline: Duration.DurationInput = ANALYSIS_DEADLINE) =>
      Effect.tryPromise({
        try: (signal) => pool.run(input, { name, signal }) as Promise<ReturnType<Tasks[N]>>,
        catch: (e) => new BackendFailed({ message: `${name} failed: ${e instanceof Error ? e.message : String(e)}` })
      }).pipe(
        // Interruption (deadline or a client gone) aborts the task through `signal`.
        Effect.timeoutFail({
          duration: deadline,
          onTimeout: () => new BackendFailed({ message: `${name} did not finish within its ${Duration.format(deadline)} budget` })
        }),
        Effect.withSpan(`AnalysisPool.${name}`, { captureStackTrace: false })
      )

    return { run, threads: () => pool.threads.length, queued: () => pool.queueSize } as const
  })
}) {}
