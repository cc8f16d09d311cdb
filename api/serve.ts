/**
 * `make serve`: starts the inference hub (its own process, at HUB_URL) and the API in the
 * foreground, prints the base URL and a freshly issued demo key, and on SIGINT/SIGTERM drains
 * the API (in-flight requests finish) and stops the hub.
 *
 * The artifacts were built (or found up to date) by the Makefile just before this runs.
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { issueDemoKey } from "./auth/demo-key.ts"
import { settingsWith, startServer } from "./server.ts"

const here = path.dirname(fileURLToPath(import.meta.url))
// The API and the hub serve one version: the one `current` names now, resolved once for both.
const given = settingsWith({ preloadSearch: true })
const settings = { ...given, artifactsDir: await fs.realpath(given.artifactsDir).catch(() => given.artifactsDir) }
const hubUrl = new URL(settings.hubUrl)

const waitForHub = async (ms: number) => {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await fetch(new URL("/status", hubUrl)).then((r) => r.ok, () => false)) return true
    await new Promise((r) => setTimeout(r, 150))
  }
  return false
}

const hub = spawn(process.execPath, ["--import", "tsx", path.join(here, "inference-hub", "main.ts")], {
  env: { ...process.env, HUB_URL: hubUrl.toString(), ARTIFACTS_DIR: settings.artifactsDir },
  stdio: ["ignore", "inherit", "inherit"]
})
hub.on("exit", (code, signal) => {
  if (!stopping) process.stderr.write(`inference hub exited (${signal ?? code}); hub-dependent routes answer 502 until it is back\n`)
})

let stopping = false
if (!(await waitForHub(30_000))) process.stderr.write(`inference hub did not answer at ${hubUrl} yet; starting the API anyway\n`)
const server = await startServer(settings)
const key = await issueDemoKey(settings.stateDir)

process.stdout.write(
  [
    "",
    `Patent intelligence API  ${server.url}/api/v1`,
    `  docs                   ${server.url}/docs`,
    `  patent-space explorer  ${server.url}/map`,
    `  MCP                    ${server.url}/mcp`,
    `  inference hub          ${hubUrl.origin}`,
    `Demo API key (shown once): ${key}`,
    `  curl -H "Authorization: Bearer ${key}" ${server.url}/api/v1/warmup`,
    "Ctrl-C stops both.",
    ""
  ].join("\n")
)

const stop = async (signal: string) => {
  if (stopping) return
  stopping = true
  process.stderr.write(`${signal}: draining the API, then stopping the hub\n`)
  await server.drain()
  hub.kill("SIGTERM")
  await new Promise((r) => (hub.exitCode !== null ? r(undefined) : hub.once("exit", r)))
  process.exit(0)
}
process.on("SIGINT", () => void stop("SIGINT"))
process.on("SIGTERM", () => void stop("SIGTERM"))
