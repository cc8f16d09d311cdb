/**
 * Body checks that run before routing so every failure gets its family's envelope: a size limit
 * (declared or observed), an empty body, a content type other than JSON, malformed JSON.
 * The text read here is cached by the request, so HttpApi's own decoding reuses it.
 */
import { HttpIncomingMessage, HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import type { IncomingMessage } from "node:http"
import { Effect, Option } from "effect"
import { InvalidRequest } from "../../domain/errors.ts"
import { PayloadTooLarge, UnsupportedMediaType } from "../envelopes.ts"

/** Deeper than any legal body; a deeper one is refused before parsing, so no decoder recurses on it. */
export const MAX_JSON_DEPTH = 64

/** Nesting depth of JSON text (brackets outside strings), stopping early once past `limit`. */
const depthExceeds = (text: string, limit: number) => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92) i++ // backslash: skip the escaped character
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 123 || c === 91) {
      if (++depth > limit) return true
    } else if (c === 125 || c === 93) depth--
  }
  return false
}

export const readJsonBody = (request: HttpServerRequest.HttpServerRequest, maxBytes: number) =>
  Effect.gen(function* () {
    const tooLarge = new PayloadTooLarge({ message: `body: must be at most ${maxBytes} bytes` })
    const declared = Number(request.headers["content-length"] ?? "0")
    if (declared > maxBytes) return yield* Effect.fail(tooLarge)
    const text = yield* request.text.pipe(
      HttpIncomingMessage.withMaxBodySize(Option.some(maxBytes)),
      Effect.mapError((e) =>
        String((e as { cause?: unknown }).cause ?? e).includes("maxBytes") ? tooLarge : new InvalidRequest({ message: "body: could not be read" })
      )
    )
    if (text.trim() === "") return yield* Effect.fail(new InvalidRequest({ message: "body: a JSON object is required" }))
    if (!/application\/json/i.test(request.headers["content-type"] ?? "")) {
      return yield* Effect.fail(new UnsupportedMediaType({ message: "Content-Type: must be application/json" }))
    }
    if (depthExceeds(text, MAX_JSON_DEPTH)) {
      return yield* Effect.fail(new InvalidRequest({ message: `body: JSON nested deeper than ${MAX_JSON_DEPTH} levels` }))
    }
    return yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: (e) => new InvalidRequest({ message: `body: is not valid JSON (${e instanceof Error ? e.message : "parse error"})` })
    })
  })

const HOP_BY_HOP = new Set(["transfer-encoding", "content-length", "connection", "keep-alive", "expect", "host", "upgrade", "te", "trailer"])

/**
 * Every request body is read here, once, from the Node request, and the text becomes the body of
 * the request the router decodes. Two reasons:
 * - a chunked body (no Content-Length) over the cap is answered 413 while the rest is discarded:
 *   the platform's own capped read destroys the socket, and the client saw a reset instead;
 * - a client that gives up mid-request ends the read. The platform's read is cached, and a cached
 *   effect runs uninterruptibly: on a request already torn down it waited forever for an 'end'
 *   that never came, and the request stayed in flight (every drain then waited out its budget).
 * A declared Content-Length over the cap is left unread: readJsonBody answers 413 from the header.
 */
export const bufferBody = (request: HttpServerRequest.HttpServerRequest, maxBytes: number) =>
  Effect.gen(function* () {
    if (request.method === "GET" || request.method === "HEAD") return request
    const declared = request.headers["content-length"]
    if (declared !== undefined && Number(declared) > maxBytes) return request
    const incoming = (() => {
      try {
        return NodeHttpServerRequest.toIncomingMessage(request) as IncomingMessage | undefined
      } catch {
        return undefined
      }
    })()
    if (!incoming || typeof incoming.on !== "function") return request
    const text = yield* readIncoming(incoming, maxBytes)
    const headers = new Headers()
    for (const [k, v] of Object.entries(request.headers)) if (typeof v === "string" && !HOP_BY_HOP.has(k)) headers.set(k, v)
    const web = new Request(`http://internal${request.url}`, { method: request.method, headers, body: text })
    return HttpServerRequest.fromWeb(web).modify({ remoteAddress: Option.getOrUndefined(request.remoteAddress) })
  })

/** The whole body as text, at most `maxBytes`; fails when the client goes away first, and stops listening when interrupted. */
const readIncoming = (incoming: IncomingMessage, maxBytes: number) =>
  Effect.async<string, PayloadTooLarge | InvalidRequest>((resume) => {
    const gone = () => new InvalidRequest({ message: "body: the client closed the connection before sending it whole" })
    // Torn down before the read began: no event will ever come.
    if (incoming.destroyed) {
      resume(Effect.fail(gone()))
      return
    }
    const chunks: Array<Buffer> = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= maxBytes) return void chunks.push(chunk)
      cleanup()
      // Keep reading and dropping the rest, so the answer reaches a client still sending.
      incoming.resume()
      resume(Effect.fail(new PayloadTooLarge({ message: `body: must be at most ${maxBytes} bytes` })))
    }
    const onEnd = () => (cleanup(), resume(Effect.succeed(Buffer.concat(chunks).toString("utf8"))))
    const onError = () => (cleanup(), resume(Effect.fail(new InvalidRequest({ message: "body: could not be read" }))))
    const onClose = () => (cleanup(), resume(Effect.fail(gone())))
    const cleanup = () => {
      incoming.off("data", onData)
      incoming.off("end", onEnd)
      incoming.off("error", onError)
      incoming.off("close", onClose)
    }
    incoming.on("data", onData)
    incoming.on("end", onEnd)
    incoming.on("error", onError)
    incoming.on("close", onClose)
    return Effect.sync(cleanup)
  })
