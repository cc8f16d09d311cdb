/**
 * The structured request log: one JSON line per answered request, shaped as Logger.json shapes a
 * line (message, logLevel, timestamp, annotations, spans, fiberId), written in batches.
 *
 * Through Effect's logger the request line cost about a tenth of the API's CPU at 50 connections
 * (bench/api-throughput.ts, profiled): its generic structured formatting, then one write to
 * stdout per request, and Node writes stdout synchronously when it is a pipe or a file (as under
 * a supervisor). Here a line is one JSON.stringify of a plain object; the lines of one turn of
 * the event loop are written together at its end (setImmediate), so a line is late by at most
 * that turn, and closing the scope (a generation disposed, the server stopped) writes what is left.
 * Other log lines (errors, defects) still go through the logger the server installed.
 */
import { Effect, FiberId } from "effect"

export interface RequestLine {
  readonly requestId: string
  readonly method: string
  readonly path: string
  readonly route: string
  readonly status: number
  readonly ms: number
  readonly key: string | null
  readonly remote: string | null
}

export interface RequestLog {
  /** Queues the line of the request that fiber `fiberId` answered (called from inside an effect: no fiber step of its own). */
  readonly write: (line: RequestLine, fiberId: FiberId.FiberId) => void
}

export const requestLog = (out: { write(text: string): unknown } = process.stdout) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      let pending: Array<string> = []
      let scheduled: ReturnType<typeof setImmediate> | undefined
      const flush = () => {
        scheduled = undefined
        if (pending.length === 0) return
        const text = `${pending.join("\n")}\n`
        pending = []
        out.write(text)
      }
      const log: RequestLog = {
        write: (line, fiberId) => {
          pending.push(
            JSON.stringify({
              message: "request",
              logLevel: "INFO",
              timestamp: new Date().toISOString(),
              annotations: line,
              spans: {},
              fiberId: FiberId.threadName(fiberId)
            })
          )
          scheduled ??= setImmediate(flush)
        }
      }
      return { log, flush, cancel: () => scheduled !== undefined && clearImmediate(scheduled) }
    }),
    ({ cancel, flush }) =>
      Effect.sync(() => {
        cancel()
        flush()
      })
  ).pipe(Effect.map(({ log }) => log))
