/**
 * How a hub process is started: from one bundled JavaScript file, so that it is ready in a
 * fraction of the time it takes to load api/inference-hub/main.ts through tsx (which transpiles
 * the project's TypeScript and loads effect's and @effect/platform's several hundred modules one
 * by one). Measured on this 2-core machine under a load average of 8: process start to listening
 * 5.8–7.5 s through tsx against 1.2 s from the bundle.
 *
 * The bundle is made by esbuild (the compiler tsx itself runs on) from the hub's entry with its
 * dependencies, native packages left outside, into node_modules/.cache/patent-hub/, where those
 * packages resolve as they do from the sources. A stamp beside it lists every file it was built
 * from with its size and modification time; when one changed, the next start rebuilds it (written
 * under a temporary name and renamed, so concurrent starts never read half a file). When bundling
 * fails for any reason the hub runs from its sources through tsx, as before.
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const HUB_MAIN = fileURLToPath(new URL("../inference-hub/main.ts", import.meta.url))
const ROOT = path.resolve(path.dirname(HUB_MAIN), "../..")
const CACHE = path.join(ROOT, "node_modules", ".cache", "patent-hub")
/** The hub's bundle, which `make serve` starts (bench/scale.ts finds the hub process by it). */
export const HUB_BUNDLE = path.join(CACHE, "hub.mjs")
const STAMP = path.join(CACHE, "hub.inputs.json")

/** Packages with native parts or files of their own that must load from node_modules, not from the bundle. */
const OUTSIDE = ["onnxruntime-node", "usearch", "@duckdb/node-api", "fasttext.wasm.js", "wink-nlp", "wink-eng-lite-web-model"]

type Stamp = Record<string, readonly [size: number, mtimeMs: number]>

const stampOf = async (files: ReadonlyArray<string>): Promise<Stamp | undefined> => {
  const stats = await Promise.all(files.map((f) => fs.stat(path.join(ROOT, f)).catch(() => undefined)))
  if (stats.some((s) => s === undefined)) return undefined
  return Object.fromEntries(files.map((f, i) => [f, [stats[i]!.size, stats[i]!.mtimeMs] as const]))
}

const upToDate = async () => {
  const recorded = JSON.parse(await fs.readFile(STAMP, "utf8").catch(() => "null")) as Stamp | null
  if (!recorded || !(await fs.access(HUB_BUNDLE).then(() => true, () => false))) return false
  const now = await stampOf(Object.keys(recorded))
  return now !== undefined && Object.entries(recorded).every(([f, [size, mtime]]) => now[f][0] === size && now[f][1] === mtime)
}

const rebuild = async () => {
  const { build } = await import("esbuild")
  await fs.mkdir(CACHE, { recursive: true })
  const temporary = `${HUB_BUNDLE}.${process.pid}.${Date.now()}.tmp`
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [path.relative(ROOT, HUB_MAIN)],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile: temporary,
    external: OUTSIDE,
    metafile: true,
    logLevel: "silent",
    // Bundled CommonJS modules call require; an ES module has none of its own.
    banner: { js: `import { createRequire as __hubRequire } from "node:module"; const require = __hubRequire(import.meta.url);` }
  })
  const stamp = await stampOf(Object.keys(result.metafile.inputs))
  if (!stamp) throw new Error("a bundled file disappeared while bundling")
  await fs.rename(temporary, HUB_BUNDLE)
  const stampTemporary = `${STAMP}.${process.pid}.${Date.now()}.tmp`
  await fs.writeFile(stampTemporary, JSON.stringify(stamp))
  await fs.rename(stampTemporary, STAMP)
}

/** Node arguments that start the hub: its bundle when it is (or can be made) current, else its sources through tsx. */
export const hubCommand = async (): Promise<ReadonlyArray<string>> => {
  try {
    if (!(await upToDate())) await rebuild()
    return [HUB_BUNDLE]
  } catch {
    return ["--import", "tsx", HUB_MAIN]
  }
}
