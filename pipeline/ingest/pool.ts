/**
 * The ingest worker pool: corpus objects are read in parallel by worker threads (one per core
 * unless INGEST_WORKERS says otherwise), each into its own raw partition. @effect/platform's
 * pool over node:worker_threads: a thread takes the next object as it frees up, and the threads
 * end with the scope.
 */
import * as Worker from "@effect/platform/Worker"
import * as NodeWorker from "@effect/platform-node/NodeWorker"
import { Config, Data, Effect, Stream } from "effect"
import * as os from "node:os"
import * as path from "node:path"
import { Worker as ThreadWorker } from "node:worker_threads"
import type { ParseEvent, ParseRequest, WorkerSettings } from "./protocol.ts"

/** Worker threads for ingest: every core by default; 0 reads in the stage's own thread (debugging, profiles). */
export const ingestWorkers = Config.integer("INGEST_WORKERS").pipe(
  Config.withDefault(os.availableParallelism()),
  Config.validate({ message: "INGEST_WORKERS must be 0 or more", validation: (n) => n >= 0 })
)

export class IngestWorkerFailed extends Data.TaggedError("IngestWorkerFailed")<{
  readonly path: string
  readonly reason: string
}> {
  override get message() {
    return `ingest worker failed on ${this.path}: ${this.reason}`
  }
}

/**
 * Each thread's DuckDB writer holds one object's rows until it writes them out: a share of a
 * quarter of RAM (at least 512 MB), spilling beyond it into the build's staging folder.
 */
const settingsFor = (stagingDir: string, size: number, id: number): WorkerSettings => ({
  memoryLimit: `${Math.max(512, Math.floor(os.totalmem() / 4 / size / 2 ** 20))}MB`,
  tempDirectory: path.join(stagingDir, `worker-${id}.spill`)
})

/**
 * Reads `requests` with `size` threads, calling `onEvent` (in this thread) for each row count and
 * each finished object. Requests are handed out in the order given: put the largest first, so
 * that no thread is left with a big object at the end while the others idle.
 */
export const parseInWorkers = (
  requests: ReadonlyArray<ParseRequest>,
  size: number,
  stagingDir: string,
  onEvent: (request: ParseRequest, event: ParseEvent) => void
) =>
  Effect.gen(function* () {
    const pool = yield* Worker.makePool<ParseRequest, ParseEvent, string>({ size })
    yield* Effect.forEach(
      requests,
      (request) =>
        pool.execute(request).pipe(
          Stream.runForEach((event) => Effect.sync(() => onEvent(request, event))),
          Effect.mapError((e) => new IngestWorkerFailed({ path: request.path, reason: typeof e === "string" ? e : e.message }))
        ),
      { concurrency: size, discard: true }
    )
  }).pipe(
    Effect.scoped,
    Effect.provide(
      NodeWorker.layer(
        (id) =>
          new ThreadWorker(new URL("./worker-entry.mjs", import.meta.url), {
            workerData: settingsFor(stagingDir, size, id),
            // Readers allocate many short-lived strings: a larger young generation means fewer scavenges.
            resourceLimits: { maxYoungGenerationSizeMb: 48 }
          })
      )
    )
  )
