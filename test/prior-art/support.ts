/** A real inference hub process and API server over the sample artifacts, for the prior-art tests. */
import { startHub, type HubProcess } from "../support/hub-process.ts"

export type { HubProcess }
import { startTestServer, type TestServer } from "../api/support.ts"
import type { ApiSettings } from "../../api/config.ts"


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
