/** A real inference hub process and API server over the sample artifacts, for the prior-art tests. */
import { spawn, type ChildProcess } from "node:child_process"
import * as net from "node:net"
import { startTestServer, type TestServer } from "../api/support.ts"
import type { ApiSettings } from "../../api/config.ts"

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo
      s.close(() => resolve(port))
    })
  })

export interface HubProcess {
  readonly url: string
  readonly stop: () => void
}

export const startHub = async (artifactsDir: string): Promise<HubProcess> => {
  const url = `http://127.0.0.1:${await freePort()}`
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "api/inference-hub/main.ts"], {
    env: { ...process.env, HUB_URL: url, ARTIFACTS_DIR: artifactsDir },
    stdio: "ignore"
  })
  const end = Date.now() + 60_000
  while (Date.now() < end) {
    if (await fetch(`${url}/status`).then(() => true, () => false)) return { url, stop: () => void child.kill("SIGTERM") }
    await new Promise((r) => setTimeout(r, 100))
  }
  child.kill("SIGTERM")
  throw new Error("the inference hub did not start")
}

export interface PriorArtFixture {
  readonly hub: HubProcess
  readonly server: TestServer
  readonly key: string
  readonly close: () => Promise<void>
}

export const startPriorArt = async (artifactsDir: string, overrides: Partial<ApiSettings> = {}): Promise<PriorArtFixture> => {
  const hub = await startHub(artifactsDir)
  const server = await startTestServer({ artifactsDir, hubUrl: hub.url, ...overrides })
  const key = await server.key({ daily: 100_000, monthly: 1_000_000 })
  return {
    hub,
    server,
    key,
    close: async () => {
      await server.close()
      hub.stop()
    }
  }
}
