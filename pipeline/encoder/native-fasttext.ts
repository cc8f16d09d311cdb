/**
 * The fastText command-line trainer (Debian package `fasttext`, 0.9.2: the same C++ code the
 * WebAssembly build compiles), run as a child process. It trains on every core where the
 * WebAssembly build has one thread, so the same wall time reads many times more text. The model
 * file it writes is the format the WebAssembly build writes, read by fasttext-model.ts.
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"

export interface NativeSkipgramArgs {
  readonly dim: number
  readonly epoch: number
  readonly minCount: number
  readonly minn: number
  readonly maxn: number
  readonly bucket: number
  readonly ws: number
  readonly neg: number
  readonly lr: number
  readonly t: number
  readonly seed: number
  readonly thread: number
}

const probes = new Map<string, Promise<boolean>>()

/**
 * Whether `command` (`fasttext` on PATH by default) runs here. Probed once per process: a build
 * asks when it computes the stage's settings and again when the stage runs.
 */
export const nativeFastTextAvailable = (command = "fasttext"): Promise<boolean> => {
  let probe = probes.get(command)
  if (!probe) {
    probe = new Promise((resolve) => {
      const child = spawn(command, ["skipgram"], { stdio: "ignore" })
      child.on("error", () => resolve(false))
      // With no arguments it prints its usage and exits 1: present and runnable.
      child.on("exit", (code) => resolve(code !== null))
    })
    probes.set(command, probe)
  }
  return probe
}

/**
 * Trains skip-gram on `text` (one record per line) and returns the .bin file's bytes; the
 * temporary folder is removed whatever happens.
 */
export const trainNativeSkipgram = async (
  text: Uint8Array,
  args: NativeSkipgramArgs,
  onProgress: (share: number) => void = () => {},
  command = "fasttext"
): Promise<Uint8Array> => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "fasttext-"))
  try {
    const input = path.join(dir, "train.txt")
    await fs.writeFile(input, text)
    const argv = ["skipgram", "-input", input, "-output", path.join(dir, "model"), "-loss", "ns"]
    for (const [k, v] of Object.entries(args)) argv.push(`-${k}`, String(v))
    // verbose 2 prints "Progress: 12.3%" on stderr, overwritten with carriage returns.
    argv.push("-verbose", "2")
    await new Promise<void>((resolve, reject) => {
      const child = spawn(command, argv, { stdio: ["ignore", "ignore", "pipe"] })
      let tail = ""
      child.stderr.setEncoding("utf8")
      child.stderr.on("data", (chunk: string) => {
        tail = (tail + chunk).slice(-2000)
        const m = /Progress:\s+([\d.]+)%[^\r\n]*$/.exec(tail.replace(/[\r\n]+$/, ""))
        if (m) onProgress(Number(m[1]) / 100)
      })
      child.on("error", reject)
      child.on("exit", (code, signal) =>
        code === 0 ? resolve() : reject(new Error(`fasttext skipgram exited with ${signal ?? code}: ${tail.split(/[\r\n]/).filter(Boolean).slice(-3).join(" | ")}`))
      )
    })
    return new Uint8Array(await fs.readFile(path.join(dir, "model.bin")))
  } finally {
    await fs.rm(dir, { recursive: true, force: true })
  }
}
