/** API process entry point: settings from the environment (CONTRACT.md), drain on SIGTERM/SIGINT. */
import { runUntilSignal } from "./server.ts"

await runUntilSignal({ preloadSearch: true })
