/** Shared fixtures for the API tests: a real server on an ephemeral port, keys, a stub hub. */
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import { createServer, type Server } from "node:http"
import * as os from "node:os"
import * as path from "node:path"
import { type KeyOptions, createKey } from "../../api/auth/issue.ts"
import type { ApiSettings } from "../../api/config.ts"
import { type ServerHandle, startServer } from "../../api/server.ts"

export const tempDir = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), `api-${prefix}-`))

export interface TestServer extends ServerHandle {
  readonly stateDir: string
  readonly key: (options?: Partial<KeyOptions>, nowMs?: number) => Promise<string>
}

export const startTestServer = async (overrides: Partial<ApiSettings> = {}): Promise<TestServer> => {
  const stateDir = overrides.stateDir ?? tempDir("state")
  const handle = await startServer({
    port: 0,
    host: "127.0.0.1",
    stateDir,
    artifactsDir: path.join(stateDir, "no-artifacts"),
    hubUrl: "http://127.0.0.1:9",
    logRequests: false,
    ...overrides
  })
  return { ...handle, stateDir, key: (options = {}, nowMs) => createKey(stateDir, { name: "test", ...options }, nowMs) }
}

export interface CallOptions {
  readonly key?: string
  readonly authorization?: string
  readonly body?: unknown
  readonly rawBody?: string
  readonly contentType?: string
  readonly headers?: Record<string, string>
  /** A call that has not answered by then fails naming itself (default 120 s), instead of the whole test timing out. */
  readonly timeoutMs?: number
}

export const call = async (base: string, method: string, path: string, o: CallOptions = {}) => {
  const headers: Record<string, string> = { ...o.headers }
  if (o.authorization !== undefined) headers.authorization = o.authorization
  else if (o.key) headers.authorization = `Bearer ${o.key}`
  const body = o.rawBody ?? (o.body === undefined ? undefined : JSON.stringify(o.body))
  if (body !== undefined) headers["content-type"] = o.contentType ?? "application/json"
  const timeoutMs = o.timeoutMs ?? 120_000
  const signal = AbortSignal.timeout(timeoutMs)
  const named = (e: unknown) =>
    signal.aborted ? new Error(`${method} ${path} did not answer within ${timeoutMs} ms`) : e
  const response = await fetch(`${base}${path}`, { method, headers, body, signal }).catch((e) => Promise.reject(named(e)))
  const text = await response.text().catch((e) => Promise.reject(named(e)))
  let json: any
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, headers: response.headers, text, json }
}

export interface StubHub {
  readonly url: string
  readonly close: () => Promise<void>
  /** Calls seen, e.g. "POST /warmup?rerank=1". */
  readonly calls: Array<string>
  state: { ready: boolean; warming: boolean; reranker: boolean }
  /** Delay before every answer (ms), to hold requests in flight. */
  delayMs: number
}

/** A stand-in inference hub speaking api/hub/contract.ts. */
export const startStubHub = async (): Promise<StubHub> => {
  const hub: StubHub = {
    url: "",
    close: async () => {},
    calls: [],
    state: { ready: false, warming: false, reranker: false },
    delayMs: 0
  }
  const server: Server = createServer((req, res) => {
    hub.calls.push(`${req.method} ${req.url}`)
    if (req.method === "POST" && req.url?.startsWith("/warmup")) {
      hub.state.warming = !hub.state.ready
      if (req.url.includes("rerank=1")) hub.state.reranker = true
    }
    setTimeout(() => {
      res.setHeader("content-type", "application/json")
      res.end(
        JSON.stringify({
          ready: hub.state.ready,
          warming: hub.state.warming,
          models: { encoder: hub.state.ready, reranker: hub.state.ready && hub.state.reranker },
          estimatedReadySeconds: hub.state.ready ? 0 : 71,
          warmWindowSeconds: 900
        })
      )
    }, hub.delayMs)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as { port: number }).port
  return Object.assign(hub, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  })
}

export interface ApiProcess {
  readonly url: string
  readonly child: ChildProcess
  readonly exited: Promise<void>
}

/** The API's process entry (api/main.ts) on an ephemeral loopback port, with `env` over this process's. */
export const spawnApiProcess = async (env: Record<string, string>): Promise<ApiProcess> => {
  const child = spawn(process.execPath, ["--import", "tsx", "api/main.ts"], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", HUB_URL: "http://127.0.0.1:9", ...env },
    stdio: ["ignore", "pipe", "inherit"]
  })
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const url = await new Promise<string>((resolve, reject) => {
    let buffer = ""
    child.stdout!.on("data", (chunk: Buffer) => {
      buffer += chunk.toString()
      const line = buffer.split("\n").find((l) => l.includes('"listening"'))
      if (line) resolve(JSON.parse(line).url)
    })
    child.once("exit", (code) => reject(new Error(`api/main.ts exited before listening (${code})`)))
  })
  // Keep draining its logs so a full pipe never stalls it.
  child.stdout!.resume()
  return { url, child, exited }
}
