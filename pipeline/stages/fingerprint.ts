/**
 * Fingerprints that decide stage reuse: the code version of a stage (hash of its source files)
 * and file hashes of its outputs.
 */
import { createHash } from "node:crypto"
import { createReadStream } from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

/** Repository root (this file lives in pipeline/stages/). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..")

export const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex")

export const sha256OfFile = (file: string) =>
  new Promise<string>((resolve, reject) => {
    const h = createHash("sha256")
    createReadStream(file)
      .on("data", (c) => h.update(c))
      .on("error", reject)
      .on("end", () => resolve(h.digest("hex")))
  })

const listFiles = async (p: string): Promise<string[]> => {
  const st = await fs.stat(p).catch(() => undefined)
  if (!st) return []
  if (st.isFile()) return [p]
  const out: string[] = []
  for (const e of (await fs.readdir(p, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    out.push(...(await listFiles(path.join(p, e.name))))
  }
  return out.filter((f) => /\.(ts|sql|json)$/.test(f))
}

/** Hash of the stage's source files, so editing the code that builds a stage invalidates it. */
export const codeVersionOf = async (sources: ReadonlyArray<string>) => {
  const h = createHash("sha256")
  for (const src of sources) {
    for (const file of await listFiles(path.join(repoRoot, src))) {
      h.update(path.relative(repoRoot, file))
      h.update(await fs.readFile(file))
    }
  }
  return h.digest("hex").slice(0, 16)
}
