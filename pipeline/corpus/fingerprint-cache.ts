/**
 * Fingerprints of a local corpus kept between builds, beside the versions
 * (`<artifacts root>/.corpus-fingerprints.json`): a build hashes only the files whose size,
 * modification time, change time or inode differ from when they were last hashed.
 *
 * Every build lists the whole corpus to decide what changed, and a local folder's fingerprint is
 * the SHA-256 of its bytes: at 1M synthetic applications (4 GB) that was 6.8 s of every night's
 * wall time, at the national collection's size over a minute, for files a night never touches. A
 * write to a file moves its change time, which no tool can set back (utimes sets only the access
 * and modification times), so a file whose stat is unchanged has unchanged bytes.
 */
import type { BigIntStats } from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { sha256OfFile } from "../stages/fingerprint.ts"

/** The cache's name in the artifacts root. */
export const CORPUS_FINGERPRINTS = ".corpus-fingerprints.json"

interface Stored {
  /** The corpus folder the paths are relative to: another folder's entries are not used. */
  readonly root: string
  /** Corpus-relative path → [stat key, fingerprint]. */
  readonly files: Readonly<Record<string, readonly [string, string]>>
}

export interface FingerprintCache {
  /** A file's fingerprint: the one recorded for it while its stat is unchanged, else the SHA-256 of its bytes (then recorded). */
  readonly fingerprintOf: (full: string, rel: string) => Promise<string>
  /** Writes what was recorded this time (files gone from the corpus drop out); a failure only loses the cache. */
  readonly save: () => Promise<void>
}

const statKey = (s: BigIntStats) => [s.size, s.mtimeNs, s.ctimeNs, s.ino, s.dev].join(":")

export const openFingerprintCache = async (file: string, root: string): Promise<FingerprintCache> => {
  const stored = await fs
    .readFile(file, "utf8")
    .then((t) => JSON.parse(t) as Stored)
    .catch(() => undefined)
  const before = stored?.root === root && stored.files && typeof stored.files === "object" ? stored.files : {}
  const now: Record<string, readonly [string, string]> = {}
  return {
    fingerprintOf: async (full, rel) => {
      const key = statKey(await fs.stat(full, { bigint: true }))
      const entry = Object.hasOwn(before, rel) ? before[rel] : undefined
      const fingerprint = Array.isArray(entry) && entry[0] === key && typeof entry[1] === "string" ? entry[1] : `sha256:${await sha256OfFile(full)}`
      now[rel] = [key, fingerprint]
      return fingerprint
    },
    save: async () => {
      const tmp = `${file}.${process.pid}.tmp`
      try {
        await fs.mkdir(path.dirname(file), { recursive: true })
        await fs.writeFile(tmp, JSON.stringify({ root, files: now } satisfies Stored))
        await fs.rename(tmp, file)
      } catch {
        await fs.rm(tmp, { force: true })
      }
    }
  }
}
