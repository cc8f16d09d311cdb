/**
 * The socket side of a drain. The Drain service counts requests once they reach the app, but a
 * request is already on its way before that: a client that connected just before the signal,
 * a body still being read, a 503 still being written. Closing the listener or "idle" sockets at
 * that moment drops such a client with a reset instead of an answer. So the doorway counts
 * requests from Node's 'request' event to their response's 'close', notes the last connection
 * or request to arrive, and once a drain has begun tells each response to close its connection
 * (no keep-alive socket is left for a client to reuse as the server goes away).
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http"

/** A drain closes only after no connection or request has arrived for this long (and never sooner than this after it began). */
export const DRAIN_LINGER_MS = 1_000

export interface Doorway {
  /** From now on every response closes its connection, those already under way included. */
  readonly closing: () => void
  /** Nothing in progress at the socket level, and nothing new for `lingerMs`. */
  readonly quiet: (lingerMs?: number) => boolean
}

export const watchDoorway = (server: Server): Doorway => {
  const open = new Set<ServerResponse>()
  let lastArrival = performance.now()
  let isClosing = false
  const closeAfter = (response: ServerResponse) => {
    if (!response.headersSent) response.shouldKeepAlive = false
  }
  server.on("connection", () => {
    lastArrival = performance.now()
  })
  // Ahead of the app's listener, so the count starts before any of the app's work.
  server.prependListener("request", (_request: IncomingMessage, response: ServerResponse) => {
    lastArrival = performance.now()
    open.add(response)
    if (isClosing) closeAfter(response)
    response.once("close", () => {
      open.delete(response)
      lastArrival = performance.now()
    })
  })
  return {
    closing: () => {
      isClosing = true
      // Listen on for at least the linger after the signal: a client that connected just before it
      // may not have been accepted yet (closing the listener would reset it) and gets its 503.
      lastArrival = performance.now()
      for (const response of open) closeAfter(response)
    },
    quiet: (lingerMs = DRAIN_LINGER_MS) => open.size === 0 && performance.now() - lastArrival >= lingerMs
  }
}
