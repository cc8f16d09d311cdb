/** The real inference hub as a child process on a free port, for tests that need real vectors. */
import { spawn, type ChildProcess } from "node:child_process"
import * as net from "node:net"
import { hubCommand } from "../../api/hub/bundle.ts"

export interface HubProcess {
  readonly url: string
  readonly process: ChildProcess
  readonly stop: () => Promise<void>
}

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo
      s.close(() => resolve(port))
    })
  })

/**
 * `listenOn` is the host the hub binds (HUB_URL's); `url` is always its loopback address. A test
 * of callers from another address binds 0.0.0.0.
 */
export const startHub = async (artifactsDir: string, env: Record<string, string> = {}, listenOn = "127.0.0.1"): Promise<HubProcess> => {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  // As make serve starts it: from its bundle (api/hub/bundle.ts), the sources through tsx where none can be made.
  const child = spawn(process.execPath, [...(await hubCommand())], {
    env: { ...process.env, HUB_URL: `http://${listenOn}:${port}`, ARTIFACTS_DIR: artifactsDir, ...env },
    stdio: "ignore"
  })
  const end = Date.now() + 60_000
  // Each probe is bounded, so the deadline below holds even when a port answers nothing.
  while (!(await fetch(`${url}/status`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false))) {
    if (Date.now() > end || child.exitCode !== null) throw new Error(`hub did not start at ${url} (exit ${child.exitCode ?? "none"})`)
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    url,
    process: child,
    stop: async () => {
      if (child.exitCode !== null) return
      child.kill("SIGTERM")
      await new Promise((r) => child.once("exit", r))
    }
  }
}
