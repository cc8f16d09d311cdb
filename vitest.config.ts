import { defineConfig } from "vitest/config"
import SampleLastSequencer from "./test/support/sequencer.ts"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Two cores in CI: run files in parallel but keep heavy fixtures shared via globalSetup, which
    // builds the sample while the files that do not read it run first (test/support/sequencer.ts).
    pool: "forks",
    maxWorkers: 2,
    globalSetup: ["test/support/global-setup.ts"],
    setupFiles: ["test/support/yield-to-build.ts"],
    sequence: { sequencer: SampleLastSequencer }
  }
})
