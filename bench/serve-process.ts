/**
 * `make serve` (api/serve.ts with its supervised hub) as a child process in its own process group,
 * for benchmarks that must not share the server's event loop. The key is created beforehand in
 * the STATE_DIR the service reads, with quotas no benchmark reaches.
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { createKey } from "../api/auth/issue.ts"

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo
      s.close(() => resolve(port))
    })
  })

export interface ServedForBench {
  readonly url: string
  readonly key: string
  readonly process: ChildProcess
  /** SIGTERM to the group, then waits for the exit; removes the state directory. */
  readonly stop: () => Promise<void>
}

export const serveForBench = async (artifactsDir: string): Promise<ServedForBench> => {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-serve-"))
  const key = await createKey(stateDir, { name: "bench", daily: 100_000_000, monthly: 3_000_000_000 })
  const port = await freePort()
  const child = spawn(process.execPath, ["--import", "tsx", "api/serve.ts"], {
    env: { ...process.env, PORT: String(port), HUB_URL: `http://127.0.0.1:${await freePort()}`, ARTIFACTS_DIR: artifactsDir, STATE_DIR: stateDir },
    stdio: ["ignore", "pipe", "inherit"],
    detached: true
  })
  let out = ""
  child.stdout!.on("data", (c: Buffer) => (out += c.toString().slice(0, 10_000)))
  const started = Date.now()
  while (!out.includes("Ctrl-C stops both")) {
    if (Date.now() - started > 180_000 || child.exitCode !== null) throw new Error(`make serve did not start:\n${out}`)
    await new Promise((r) => setTimeout(r, 200))
  }
  return {
    url: `http://127.0.0.1:${port}`,
    key,
    process: child,
    stop: async () => {
      process.kill(-child.pid!, "SIGTERM")
      await new Promise((r) => child.once("exit", r))
      fs.rmSync(stateDir, { recursive: true, force: true })
    }
  }
}
