/**
 * Fingerprints that decide stage reuse: the code version of a stage (hash of its source files,
 * everything they import, and the package versions they use) and file hashes of its outputs.
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

/** Repository root (this file lives in pipeline/stages/). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..")

export { sha256, sha256OfFile } from "../../core/artifacts/files.ts"

const listFiles = async (p: string): Promise<string[]> => {
  const st = await fs.stat(p).catch(() => undefined)
  if (!st) return []
  if (st.isFile()) return [p]
  const out: string[] = []
  for (const e of (await fs.readdir(p, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    out.push(...(await listFiles(path.join(p, e.name))))
  }
  return out.filter((f) => /\.(ts|mjs|sql|json)$/.test(f))
}

/**
 * What a module pulls in: relative imports and re-exports (not `import type`: types do not change
 * what a stage writes), dynamic imports with a literal, and worker scripts named by
 * `new URL("./…", import.meta.url)`; and the packages it imports or requires by name (`node:`
 * built-ins never match: the colon ends the name).
 */
const LOCAL_IMPORT = /(?:^|[^\w$.])(?:import\s+(?!type\b)(?:[^"';]*?\bfrom\s*)?|export\s+(?!type\b)[^"';]*?\bfrom\s*|import\s*\(\s*|new\s+URL\(\s*)["'](\.{1,2}\/[^"']+)["']/g
const PACKAGE_IMPORT = /(?:^|[^\w$.])(?:import\s+(?!type\b)(?:[^"';]*?\bfrom\s*)?|export\s+(?!type\b)[^"';]*?\bfrom\s*|import\s*\(\s*|require\(\s*|createRequire\([^)]*\)\(\s*)["']((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)(?:\/[^"']*)?["']/g

const packageVersion = async (name: string) =>
  fs.readFile(path.join(repoRoot, "node_modules", name, "package.json"), "utf8").then(
    (t) => `${name}@${(JSON.parse(t) as { version?: string }).version ?? "?"}`,
    () => `${name}@missing`
  )

/**
 * The files a stage's code is made of: its listed sources and, transitively, every local module
 * they import (so a stage that uses core/index/hnsw.ts is rebuilt when it changes, whether or not
 * its list names it), plus the versions of the packages they import (a DuckDB or usearch upgrade
 * can change what is written).
 */
export const codeSourcesOf = async (sources: ReadonlyArray<string>) => {
  const files = new Set<string>()
  const packages = new Set<string>()
  const queue: string[] = []
  for (const src of sources) for (const f of await listFiles(path.join(repoRoot, src))) queue.push(f)
  while (queue.length > 0) {
    const file = queue.pop()!
    if (files.has(file)) continue
    files.add(file)
    if (!/\.(ts|mjs)$/.test(file)) continue
    const text = await fs.readFile(file, "utf8")
    for (const [, spec] of text.matchAll(LOCAL_IMPORT)) {
      const target = path.resolve(path.dirname(file), spec)
      if (target.startsWith(repoRoot) && !files.has(target) && (await fs.stat(target).then((s) => s.isFile(), () => false))) queue.push(target)
    }
    for (const [, name] of text.matchAll(PACKAGE_IMPORT)) packages.add(name)
  }
  return {
    files: [...files].map((f) => path.relative(repoRoot, f).split(path.sep).join("/")).sort(),
    packages: await Promise.all([...packages].sort().map(packageVersion))
  }
}

/** Hash of the stage's code (its sources and what they import), so editing the code that builds a stage invalidates it. */
export const codeVersionOf = async (sources: ReadonlyArray<string>) => {
  const { files, packages } = await codeSourcesOf(sources)
  const h = createHash("sha256")
  for (const rel of files) {
    h.update(rel)
    h.update(await fs.readFile(path.join(repoRoot, rel)))
  }
  for (const p of packages) h.update(p)
  return h.digest("hex").slice(0, 16)
}
