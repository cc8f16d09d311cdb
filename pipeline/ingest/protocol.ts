/**
 * What the ingest stage and its worker threads say to each other: plain, structured-clone-able
 * values (the pool is @effect/platform's, over node:worker_threads).
 */
import type { CorpusLocation } from "../corpus/CorpusStore.ts"
import type { ObjectPartition } from "./partition.ts"

/** Read one corpus object into the partition folder `dir`. */
export interface ParseRequest {
  readonly location: CorpusLocation
  readonly path: string
  readonly fingerprint: string
  readonly codeVersion: string
  readonly dir: string
}

export type ParseEvent =
  /** Rows stored so far (sent every thousand rows, for the progress lines). */
  | { readonly _tag: "Rows"; readonly n: number }
  | { readonly _tag: "Parsed"; readonly partition: ObjectPartition }

/** Set once per thread through workerData: the thread's DuckDB writer limits. */
export interface WorkerSettings {
  readonly memoryLimit: string
  readonly tempDirectory: string
}
