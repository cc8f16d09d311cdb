/**
 * `make build-worker` (pipeline/distributed/worker-main.ts) as a child process for the distributed
 * tests: its log lines are collected, tests wait for a line, and every worker started is killed
 * after each test (stopWorkers); queues get run-unique names and are removed after each test.
 */
import { Effect, Redacted } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { obliterateQueue } from "../../pipeline/distributed/coordinator.ts"

export interface WorkerProcess {
  readonly name: string
  readonly child: ChildProcess
  readonly lines: string[]
  readonly exited: Promise<number | null>
}

const started: WorkerProcess[] = []

/** A worker with these settings added to the environment (BUILD_QUEUE, BUILD_QUEUE_NAME, S3_ENDPOINT …). */
export const startWorker = (name: string, env: Readonly<Record<string, string>>): WorkerProcess => {
  const child = spawn(process.execPath, ["--import", "tsx", "pipeline/distributed/worker-main.ts"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] })
  const lines: string[] = []
  let buffer = ""
  const take = (chunk: Buffer) => {
    buffer += chunk.toString("utf8")
    const parts = buffer.split("\n")
    buffer = parts.pop()!
    lines.push(...parts)
  }
  child.stdout!.on("data", take)
  child.stderr!.on("data", take)
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  const w = { name, child, lines, exited }
  started.push(w)
  return w
}

/** The first log line matching `pattern`; fails with the worker's log when it exits or the time runs out. */
export const waitForLine = async (w: WorkerProcess, pattern: RegExp, timeoutMs = 60_000) => {
  const start = Date.now()
  for (;;) {
    const line = w.lines.find((l) => pattern.test(l))
    if (line) return line
    if (w.child.exitCode !== null) throw new Error(`${w.name} exited (${w.child.exitCode}) before ${pattern}:\n${w.lines.join("\n")}`)
    if (Date.now() - start > timeoutMs) throw new Error(`${w.name}: no ${pattern} within ${timeoutMs} ms:\n${w.lines.join("\n")}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** Kills every worker still running and waits for it to exit (afterEach). */
export const stopWorkers = async () => {
  for (const w of started.splice(0)) {
    if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL")
    await w.exited
  }
}

/** Local Redis, where the distributed tests meet their workers. */
export const REDIS = "redis://127.0.0.1:6379"

/** Queue names for one test file, each unique to the run, and their removal from Redis after each test. */
export const testQueues = (prefix: string) => {
  const names: string[] = []
  return {
    next: (label: string) => {
      const q = `${prefix}-${label}-${process.pid}-${Date.now()}`
      names.push(q)
      return q
    },
    removeAll: async () => {
      for (const queueName of names.splice(0)) await Effect.runPromise(obliterateQueue({ redisUrl: Redacted.make(REDIS), queueName }))
    }
  }
}
