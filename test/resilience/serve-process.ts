/** `make serve`'s entry (api/serve.ts) as a child process in its own process group, for supervision tests. */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import * as path from "node:path"
import { freePort } from "../support/hub-process.ts"
import { tempDir } from "../api/support.ts"

export interface ServeProcess {
  readonly child: ChildProcess
  readonly url: string
  readonly hubUrl: string
  readonly key: string
  readonly output: () => string
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; atMs: number }>
  /** Pid of the supervised hub (a child running its bundle, api/hub/bundle.ts, or api/inference-hub/main.ts). */
  readonly hubPid: () => number | undefined
}

export const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Polls `condition` until it holds; a condition that itself hangs is cut off at the deadline too. */
export const until = async (condition: () => boolean | Promise<boolean>, ms: number, what: string) => {
  const end = Date.now() + ms
  const timedOut = () => new Error(`timed out after ${ms} ms waiting for ${what}`)
  for (;;) {
    let timer: NodeJS.Timeout | undefined
    const deadline = new Promise<"deadline">((r) => (timer = setTimeout(() => r("deadline"), Math.max(0, end - Date.now()) + 100)))
    const held = await Promise.race([Promise.resolve(condition()), deadline]).finally(() => clearTimeout(timer))
    if (held === "deadline") throw timedOut()
    if (held) return
    if (Date.now() > end) throw timedOut()
    await new Promise((r) => setTimeout(r, 100))
  }
}

export const startServe = async (artifactsDir: string, options: { hubPort?: number; waitForKey?: boolean } = {}): Promise<ServeProcess> => {
  const port = await freePort()
  const hubPort = options.hubPort ?? (await freePort())
  let output = ""
  const child = spawn(process.execPath, ["--import", "tsx", "api/serve.ts"], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    env: { ...process.env, PORT: String(port), HUB_URL: `http://127.0.0.1:${hubPort}`, ARTIFACTS_DIR: artifactsDir, STATE_DIR: tempDir("serve") },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true
  })
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()))
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; atMs: number }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal, atMs: Date.now() }))
  )
  if (options.waitForKey !== false) {
    await until(() => /ak_live_[A-Za-z0-9]{32}/.test(output) || child.exitCode !== null, 120_000, "make serve to print its key")
  }
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    hubUrl: `http://127.0.0.1:${hubPort}`,
    key: output.match(/ak_live_[A-Za-z0-9]{32}/)?.[0] ?? "",
    output: () => output,
    exited,
    hubPid: () => {
      try {
        // By command line: tsx may run an esbuild service beside the hub as another child.
        const pids = execFileSync("pgrep", ["-P", String(child.pid), "-f", "patent-hub/hub\\.mjs|inference-hub/main\\.ts"]).toString().trim().split("\n").map(Number)
        return pids.find((p) => p > 0)
      } catch {
        return undefined
      }
    }
  }
}
