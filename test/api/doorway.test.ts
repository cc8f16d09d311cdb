/**
 * The socket side of a drain: a drain may close only when no request is in progress at the
 * socket level (the app's own count misses one still queued for a 503 or being written) and
 * nothing has arrived for a moment, and every response after the drain began closes its
 * connection so no client reuses a keep-alive socket the server is about to drop.
 */
import { createServer, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "vitest"
import { watchDoorway } from "../../api/http/transport/doorway.ts"

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe("doorway", () => {
  it("is quiet only once every response has closed and nothing arrived for the linger", async () => {
    const pending: ServerResponse[] = []
    const server = createServer((_req, res) => void pending.push(res))
    const doorway = watchDoorway(server)
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r))
    const { port } = server.address() as AddressInfo
    try {
      const answer = fetch(`http://127.0.0.1:${port}/`)
      while (pending.length === 0) await sleep(5)
      doorway.closing()
      await sleep(60)
      expect(doorway.quiet(50)).toBe(false) // a response is still open
      pending[0]!.end("done")
      const response = await answer
      expect(response.headers.get("connection")).toBe("close")
      expect(await response.text()).toBe("done")
      expect(doorway.quiet(200)).toBe(false) // it just closed
      await sleep(250)
      expect(doorway.quiet(200)).toBe(true)
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })
})
