/**
 * Runs the inference hub as a supervised child of `make serve`:
 *
 * - it gets its own process group, so Ctrl-C or a signal to the group reaches only the API, which
 *   drains first and then stops the hub (searches in flight keep their hub to the end);
 * - an IPC channel ties it to this process: the hub exits when the channel closes (this process
 *   was killed), and it announces `{ready, version}` on it, so another process answering on the
 *   port is never mistaken for our hub;
 * - a port that is already taken is refused before the start, not shared;
 * - a hub that dies is restarted with exponential backoff (reset after a minute of good health).
 *
 * Node's child_process is the honest tool here (Effect's Command has no IPC channel). The hub runs
 * from its bundle when one can be made (bundle.ts: it is ready about five times sooner).
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as net from "node:net"
import { hubCommand } from "./bundle.ts"

export interface HubSupervisorOptions {
  readonly hubUrl: URL
  readonly artifactsDir: string
  readonly token: string
  /** The version the API serves; a hub announcing another one is stopped. */
  readonly expectedVersion: string | undefined
  readonly log: (line: string) => void
  /** First backoff step and cap (ms). */
  readonly backoff?: { readonly initialMs: number; readonly maxMs: number }
}

export interface HubSupervisor {
  /** Resolves once the first hub announced itself; rejects when it could not start. */
  readonly ready: Promise<void>
  readonly pid: () => number | undefined
  readonly restarts: () => number
  /** Stops the hub (SIGTERM, then SIGKILL after `graceMs`) and does not restart it. */
  readonly stop: (graceMs: number) => Promise<void>
}


/** Something accepts connections at the address (an orphaned hub, another service). */
export const portTaken = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host, port })
    socket.setTimeout(1_000)
    socket.once("connect", () => (socket.destroy(), resolve(true)))
    socket.once("timeout", () => (socket.destroy(), resolve(false)))
    socket.once("error", () => resolve(false))
  })

export const superviseHub = async (o: HubSupervisorOptions): Promise<HubSupervisor> => {
  const host = o.hubUrl.hostname.replace(/^\[|\]$/g, "")
  const port = Number(o.hubUrl.port || 80)
  if (await portTaken(host, port)) {
    throw new Error(`the hub port ${o.hubUrl.origin} is already taken (an orphaned hub of an earlier run, or another service); stop it or set HUB_URL`)
  }
  const backoff = o.backoff ?? { initialMs: 500, maxMs: 30_000 }
  let child: ChildProcess | undefined
  let stopping = false
  let restarts = 0
  let failuresInARow = 0
  let timer: NodeJS.Timeout | undefined
  let firstReady: { resolve: () => void; reject: (e: Error) => void } | undefined
  const ready = new Promise<void>((resolve, reject) => (firstReady = { resolve, reject }))

  const start = async () => {
    const startedAt = Date.now()
    const command = await hubCommand()
    if (stopping) return
    const hub = spawn(process.execPath, [...command], {
      env: { ...process.env, HUB_URL: o.hubUrl.toString(), ARTIFACTS_DIR: o.artifactsDir, HUB_TOKEN: o.token },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      detached: true
    })
    child = hub
    hub.on("message", (m: { ready?: boolean; version?: string | null }) => {
      if (!m?.ready) return
      if (o.expectedVersion && m.version && m.version !== o.expectedVersion) {
        o.log(`inference hub serves version ${m.version} but the API serves ${o.expectedVersion}; stopping it`)
        stopping = true
        hub.kill("SIGTERM")
        firstReady?.reject(new Error(`hub version ${m.version} differs from the API's ${o.expectedVersion}`))
        return
      }
      firstReady?.resolve()
      firstReady = undefined
    })
    hub.on("exit", (code, signal) => {
      if (child === hub) child = undefined
      if (stopping) return
      const lived = Date.now() - startedAt
      failuresInARow = lived > 60_000 ? 1 : failuresInARow + 1
      const delay = Math.min(backoff.maxMs, backoff.initialMs * 2 ** (failuresInARow - 1))
      o.log(`inference hub exited (${signal ?? `code ${code}`}); restarting in ${(delay / 1000).toFixed(1)} s; hub-dependent routes answer 502 until it is back`)
      timer = setTimeout(() => {
        timer = undefined
        if (stopping) return
        restarts++
        void start()
      }, delay)
    })
  }
  await start()

  return {
    ready,
    pid: () => child?.pid,
    restarts: () => restarts,
    stop: async (graceMs) => {
      stopping = true
      if (timer) clearTimeout(timer)
      const hub = child
      if (!hub || hub.exitCode !== null || hub.signalCode !== null) return
      const exited = new Promise<void>((r) => hub.once("exit", () => r()))
      hub.kill("SIGTERM")
      const killer = setTimeout(() => hub.kill("SIGKILL"), graceMs)
      await exited
      clearTimeout(killer)
    }
  }
}
