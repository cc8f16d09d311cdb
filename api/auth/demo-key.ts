/** The demo key `make serve` prints: a fresh live key with the default quota and every permission. */
import { createKey } from "./issue.ts"

export const issueDemoKey = (stateDir: string): Promise<string> => createKey(stateDir, { name: "demo" })
