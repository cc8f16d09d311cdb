/**
 * The Node HTTP server under the API, with the limits a public server needs: slow or idle
 * clients are cut off, and what Node's own parser refuses (an unknown method, a URL or header
 * block over 16 KB, a malformed request line) still gets a JSON body in the coded envelope
 * instead of a bare status line or a reset.
 */
import { createServer, type Server } from "node:http"
import type { Duplex } from "node:stream"

/** Headers must arrive within this (slowloris); the whole request within REQUEST_TIMEOUT_MS. */
export const HEADERS_TIMEOUT_MS = 15_000
export const REQUEST_TIMEOUT_MS = 60_000
/** An idle keep-alive connection is closed after this. */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000

const parserRefusal = (code: string | undefined): readonly [number, string, string] => {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return [431, "REQUEST_HEADER_FIELDS_TOO_LARGE", "the request line and headers must total at most 16 KB (a long URL counts)"]
    case "HPE_INVALID_METHOD":
      return [501, "NOT_IMPLEMENTED", "the HTTP method is not one this server knows"]
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return [408, "REQUEST_TIMEOUT", `the request did not arrive within ${REQUEST_TIMEOUT_MS / 1000} s`]
    default:
      return [400, "BAD_REQUEST", "the request is not well-formed HTTP/1.1"]
  }
}

const answerClientError = (error: Error & { code?: string }, socket: Duplex) => {
  if (!socket.writable || (socket as { _httpMessage?: unknown })._httpMessage) {
    socket.destroy()
    return
  }
  const [status, code, message] = parserRefusal(error.code)
  const body = JSON.stringify({ error: message, code, timestamp: new Date().toISOString() })
  socket.end(
    `HTTP/1.1 ${status} ${code.replace(/_/g, " ")}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`
  )
}

/**
 * Node's header timeout starts with the first byte: a connection that never sends one would be
 * held forever (and hold a shutdown open). It gets the same budget as a slow header block.
 */
const closeSilentConnections = (server: Server, ms: number) =>
  server.on("connection", (socket) => {
    const timer = setTimeout(() => socket.destroy(), ms)
    timer.unref()
    socket.once("data", () => clearTimeout(timer))
    socket.once("close", () => clearTimeout(timer))
  })

export const makeNodeServer = (): Server => {
  const server = createServer({ headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS })
  server.on("clientError", answerClientError)
  closeSilentConnections(server, HEADERS_TIMEOUT_MS)
  return server
}
