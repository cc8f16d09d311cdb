/**
 * An ingest worker thread: reads the corpus objects the pool hands it, one at a time, each into
 * its raw partition, streaming row counts back and then what the object became. It opens the
 * objects itself (its own CorpusStore: the folder or the S3 bucket), so no corpus bytes cross
 * threads.
 */
import * as WorkerRunner from "@effect/platform/WorkerRunner"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeWorkerRunner from "@effect/platform-node/NodeWorkerRunner"
import { Effect, Layer, Stream } from "effect"
import { workerData } from "node:worker_threads"
import { CorpusStore } from "../corpus/CorpusStore.ts"
import { parseObject, PartitionWriter } from "./partition.ts"
import type { ParseEvent, ParseRequest, WorkerSettings } from "./protocol.ts"

/** The thread's DuckDB writer, opened once and closed when the pool lets the thread go. */
class ThreadPartitionWriter extends Effect.Service<ThreadPartitionWriter>()("ingest/ThreadPartitionWriter", {
  scoped: Effect.acquireRelease(
    Effect.promise(() => PartitionWriter.open(workerData as WorkerSettings)),
    (writer) => Effect.sync(() => writer.close())
  )
}) {}

const parse = (request: ParseRequest) =>
  Stream.unwrap(
    Effect.gen(function* () {
      const store = yield* CorpusStore
      const writer = yield* ThreadPartitionWriter
      return Stream.async<ParseEvent, string>((emit) => {
        parseObject(writer, store.file(request.location, request.path), request, request.dir, (n) => void emit.single({ _tag: "Rows", n })).then(
          (partition) => emit.single({ _tag: "Parsed", partition }).then(() => emit.end()),
          // A failure here is the partition's own (disk full, DuckDB), not the object's: the stage fails.
          (e: unknown) => emit.fail(e instanceof Error ? e.stack ?? e.message : String(e))
        )
      })
    })
  )

WorkerRunner.layer(parse).pipe(
  Layer.provide([NodeWorkerRunner.layer, ThreadPartitionWriter.Default, CorpusStore.Default]),
  WorkerRunner.launch,
  NodeRuntime.runMain
)
