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

/** Every file under `dir` (hidden ones too), relative to it, sorted. */
export const filesUnder = async (dir: string, rel = ""): Promise<string[]> => {
  const out: string[] = []
  for (const e of await fs.readdir(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name
    if (e.isDirectory()) out.push(...(await filesUnder(dir, r)))
    else if (e.isFile()) out.push(r)
  }
  return out.sort()
}

/** Places `from` at `to` as a hard link (a version reusing an earlier one's file), or a copy across devices; replaces what is there. */
export const linkFile = async (from: string, to: string) => {
  await fs.mkdir(path.dirname(to), { recursive: true })
  await fs.rm(to, { force: true })
  await fs.link(from, to).catch(() => fs.copyFile(from, to))
}

/** Whether a file is there at the size a manifest recorded for it (what linking an earlier version's file relies on). */
export const hasRecordedSize = (file: string, bytes: number) => fs.stat(file).then((st) => st.size === bytes, () => false)

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
