/**
 * A writer thread: rebuilds the docket view over the shared arrays, then writes whatever units
 * the main thread hands it, reporting progress and completion.
 */
import { parentPort, workerData } from "node:worker_threads"
import { Docket, type DocketData } from "./docket.ts"
import type { TopicSet } from "./topics.ts"
import { runUnit, type Unit } from "./units.ts"

export interface WorkerInit {
  readonly n: number
  readonly seed: number
  readonly topics: TopicSet
  readonly data: DocketData
  readonly out: string
  readonly level: number
}

export type WorkerMessage =
  | { readonly type: "progress"; readonly applications: number; readonly grants: number }
  | { readonly type: "done" }
  | { readonly type: "failed"; readonly error: string }

const init = workerData as WorkerInit
const port = parentPort!
const docket = new Docket(init.n, init.seed, init.topics, init.data)
const post = (m: WorkerMessage) => port.postMessage(m)
const ctx = { docket, out: init.out, level: init.level, progress: (applications: number, grants: number) => post({ type: "progress", applications, grants }) }

port.on("message", (unit: Unit | null) => {
  if (unit === null) {
    port.close()
    return
  }
  runUnit(ctx, unit).then(
    () => post({ type: "done" }),
    (e: unknown) => post({ type: "failed", error: e instanceof Error ? e.stack ?? e.message : String(e) })
  )
})
