/**
 * The sample build's published version folder, once the global setup's build (build-sample.ts)
 * has finished; a failed build fails every file that reads the sample with the build's message.
 * Test files call it at the top (`const versionDir = await sampleArtifacts()`).
 */
import * as fs from "node:fs/promises"
import { inject } from "vitest"
import type { SampleBuildOutcome } from "./sample-build-marker.ts"

let outcome: Promise<string> | undefined

const waitFor = async (marker: string): Promise<string> => {
  for (;;) {
    const text = await fs.readFile(marker, "utf8").catch(() => undefined)
    if (text !== undefined) {
      const o = JSON.parse(text) as SampleBuildOutcome
      if ("error" in o) throw new Error(`the sample build failed: ${o.error}`)
      return o.versionDir
    }
    await new Promise((r) => setTimeout(r, 250))
  }
}

export const sampleArtifacts = (): Promise<string> => (outcome ??= waitFor(inject("sampleBuild")))
