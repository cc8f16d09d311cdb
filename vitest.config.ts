import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Two cores in CI: run files in parallel but keep heavy fixtures shared via globalSetup.
    pool: "forks",
    maxWorkers: 2,
    globalSetup: ["test/support/global-setup.ts"]
  }
})
