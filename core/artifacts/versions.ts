/**
 * The artifacts folder: `<root>/<version>/` per complete build, `<root>/.partial-<buildKey>/`
 * while one is being built (kept after a crash so the next run resumes), and `<root>/current`,
 * a symlink switched atomically (rename of a fresh link over the old one) to the newest
 * complete version. Shared by the pipeline (publish, rollback) and the API (replicas that
 * download versions from S3 keep the same layout locally).
 */
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Effect } from "effect"
import { decodeManifest, type Manifest } from "./manifest.ts"

/** A complete version's directory name: v<UTC timestamp>-<first 8 hex digits of the build key>. */
export const VERSION_NAME = /^v\d{8}T\d{6}Z-[0-9a-f]{8}$/

export const partialDirOf = (root: string, buildKey: string) => path.join(root, `.partial-${buildKey}`)

/** The version directory `current` points at, or undefined when there is none. */
export const currentVersionDir = async (root: string): Promise<string | undefined> => {
  const link = path.join(root, "current")
  try {
    return await fs.realpath(link)
  } catch {
    return undefined
  }
}

export const readManifest = async (versionDir: string): Promise<Manifest | undefined> => {
  try {
    const raw = JSON.parse(await fs.readFile(path.join(versionDir, "manifest.json"), "utf8"))
    return await Effect.runPromise(decodeManifest(raw))
  } catch {
    return undefined
  }
}

/** Point `current` at `versionName` atomically: readers see the old or the new version, never neither. */
export const switchCurrent = async (root: string, versionName: string) => {
  const tmp = path.join(root, `.current-${process.pid}-${Date.now()}`)
  await fs.symlink(versionName, tmp)
  await fs.rename(tmp, path.join(root, "current"))
}

/** Removes complete versions beyond the newest `keep` (never the current one). */
export const pruneVersions = async (root: string, keep: number) => {
  const current = await currentVersionDir(root)
  const entries = (await fs.readdir(root, { withFileTypes: true }))
    .filter((e) => e.isDirectory() && VERSION_NAME.test(e.name))
    .map((e) => e.name)
    .sort()
    .reverse()
  for (const name of entries.slice(keep)) {
    const dir = path.join(root, name)
    if (dir !== current) await fs.rm(dir, { recursive: true, force: true })
  }
}

/** Complete versions (a directory with a manifest that validates), oldest first. */
export const completeVersions = async (root: string): Promise<ReadonlyArray<string>> => {
  const names = (await fs.readdir(root, { withFileTypes: true }).catch(() => []))
    .filter((e) => e.isDirectory() && VERSION_NAME.test(e.name))
    .map((e) => e.name)
    .sort()
  const complete: string[] = []
  for (const name of names) if ((await readManifest(path.join(root, name)))?.version === name) complete.push(name)
  return complete
}

export class RollbackRefused extends Error {}

/**
 * `make rollback`: points `current` at the newest complete version older than the one it names
 * now (a second rollback goes one further back). A running service follows the link as it
 * follows a publication. Refused, with `current` untouched, when there is no older version.
 */
export const rollbackCurrent = async (root: string): Promise<{ readonly from: string; readonly to: string }> => {
  const current = await currentVersionDir(root)
  if (!current) throw new RollbackRefused(`${path.join(root, "current")} names no version: nothing to roll back`)
  const from = path.basename(current)
  const older = (await completeVersions(root)).filter((v) => v < from)
  const to = older.at(-1)
  if (!to) throw new RollbackRefused(`no complete version older than ${from} is kept in ${root}: nothing to roll back to`)
  await switchCurrent(root, to)
  return { from, to }
}
