/**
 * A build worker process: `node --import tsx pipeline/distributed/worker-main.ts` on any machine
 * that reaches the build queue (BUILD_QUEUE, BUILD_QUEUE_NAME) and S3 (S3_ENDPOINT, AWS_*). It
 * reads INGEST_WORKERS objects at once (default: one per core) from the ingest queue and encodes
 * BUILD_EMBED_CONCURRENCY batches at once (default 1) from the embedding queue beside it, until
 * SIGTERM or SIGINT, which let the jobs in hand finish before it exits; a worker killed outright
 * loses nothing (its jobs go back to the queue once their locks lapse).
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Effect } from "effect"
import { runBuildWorker } from "./build-worker.ts"
import { buildWorkerSettings } from "./settings.ts"

buildWorkerSettings.pipe(Effect.flatMap(runBuildWorker), Effect.zipRight(Effect.never), Effect.scoped, NodeRuntime.runMain)
