/**
 * The Parquet files of an artifact version, relative to its folder: what the catalog, the API
 * and analysts expose as views (one per file, named by its file name). Hidden folders (staging
 * leftovers) are skipped.
 */
import { createHash } from "node:crypto"
import { createReadStream } from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"

export const parquetFilesOf = async (versionDir: string, rel = ""): Promise<string[]> => {
  const out: string[] = []
  for (const e of await fs.readdir(path.join(versionDir, rel), { withFileTypes: true }).catch(() => [])) {
    const r = path.join(rel, e.name)
    if (e.isDirectory() && !e.name.startsWith(".")) out.push(...(await parquetFilesOf(versionDir, r)))
    else if (e.isFile() && e.name.endsWith(".parquet")) out.push(r)
  }
  return out.sort()
}

/** A string as a SQL literal (for file paths in DuckDB statements). */
export const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`

export const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex")

/** sha256 of a file's bytes, streamed (artifact files run to gigabytes). */
export const sha256OfFile = (file: string) =>
  new Promise<string>((resolve, reject) => {
    const h = createHash("sha256")
    createReadStream(file)
      .on("data", (c) => h.update(c))
      .on("error", reject)
      .on("end", () => resolve(h.digest("hex")))
  })
