/**
 * `make serve`: starts the inference hub (a supervised child, at HUB_URL) and the API in the
 * foreground, prints the base URL and a demo key, and on SIGINT/SIGTERM shuts down in order:
 * the API stops accepting and drains its in-flight requests (at most DRAIN_BUDGET_MS, 25 s),
 * then the hub stops (at most 3 s), all within 30 s of the signal.
 *
 * The artifacts were built (or found up to date) by the Makefile just before this runs. A version
 * published later (`make artifacts`, `make rollback`) is taken up without a restart: see
 * api/versions/switchboard.ts; SIGHUP makes the check at once.
 */
import { randomBytes } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { issueDemoKey } from "./auth/demo-key.ts"
import { superviseHub } from "./hub/supervisor.ts"
import { DRAIN_BUDGET_MS, settingsWith, startServer } from "./server.ts"

/** Hard limit from signal to exit: inside the usual 30 s grace period of systemd and Kubernetes. */
const EXIT_DEADLINE_MS = 29_500
const HUB_STOP_GRACE_MS = 3_000

const log = (line: string) => process.stderr.write(`${line}\n`)

// The API and the hub start on the version `current` names now. The API follows `current` to each
// newly published version (and `make rollback`) without a restart; it names the version on every
// hub call, so the hub loads that version's models beside the ones it started with.
const settings = settingsWith({ preloadSearch: true })
const startDir = await fs.realpath(settings.artifactsDir).catch(() => settings.artifactsDir)
const hubUrl = new URL(settings.hubUrl)
const servedVersion = await fs
  .readFile(path.join(startDir, "manifest.json"), "utf8")
  .then((t) => (JSON.parse(t) as { version?: string }).version, () => undefined)

// A fresh secret per run: the hub serves only this API (HubClient reads HUB_TOKEN).
process.env.HUB_TOKEN = randomBytes(24).toString("base64url")

const hub = await superviseHub({ hubUrl, artifactsDir: startDir, token: process.env.HUB_TOKEN, expectedVersion: servedVersion, log }).catch(
  (e: Error) => {
    log(`cannot start the inference hub: ${e.message}`)
    process.exit(1)
  }
)
const hubStarted = await Promise.race([hub.ready.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 30_000).unref())]).catch(
  (e: Error) => {
    log(`inference hub refused: ${e.message}`)
    process.exit(1)
  }
)
if (!hubStarted) log(`inference hub did not report ready at ${hubUrl} yet; starting the API anyway`)

const server = await startServer(settings)
const key = await issueDemoKey(settings.stateDir)

process.stdout.write(
  [
    "",
    `Patent intelligence API  ${server.url}/api/v1`,
    `  docs                   ${server.url}/docs`,
    `  patent-space explorer  ${server.url}/map`,
    `  MCP                    ${server.url}/mcp`,
    `  inference hub          ${hubUrl.origin}${servedVersion ? ` (version ${servedVersion})` : ""}`,
    `Demo API key (expires in a day; shown once): ${key}`,
    `  curl -H "Authorization: Bearer ${key}" ${server.url}/api/v1/warmup`,
    "Ctrl-C stops both.",
    ""
  ].join("\n")
)

let stopping = false
const stop = async (signal: string) => {
  if (stopping) return
  stopping = true
  setTimeout(() => {
    log(`shutdown did not finish within ${EXIT_DEADLINE_MS / 1000} s; exiting`)
    process.exit(1)
  }, EXIT_DEADLINE_MS).unref()
  log(`${signal}: draining the API (at most ${DRAIN_BUDGET_MS / 1000} s), then stopping the hub`)
  await server.drain(DRAIN_BUDGET_MS).catch((e) => log(`drain: ${e instanceof Error ? e.message : String(e)}`))
  await hub.stop(HUB_STOP_GRACE_MS)
  process.exit(0)
}
process.on("SIGINT", () => void stop("SIGINT"))
process.on("SIGTERM", () => void stop("SIGTERM"))
// An operator (or a publishing script) can ask for the switch at once instead of the next poll.
process.on("SIGHUP", () => void server.followVersion())
